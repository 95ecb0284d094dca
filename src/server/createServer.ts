// The service of the interface document: the repositories (repositories/: PGlite in the data
// directory, or PostgreSQL), the object storage (storage/: the data directory, or a bucket),
// the syncs and the access reviews, served by the fastify application (app.ts).

import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import { currencyOf } from "syncfile/internal/model/money.js";
import { addSecret, addSecretsOf } from "syncfile/internal/text/redact.js";
import { AccessReviews } from "./AccessReviews.js";
import { ApiKeys } from "./ApiKeys.js";
import { BODY_TIMEOUTS, buildApp } from "./app.js";
import { createLog } from "./log.js";
import { Metrics } from "./metrics.js";
import { publicUrlOf, type ServerOptions, type SyncfileServer } from "./options.js";
import { corsOrigins } from "./plugins/page.js";
import { openEmbedded } from "./repositories/embedded.js";
import { openPostgres } from "./repositories/postgres.js";
import type { Repositories } from "./repositories/types.js";
import type { Health } from "./routes/health.js";
import { SyncRunner } from "./SyncRunner.js";
import { checkSeed, readSeed } from "./seed.js";
import { BlobStore } from "./storage/disk.js";
import type { ObjectStore } from "./storage/types.js";
import type { DependencyLog } from "./Unavailable.js";

/** Starts a server. */
export async function createServer(options: ServerOptions): Promise<SyncfileServer> {
  // whatever quotes them later (a driver's error, a log line) says *** instead
  for (const url of [options.database, options.redis, options.storage]) addSecretsOf(url);
  addSecret(process.env.AWS_SECRET_ACCESS_KEY);
  addSecret(process.env.AWS_SESSION_TOKEN);
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const clock = options.clock ?? Date.now;
  const displayCurrency = currencyOf(options.displayCurrency ?? "USD").code;
  const sourceCurrency = currencyOf(options.sourceCurrency ?? displayCurrency).code;
  const seed =
    typeof options.seed === "string" ? readSeed(options.seed) : options.seed && checkSeed(options.seed);
  const { keys, created } = ApiKeys.forDataDir(dataDir, options.apiKeys ?? []);
  const currency = { displayCurrency, sourceCurrency, ...(options.rates ? { rates: options.rates } : {}) };
  const maxUploadBytes = options.maxUploadBytes ?? 5 * 1024 ** 3;
  const cors = corsOrigins(options.cors ?? []);
  const maxDeletes = options.maxDeletes ?? 0;
  if (!Number.isSafeInteger(maxDeletes) || maxDeletes < 0) {
    throw new RangeError(`maxDeletes must be a whole number of at least 0, got ${maxDeletes}`);
  }

  const log = createLog({ level: "warn", ...options.log });
  // away and back again, both warnings: the pair is seen at the library's level (warn) too
  const dependencyLog = (message: string, down: boolean) =>
    log.warn({ dependency: down ? "away" : "back" }, message);
  const backend = await openBackend(options, dataDir, clock, dependencyLog);
  const { files, syncs, appAccounts, accessReviews, rateLimits, blobs } = backend;
  const metrics = new Metrics();
  const reviews = new AccessReviews(accessReviews, blobs, options.reportDelayMs ?? 5000, clock, {
    made: (execution, bytes) => {
      metrics.reportArchives.inc();
      log.info({ execution, bytes }, "report archive");
    },
    failed: (error) => log.error({ err: error }, "report generation failed"),
  });
  const runner = new SyncRunner(files, syncs, blobs, currency, maxDeletes);
  const health: Health = {
    draining: false,
    checks: {
      database: backend.ping,
      storage: () => blobs.ping(),
      ...(backend.redis ? { redis: backend.redis } : {}),
    },
  };
  const context = {
    files,
    appAccounts,
    rateLimits,
    blobs,
    reviews,
    clock,
    displayCurrency,
    maxUploadBytes,
    log,
    metrics,
    health,
    metricsToken: options.metricsToken ?? null,
    publicUrl: publicUrlOf(options.publicUrl),
  };
  let app: FastifyInstance | null = null;
  try {
    if (seed) await accessReviews.addSeed(seed, new Date(clock()));
    app = await buildApp(
      { ...context, syncs: runner },
      keys,
      cors,
      {
        idleMs: options.bodyIdleTimeoutMs ?? BODY_TIMEOUTS.idleMs,
        totalMs: options.bodyTimeoutMs ?? BODY_TIMEOUTS.totalMs,
      },
      options.trustProxy,
    );
    await app.listen({ host: options.host ?? "127.0.0.1", port: options.port ?? 8080 });
  } catch (error) {
    await app?.close();
    await backend.close();
    throw error;
  }
  const host = options.host ?? "127.0.0.1";
  const { port } = app.server.address() as { port: number };
  const stopReports = options.backgroundReports === false ? null : reviews.schedule(1000);
  const close = async () => {
    stopReports?.();
    await (app as FastifyInstance).close();
    await reviews.settled(); // a run under way ends before the database closes
    await backend.close();
  };
  let hurry = () => {};
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    storage: blobs.location,
    createdApiKey: created,
    fastify: app,
    generateReports: () => reviews.generateDue(),
    close,
    async shutdown() {
      const drainMs = options.drainMs ?? 5000;
      health.draining = true;
      log.info({ drainMs }, "draining: /readyz answers 503");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, drainMs);
        hurry = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      const timeoutMs = options.shutdownTimeoutMs ?? 30_000;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), timeoutMs);
      });
      const closing = close();
      if ((await Promise.race([closing, late])) === "late") {
        log.warn({ shutdownTimeoutMs: timeoutMs }, "requests still under way: closing their connections");
        (app as FastifyInstance).server.closeAllConnections();
        await closing;
      }
      clearTimeout(timer);
      log.info("stopped");
    },
    hurry: () => hurry(),
  };
}

/**
 * The repositories (PGlite in `dataDir`, or PostgreSQL), the rate limits (theirs, or Redis) and
 * the object storage (`dataDir`, or a bucket) that `options` ask for; what was opened is closed
 * again when a later one cannot be.
 */
async function openBackend(
  options: ServerOptions,
  dataDir: string,
  clock: () => number,
  log: DependencyLog,
): Promise<Repositories & { blobs: ObjectStore; redis: (() => Promise<void>) | null }> {
  const repositories = options.database
    ? await openPostgres(options.database, log)
    : await openEmbedded(dataDir, log);
  const closing: (() => unknown)[] = [repositories.close];
  let closed: Promise<void> | null = null;
  // once, the last opened first, each step whatever the one before did
  const close = () => {
    closed ??= (async () => {
      for (const step of [...closing].reverse())
        await Promise.resolve()
          .then(step)
          .catch(() => {});
    })();
    return closed;
  };
  try {
    let { rateLimits } = repositories;
    let ping: (() => Promise<void>) | null = null;
    if (options.redis) {
      const redis = await (await import("./repositories/redis.js")).RedisRateLimits.open(options.redis, log);
      closing.push(() => redis.close());
      rateLimits = redis;
      ping = () => redis.ping();
    }
    const blobs = options.storage
      ? await (await import("./storage/s3.js")).S3Store.open(options.storage, log)
      : BlobStore.open(dataDir, repositories.files, clock);
    closing.push(() => blobs.close());
    return { ...repositories, rateLimits, blobs, redis: ping, close };
  } catch (error) {
    await close();
    throw error;
  }
}
