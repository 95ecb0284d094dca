// What the routes share: the server's parts, and how a route of the interface document is
// declared (its operation's method and path, and the operation in its config for the
// authentication plugin).

import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler } from "fastify";
import { OPERATIONS, type Operation } from "syncfile/internal/http/operations.js";
import type { AccessReviews } from "../AccessReviews.js";
import type { ServerLog } from "../log.js";
import type { AppAccountsRepository, FilesRepository, RateLimitsRepository } from "../repositories/types.js";
import type { SyncRunner } from "../SyncRunner.js";
import type { ObjectStore } from "../storage/types.js";
import { operationDocs } from "./_docs.js";
import type { OperatorContext } from "./health.js";

/** The parts of a running server the routes use. */
export interface ServerContext extends OperatorContext {
  blobs: ObjectStore;
  files: FilesRepository;
  appAccounts: AppAccountsRepository;
  rateLimits: RateLimitsRepository;
  syncs: SyncRunner;
  reviews: AccessReviews;
  clock: () => number;
  displayCurrency: string;
  maxUploadBytes: number;
  log: ServerLog;
  /** Where clients reach this server (--public-url), without a trailing slash; null: where each request came to. */
  publicUrl: string | null;
}

/** The schemas of a route's input, which fastify checks before the handler runs. */
export interface RouteSchemas {
  params?: Record<string, unknown>;
  querystring?: Record<string, unknown>;
  body?: Record<string, unknown>;
}

/** What else a route can say: the body's media types, and its own validation. */
export interface RouteExtras {
  consumes?: string[];
  validatorCompiler?: FastifySchemaCompiler<unknown>;
}

/** Declares the route of `operation` on `app`, its input checked against `schema`. */
export function route(
  app: FastifyInstance,
  operation: Operation,
  schema: RouteSchemas,
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  { consumes, validatorCompiler }: RouteExtras = {},
): void {
  const { method, path } = OPERATIONS[operation];
  app.route({
    method,
    url: path,
    config: { operation },
    schema: { ...schema, ...operationDocs(operation), ...(consumes ? { consumes } : {}) },
    ...(validatorCompiler ? { validatorCompiler } : {}),
    handler,
  });
}

/**
 * The address clients reach this server at, for the URLs it hands out that point back at it:
 * `publicUrl` when one is set, else the one the request came to (behind a trusted proxy, its
 * X-Forwarded-Proto and X-Forwarded-Host: fastify's trustProxy).
 */
export function baseUrl(request: FastifyRequest, publicUrl: string | null): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}
