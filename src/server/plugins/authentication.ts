// Bearer keys and rate limits, for every route that names its operation in its config
// (`config.operation`, from src/http/operations.ts): the key must be one of the service's, and
// each key may call each operation as often a minute as the operation's limit says. Routes
// without an operation (the storage, which its signed URLs authorise) pass untouched.

import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { ALIASES, OPERATIONS, type Operation, RATE_WINDOW_MS } from "syncfile/internal/http/operations.js";
import type { ApiKeys } from "../ApiKeys.js";
import { HttpError } from "../HttpError.js";
import type { RateLimitsRepository } from "../repositories/types.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The operation of the interface document the route serves: its key check and rate limit. */
    operation?: Operation;
  }
  interface FastifyRequest {
    /** The place (from 1) of the API key the request was made with, once checked. */
    apiKeyNumber?: number;
  }
}

/** What the plugin checks against. */
export interface AuthenticationOptions {
  keys: ApiKeys;
  /** Where the calls are counted. */
  limits: RateLimitsRepository;
  clock: () => number;
}

async function authentication(
  app: FastifyInstance,
  { keys, limits, clock }: AuthenticationOptions,
): Promise<void> {
  app.decorateRequest("apiKeyNumber", undefined);
  app.addHook("onRequest", async (request: FastifyRequest, reply) => {
    const operation = request.routeOptions.config?.operation;
    if (operation === undefined) return;
    const checked = keys.check(request.headers.authorization);
    if (!checked.ok)
      throw new HttpError(401, checked.message, {}, { "WWW-Authenticate": 'Bearer realm="syncfile"' });
    request.apiKeyNumber = checked.number;
    // an alias counts in its operation's limit: two paths are not twice the calls
    const counted = ALIASES[operation] ?? operation;
    const { perMinute, method, path } = OPERATIONS[counted];
    const state = await limits.take(checked.id, counted, perMinute, clock());
    const resetSeconds = Math.ceil(state.resetMs / 1000);
    reply.header("RateLimit-Policy", `${perMinute};w=${RATE_WINDOW_MS / 1000}`);
    reply.header("RateLimit-Limit", String(perMinute));
    reply.header("RateLimit-Remaining", String(state.remaining));
    reply.header("RateLimit-Reset", String(resetSeconds));
    if (!state.allowed) {
      throw new HttpError(
        429,
        `rate limit: ${perMinute} ${method} ${path} calls a minute per API key; retry in ${resetSeconds} s`,
        {},
        { "Retry-After": String(Math.max(1, resetSeconds)) },
      );
    }
  });
}

export default fp(authentication, { name: "syncfile-authentication", fastify: "5.x" });
