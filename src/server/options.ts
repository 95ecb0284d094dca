// How to run a server, and what a running one offers.

import type { FastifyInstance } from "fastify";
import type { RateTable } from "syncfile/internal/model/money.js";
import type { LogLevel } from "syncfile/internal/report/logLevels.js";

export { LOG_LEVELS, type LogLevel } from "syncfile/internal/report/logLevels.js";

/** Where and how a server logs. */
export interface LogOptions {
  /** Default info. */
  level?: LogLevel;
  /** Default: standard error. */
  destination?: NodeJS.WritableStream;
  /** Lines for people (pino-pretty) instead of JSON. Default false. */
  pretty?: boolean;
}

import type { Seed } from "./seed.js";

/** How to run a server. */
export interface ServerOptions {
  /** Where metadata and blobs live; created when missing. */
  dataDir: string;
  /** A PostgreSQL server for the metadata (postgres://…), for several instances; default: PGlite in dataDir. */
  database?: string;
  /**
   * An S3-compatible bucket for the files (s3://BUCKET[/prefix]?endpoint=…&region=…&forcePathStyle=true),
   * credentials from the AWS environment; default: the blobs directory in dataDir.
   */
  storage?: string;
  /** A Redis server for the rate limits (redis://…), shared by the instances that use it; default: the database's (in memory when embedded). */
  redis?: string;
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
  /** The longest a request's body may pause before its connection is closed, in ms. Default 30 s. */
  bodyIdleTimeoutMs?: number;
  /**
   * The longest a request's body may take in all, in ms (not an upload to the disk storage,
   * which may take as long as it keeps coming). Default 2 minutes.
   */
  bodyTimeoutMs?: number;
  /**
   * The guard: a sync that would take away (remove, or deactivate) more users than this is
   * refused with a 409 and applies nothing, unless sent with the syncfile-allow-deletes header.
   * Default 0: no guard, as the service has none.
   */
  maxDeletes?: number;
  /** Origins whose pages may call this server (CORS), e.g. `https://admin.example.com`. Default none. */
  cors?: readonly string[];
  /**
   * Which proxies' X-Forwarded-* headers to believe (fastify's trustProxy): true (any), a
   * number of hops, or addresses and CIDR ranges (comma-separated). Default none.
   */
  trustProxy?: boolean | number | string;
  /**
   * The URL clients reach the server at (https://syncfile.example.com, with a path if a proxy
   * mounts it under one): every URL the server hands out starts with it. Default: the address
   * each request came to.
   */
  publicUrl?: string;
  /** The log: level (default warn), destination (default standard error), pretty. */
  log?: LogOptions;
  /** The bearer token /metrics asks for. Default none: /metrics is open. */
  metricsToken?: string;
  /**
   * How long `shutdown()` keeps serving while /readyz says draining, before it stops listening,
   * in ms: the time a load balancer takes to stop sending. Default 5 s.
   */
  drainMs?: number;
  /** How long `shutdown()` waits for the requests under way before it closes their connections, in ms. Default 30 s. */
  shutdownTimeoutMs?: number;
}

/** A running server. */
export interface SyncfileServer {
  /** Where it listens, e.g. http://127.0.0.1:8080. */
  readonly url: string;
  /** Where the files are: the data directory, or s3://bucket/prefix. */
  readonly storage: string;
  /** The key created on this first start, to show once; null otherwise. */
  readonly createdApiKey: string | null;
  /** The fastify instance (for inject() in tests). */
  readonly fastify: FastifyInstance;
  /** Makes the report archives that are due now; resolves to how many. */
  generateReports(): Promise<number>;
  /** Stops listening and closes the database. */
  close(): Promise<void>;
  /**
   * Stops as a load balancer needs it to: /readyz says draining at once, requests are still
   * served for `drainMs`, then it stops listening and waits up to `shutdownTimeoutMs` for the
   * requests under way, and closes. `now()` on the returned promise's side ends the drain early
   * (a second signal).
   */
  shutdown(): Promise<void>;
  /** Ends a shutdown's drain at once (a second Ctrl-C). */
  hurry(): void;
}

/** `--public-url` checked, without its trailing slash; null when none is given. */
export function publicUrlOf(text: string | undefined): string | null {
  if (text === undefined) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RangeError(
      `the public URL must be an http(s) URL such as https://syncfile.example.com, got ${JSON.stringify(text)}`,
    );
  }
  if (
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.search !== "" ||
    url.hash !== "" ||
    url.username !== ""
  ) {
    throw new RangeError(
      `the public URL must be an http(s) URL without a query, a fragment or credentials, such as https://syncfile.example.com, got ${JSON.stringify(text)}`,
    );
  }
  return url.href.replace(/\/+$/, "");
}
