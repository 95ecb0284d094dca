// The fastify application: schemas validated by ajv with the refusal sentences as annotations,
// the plugins (errors, the OpenAPI document, the page and CORS, keys and rate limits) and the
// routes of each area.

import { randomUUID } from "node:crypto";
import type { Ajv } from "ajv";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import { redactUrl } from "syncfile/internal/text/redact.js";
import type { ApiKeys } from "./ApiKeys.js";
import { acceptedRequestId } from "./log.js";
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
import { healthRoutes } from "./routes/health.js";
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
  trustProxy?: boolean | number | string,
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: context.log,
    // one line a request, at its end (below), not fastify's two
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: "requestId" }),
    // the client's X-Request-Id when it is a safe one, else a new one; echoed in the answer
    genReqId: (request) => acceptedRequestId(request.headers["x-request-id"]) ?? randomUUID(),
    bodyLimit: 1024 * 1024,
    ...(trustProxy === undefined
      ? {}
      : // a number of hops: the nearest n proxies (fastify's own number form, as a function)
        {
          trustProxy:
            typeof trustProxy === "number" ? (_: string, hop: number) => hop < trustProxy : trustProxy,
        }),
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
  app.addHook("onRequest", async (request, reply) => {
    reply.header("X-Request-Id", request.id);
  });
  app.addHook("onResponse", async (request, reply) => {
    const operation = request.routeOptions.config?.operation ?? request.routeOptions.url ?? "unmatched";
    const status = reply.statusCode;
    const seconds = reply.elapsedTime / 1000;
    context.metrics.requests.inc({ operation, method: request.method, status });
    context.metrics.requestSeconds.observe({ operation, method: request.method }, seconds);
    if (status === 409 || status === 429) context.metrics.refusals.inc({ operation, status });
    // the URL without its signature: a storage URL's query authorises the request by itself
    const line = { method: request.method, url: redactUrl(request.url), operation, status };
    // a probe that answers fills no log at info (one every few seconds); one that fails is seen
    const quiet = request.routeOptions.config?.probe === true && status < 300;
    request.log[quiet ? "debug" : "info"]({ ...line, durationMs: Math.round(reply.elapsedTime) }, "request");
  });
  try {
    await app.register(bodyTimeouts, timeouts);
    await app.register(errors);
    await app.register(openapi);
    await app.register(page, { cors });
    await app.register(authentication, { keys, limits: context.rateLimits, clock: context.clock });
    for (const routes of [
      healthRoutes,
      filesRoutes,
      syncsRoutes,
      accessReviewsRoutes,
      appAccountsRoutes,
      storageRoutes,
    ]) {
      await app.register(routes, context);
    }
    await app.ready();
    return app;
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
}
