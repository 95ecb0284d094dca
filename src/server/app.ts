// The fastify application: schemas validated by ajv with the refusal sentences as annotations,
// the plugins (errors, the OpenAPI document, the page and CORS, keys and rate limits) and the
// routes of each area.

import type { Ajv } from "ajv";
import Fastify, { type FastifyInstance } from "fastify";
import type { ApiKeys } from "./ApiKeys.js";
import authentication from "./plugins/authentication.js";
import bodyTimeouts, { type BodyTimeouts } from "./plugins/bodyTimeouts.js";
import errors from "./plugins/errors.js";
import openapi from "./plugins/openapi.js";
import page from "./plugins/page.js";
import type { ServerContext } from "./routes/_context.js";
import { MESSAGE_KEYWORDS } from "./routes/_schemas.js";
import { accessReviewsRoutes } from "./routes/accessReviews.js";
import { appAccountsRoutes } from "./routes/appAccounts.js";
import { filesRoutes } from "./routes/files.js";
import { storageRoutes } from "./routes/storage.js";
import { syncsRoutes } from "./routes/syncs.js";

/** The default limits on receiving a body: a pause of 30 s, and 2 minutes in all (but an upload's). */
export const BODY_TIMEOUTS: BodyTimeouts = { idleMs: 30_000, totalMs: 120_000 };

/** The application of `context`, its API keys `keys`, ready to listen. */
export async function buildApp(
  context: ServerContext,
  keys: ApiKeys,
  cors: readonly string[] = [],
  timeouts: BodyTimeouts = BODY_TIMEOUTS,
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    // verbose: a refusal shows the value it refused; the schemas' sentences are annotations
    ajv: {
      customOptions: { verbose: true, coerceTypes: false, removeAdditional: false },
      plugins: [
        (ajv: Ajv) =>
          MESSAGE_KEYWORDS.reduce((a, keyword) => a.addKeyword({ keyword, schemaType: "string" }), ajv),
      ],
    },
  });
  try {
    await app.register(bodyTimeouts, timeouts);
    await app.register(errors);
    await app.register(openapi);
    await app.register(page, { cors });
    await app.register(authentication, { keys, limits: context.rateLimits, clock: context.clock });
    for (const routes of [filesRoutes, syncsRoutes, accessReviewsRoutes, appAccountsRoutes, storageRoutes]) {
      await app.register(routes, context);
    }
    await app.ready();
    return app;
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
}
