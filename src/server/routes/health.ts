// What an operator's tools ask of a server, outside the API's keys and rate limits: /healthz
// (the process answers), /readyz (its database, storage and Redis answer, and it is not
// draining: a load balancer stops sending before the process stops), and /metrics in the
// Prometheus text format, behind a token of its own when one is set.

import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { redactText } from "syncfile/internal/text/redact.js";
import { HttpError } from "../HttpError.js";
import type { Metrics } from "../metrics.js";
import { describeError, Unavailable } from "../Unavailable.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * A probe's route, asked every few seconds by a load balancer or Prometheus: its request line
     * is at debug while it answers 2xx (app.ts), at info like any other when it does not.
     */
    probe?: boolean;
  }
}

/** Whether the server is ready: a check for each dependency, and whether it is draining. */
export interface Health {
  draining: boolean;
  /** Each dependency's check, by name (database, storage, redis): resolves when it answers. */
  readonly checks: Readonly<Record<string, () => Promise<void>>>;
}

/** What the routes need. */
export interface OperatorContext {
  health: Health;
  metrics: Metrics;
  /** The bearer token /metrics asks for; null: none. */
  metricsToken: string | null;
}

/** The longest a readiness check waits for a dependency. */
const CHECK_MS = 3000;

const TAGS = ["operations"];
const STATUS = { type: "object", required: ["status"], properties: { status: { type: "string" } } };
const READINESS = {
  type: "object",
  required: ["status", "checks"],
  properties: {
    status: { type: "string", enum: ["ready", "not ready", "draining"] },
    checks: {
      type: "object",
      additionalProperties: { type: "string" },
      description: "each dependency: ok, or why it does not answer",
    },
  },
};

export async function healthRoutes(
  app: FastifyInstance,
  { health, metrics, metricsToken }: OperatorContext,
): Promise<void> {
  app.get(
    "/healthz",
    {
      config: { probe: true },
      schema: {
        operationId: "healthz",
        summary: "Whether the process answers (liveness)",
        tags: TAGS,
        security: [],
        response: { 200: { ...STATUS, description: "it answers: {status: ok}" } },
      },
    },
    async () => ({ status: "ok" }),
  );

  app.get(
    "/readyz",
    {
      config: { probe: true },
      schema: {
        operationId: "readyz",
        summary: "Whether the server can serve: its dependencies answer, and it is not draining (readiness)",
        tags: TAGS,
        security: [],
        response: {
          200: { ...READINESS, description: "ready: every dependency answers" },
          503: {
            ...READINESS,
            description: "not ready (a dependency does not answer), or draining after SIGTERM",
          },
        },
      },
    },
    async (_request, reply) => {
      if (health.draining) {
        reply.code(503);
        return { status: "draining", checks: {} };
      }
      const results = await Promise.all(
        Object.entries(health.checks).map(async ([name, check]) => [name, await bounded(check)] as const),
      );
      const ready = results.every(([, said]) => said === "ok");
      reply.code(ready ? 200 : 503);
      return { status: ready ? "ready" : "not ready", checks: Object.fromEntries(results) };
    },
  );

  app.get(
    "/metrics",
    {
      config: { probe: true },
      schema: {
        operationId: "metrics",
        summary: "The server's metrics, in the Prometheus text format",
        description:
          "Requests by operation and status with their durations, syncs by outcome with theirs, 409s and 429s by operation, the bytes of registered uploads, report archives, and the process's own (event-loop lag, memory, CPU). With SYNCFILE_METRICS_TOKEN set, it asks for Authorization: Bearer <that token>.",
        tags: TAGS,
        security: metricsToken === null ? [] : [{ metricsToken: [] }],
        produces: ["text/plain"],
      },
    },
    async (request, reply) => {
      if (metricsToken !== null && !bearerIs(request.headers.authorization, metricsToken)) {
        throw new HttpError(
          401,
          "/metrics asks for its own token: send Authorization: Bearer <SYNCFILE_METRICS_TOKEN>",
          {},
          { "WWW-Authenticate": 'Bearer realm="syncfile metrics"' },
        );
      }
      const { body, contentType } = await metrics.text();
      return reply.type(contentType).send(body);
    },
  );
}

/** "ok" when `check` resolves within CHECK_MS, else why not in a few words. */
async function bounded(check: () => Promise<void>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer in ${CHECK_MS / 1000} s`), CHECK_MS);
  });
  try {
    return await Promise.race([
      check().then(
        () => "ok",
        // a dependency's error may quote what configured it
        (error: unknown) => redactText(error instanceof Unavailable ? error.reason : describeError(error)),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether `header` is `Bearer <token>`, compared in constant time. */
function bearerIs(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer +(\S+)\s*$/i.exec(header ?? "")?.[1] ?? "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
