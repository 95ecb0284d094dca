// The service of the interface document: the repositories (repositories/: PGlite in the data
// directory, or PostgreSQL), the object storage (storage/: the data directory, or a bucket),
// the syncs and the access reviews, served by the fastify application (app.ts).

import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import { currencyOf } from "../model/money.js";
import { AccessReviews } from "./AccessReviews.js";
import { ApiKeys } from "./ApiKeys.js";
import { BODY_TIMEOUTS, buildApp } from "./app.js";
import type { ServerOptions, SyncfileServer } from "./options.js";
import { corsOrigins } from "./plugins/page.js";
import { openEmbedded } from "./repositories/embedded.js";
import { openPostgres } from "./repositories/postgres.js";
import type { Repositories } from "./repositories/types.js";
import { SyncRunner } from "./SyncRunner.js";
import { checkSeed, readSeed } from "./seed.js";
import { BlobStore } from "./storage/disk.js";
import type { ObjectStore } from "./storage/types.js";

/** Starts a server. */
export async function createServer(options: ServerOptions): Promise<SyncfileServer> {
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

  const { files, syncs, appAccounts, accessReviews, rateLimits, blobs, close } = await openBackend(
    options,
    dataDir,
    clock,
  );
  const reviews = new AccessReviews(accessReviews, blobs, options.reportDelayMs ?? 5000, clock);
  const runner = new SyncRunner(files, syncs, blobs, currency, maxDeletes);
  const context = { files, appAccounts, rateLimits, blobs, reviews, clock, displayCurrency, maxUploadBytes };
  let app: FastifyInstance | null = null;
  try {
    if (seed) await accessReviews.addSeed(seed, new Date(clock()));
    app = await buildApp({ ...context, syncs: runner }, keys, cors, {
      idleMs: options.bodyIdleTimeoutMs ?? BODY_TIMEOUTS.idleMs,
      totalMs: options.bodyTimeoutMs ?? BODY_TIMEOUTS.totalMs,
    });
    await app.listen({ host: options.host ?? "127.0.0.1", port: options.port ?? 8080 });
  } catch (error) {
    await app?.close();
    await close();
    throw error;
  }
  const host = options.host ?? "127.0.0.1";
  const { port } = app.server.address() as { port: number };
  const stopReports = options.backgroundReports === false ? null : reviews.schedule(1000);
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    storage: blobs.location,
    createdApiKey: created,
    fastify: app,
    generateReports: () => reviews.generateDue(),
    async close() {
      stopReports?.();
      await (app as FastifyInstance).close();
      await reviews.settled(); // a run under way ends before the database closes
      await close();
    },
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
): Promise<Repositories & { blobs: ObjectStore }> {
  const repositories = options.database ? await openPostgres(options.database) : await openEmbedded(dataDir);
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
    if (options.redis) {
      const redis = await (await import("./repositories/redis.js")).RedisRateLimits.open(options.redis);
      closing.push(() => redis.close());
      rateLimits = redis;
    }
    const blobs = options.storage
      ? await (await import("./storage/s3.js")).S3Store.open(options.storage)
      : BlobStore.open(dataDir, repositories.files, clock);
    closing.push(() => blobs.close());
    return { ...repositories, rateLimits, blobs, close };
  } catch (error) {
    await close();
    throw error;
  }
}
