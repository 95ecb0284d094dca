// The service of the interface document, on fastify, assembled from plugins: the error
// handler, bearer keys with per-key, per-operation rate limits (plugins/), and the routes of
// each area (routes/: files, syncs, access reviews, app accounts, and the storage, which a
// signed URL authorises by itself), their SQL in repositories/.

import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { Ajv } from "ajv";
import Fastify, { type FastifyInstance } from "fastify";
import { currencyOf, type RateTable } from "../model/money.js";
import { AccessReviews, checkSeed, readSeed, type Seed } from "./AccessReviews.js";
import { ApiKeys } from "./ApiKeys.js";
import { BlobStore } from "./BlobStore.js";
import { Database } from "./Database.js";
import authentication from "./plugins/authentication.js";
import errors from "./plugins/errors.js";
import openapi from "./plugins/openapi.js";
import { AppAccountsRepository } from "./repositories/appAccounts.js";
import { FilesRepository } from "./repositories/files.js";
import type { ServerContext } from "./routes/_context.js";
import { MESSAGE_KEYWORDS } from "./routes/_schemas.js";
import { accessReviewsRoutes } from "./routes/accessReviews.js";
import { appAccountsRoutes } from "./routes/appAccounts.js";
import { filesRoutes } from "./routes/files.js";
import { storageRoutes } from "./routes/storage.js";
import { syncsRoutes } from "./routes/syncs.js";
import { recoverSyncs, SyncRunner } from "./SyncRunner.js";

/** How to run a server. */
export interface ServerOptions {
  /** Where metadata and blobs live; created when missing. */
  dataDir: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** Campaigns and executions to add on start: a path or the seed itself. */
  seed?: string | Seed;
  /** The organisation's display currency. Default USD. */
  displayCurrency?: string;
  /** The currency of the files' cents. Default: the display currency. */
  sourceCurrency?: string;
  /** Rates from the source currency, when it differs from the display currency. */
  rates?: RateTable;
  /** Accepted API keys; none: the data directory's own key (created on first start). */
  apiKeys?: readonly string[];
  /** The time in ms since the epoch (tests pass a controllable clock). Default Date.now. */
  clock?: () => number;
  /** Largest upload in bytes. Default 5 GiB. */
  maxUploadBytes?: number;
  /** How long after an execution finishes its report archive appears. Default 5 s. */
  reportDelayMs?: number;
  /** Run report generation every second (default true; tests call generateReports()). */
  backgroundReports?: boolean;
}

/** A running server. */
export interface SyncfileServer {
  /** Where it listens, e.g. http://127.0.0.1:8080. */
  readonly url: string;
  /** The key created on this first start, to show once; null otherwise. */
  readonly createdApiKey: string | null;
  /** The fastify instance (for inject() in tests). */
  readonly fastify: FastifyInstance;
  /** Makes the report archives that are due now; resolves to how many. */
  generateReports(): Promise<number>;
  /** Stops listening and closes the database. */
  close(): Promise<void>;
}

/** Starts a server. */
export async function createServer(options: ServerOptions): Promise<SyncfileServer> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const clock = options.clock ?? Date.now;
  const displayCurrency = currencyOf(options.displayCurrency ?? "USD").code;
  const sourceCurrency = currencyOf(options.sourceCurrency ?? displayCurrency).code;
  const seed =
    typeof options.seed === "string" ? readSeed(options.seed) : options.seed ? checkSeed(options.seed) : null;
  const maxUploadBytes = options.maxUploadBytes ?? 5 * 1024 ** 3;
  const { keys, created } = ApiKeys.forDataDir(dataDir, options.apiKeys ?? []);

  const db = await Database.open(dataDir);
  const blobs = BlobStore.open(dataDir);
  const syncs = new SyncRunner(db, blobs, {
    displayCurrency,
    sourceCurrency,
    ...(options.rates ? { rates: options.rates } : {}),
  });
  const reviews = new AccessReviews(db, blobs, options.reportDelayMs ?? 5000);
  try {
    if (db.owner) await recoverSyncs(db);
    if (seed) await reviews.load(seed, clock());
  } catch (error) {
    await db.close();
    throw error;
  }

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
    return await serve(app);
  } catch (error) {
    await app.close().catch(() => {});
    await db.close();
    throw error;
  }

  async function serve(app: FastifyInstance): Promise<SyncfileServer> {
    const context: ServerContext = {
      blobs,
      files: new FilesRepository(db),
      appAccounts: new AppAccountsRepository(db),
      syncs,
      reviews,
      clock,
      displayCurrency,
      maxUploadBytes,
    };
    await app.register(errors);
    await app.register(openapi);
    await app.register(authentication, { keys, clock });
    await app.register(filesRoutes, context);
    await app.register(syncsRoutes, context);
    await app.register(accessReviewsRoutes, context);
    await app.register(appAccountsRoutes, context);
    await app.register(storageRoutes, context);

    await app.listen({ host: options.host ?? "127.0.0.1", port: options.port ?? 8080 });
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : (options.port ?? 8080);
    const host = options.host ?? "127.0.0.1";
    const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

    let generating: Promise<number> | null = null;
    const generateReports = () => {
      generating ??= reviews.generateDue(clock()).finally(() => {
        generating = null;
      });
      return generating;
    };
    const timer =
      options.backgroundReports === false
        ? null
        : setInterval(() => {
            generateReports().catch((error: Error) =>
              process.stderr.write(`syncfile serve: report generation failed: ${error.message}\n`),
            );
          }, 1000);
    timer?.unref();

    return {
      url,
      createdApiKey: created,
      fastify: app,
      generateReports,
      async close() {
        if (timer) clearInterval(timer);
        await app.close();
        await generating?.catch(() => {});
        await db.close();
      },
    };
  }
}
