// `syncfile serve`: the service of the interface document on this machine, for developing
// and testing integrations (or running it for a team). Nothing to install: the metadata is in
// an embedded PostgreSQL (PGlite) and the blobs on disk, both under --data. With --database
// the metadata is on a PostgreSQL server and with --storage the files in an S3 bucket, which
// several instances can share.

import type { SyncfileServer } from "@syncfile/server/internal/server/options.js";
import { Command, InvalidArgumentError, Option } from "commander";
import { LOG_LEVELS, type LogLevel } from "syncfile/internal/report/logLevels.js";
import { redactUrl } from "syncfile/internal/text/redact.js";
import { describeIoError, wholeNumber } from "./_io.js";
import { serverPackage } from "./_optional.js";
import { readRates } from "./_rates.js";
import { parseDuration } from "./_remote.js";
import { EXIT } from "./exitCodes.js";
import { UsageError } from "./UsageError.js";

interface ServeFlags {
  host: string;
  port: number;
  data: string;
  database?: string;
  storage?: string;
  redis?: string;
  seed?: string;
  displayCurrency: string;
  sourceCurrency?: string;
  rates?: string;
  maxUploadBytes?: number;
  maxDeletes: number;
  cors: string[];
  logLevel: LogLevel;
  trustProxy?: boolean | number | string;
  publicUrl?: string;
  drainDelay: number;
  shutdownTimeout: number;
}

/** The `serve` command; it runs until interrupted. */
export function serveCommand(result: { code: number }): Command {
  return new Command("serve")
    .description("run the service locally: upload URLs, storage, files, syncs, access reviews")
    .addOption(new Option("--host <host>", "address to listen on").env("SYNCFILE_HOST").default("127.0.0.1"))
    .addOption(
      new Option("--port <port>", "port to listen on (0 picks a free one)")
        .env("SYNCFILE_PORT")
        .argParser(wholeNumber("--port", 0))
        .default(8080),
    )
    .addOption(
      new Option("--data <dir>", "where the database and the files are kept")
        .env("SYNCFILE_DATA")
        .default("syncfile-data"),
    )
    .option(
      "--database <url>",
      "a PostgreSQL server for the metadata, postgres://user@host:5432/db (default: embedded in --data; env SYNCFILE_DATABASE_URL)",
    )
    .option(
      "--storage <url>",
      "an S3-compatible bucket for the files, s3://BUCKET[/prefix]?region=…&endpoint=…&forcePathStyle=true (default: --data; env SYNCFILE_STORAGE_URL)",
    )
    .option(
      "--redis <url>",
      "a Redis server for the rate limits, redis://host:6379 (default: in the database; env SYNCFILE_REDIS_URL)",
    )
    .addOption(
      new Option("--seed <file>", "campaigns and executions to add (JSON; see fixtures/seed.json)").env(
        "SYNCFILE_SEED",
      ),
    )
    .addOption(
      new Option("--display-currency <code>", "the organisation's display currency for prices")
        .env("SYNCFILE_DISPLAY_CURRENCY")
        .default("USD"),
    )
    .addOption(
      new Option(
        "--source-currency <code>",
        "the currency of the files' cents (default: the display currency)",
      ).env("SYNCFILE_SOURCE_CURRENCY"),
    )
    .addOption(
      new Option(
        "--rates <file>",
        'rates from the source currency, {"EUR": "0.92"}, when the two differ',
      ).env("SYNCFILE_RATES"),
    )
    .addOption(
      new Option("--max-upload-bytes <n>", "largest upload accepted (default 5 GiB)")
        .env("SYNCFILE_MAX_UPLOAD_BYTES")
        .argParser(wholeNumber("--max-upload-bytes", 1)),
    )
    .addOption(
      new Option(
        "--max-deletes <n>",
        "refuse (409) a sync that would take away more users than this, unless sent with the header syncfile-allow-deletes: true (0: no guard, as the service)",
      )
        .env("SYNCFILE_MAX_DELETES")
        .argParser(wholeNumber("--max-deletes", 0))
        .default(0),
    )
    .addOption(
      new Option(
        "--cors <origin>",
        "let pages from this origin call the server, e.g. https://admin.example.com (repeatable; * for any; the variable: comma-separated)",
      )
        .env("SYNCFILE_CORS")
        .argParser((origin: string, previous: string[]) => [
          ...previous,
          ...origin
            .split(",")
            .map((o) => o.trim())
            .filter((o) => o !== ""),
        ])
        .default([] as string[]),
    )
    .addOption(
      new Option(
        "--trust-proxy <proxies>",
        "believe the X-Forwarded-Proto and -Host of these proxies: true (any), a number of hops, or addresses and CIDR ranges, comma-separated",
      )
        .env("SYNCFILE_TRUST_PROXY")
        .argParser(trustProxyOf),
    )
    .addOption(
      new Option(
        "--public-url <url>",
        "where clients reach the server, e.g. https://syncfile.example.com: every URL it hands out starts with it",
      ).env("SYNCFILE_PUBLIC_URL"),
    )
    .addOption(
      new Option("--log-level <level>", "how much the log (JSON lines on standard output) says")
        .choices([...LOG_LEVELS])
        .env("SYNCFILE_LOG_LEVEL")
        .default("info"),
    )
    .addOption(
      new Option(
        "--drain-delay <duration>",
        "after SIGTERM, how long /readyz says draining while requests are still served, before the server stops listening",
      )
        .env("SYNCFILE_DRAIN_DELAY")
        .argParser((text) => parseDuration("--drain-delay", text))
        .default(5000, "5s"),
    )
    .addOption(
      new Option(
        "--shutdown-timeout <duration>",
        "then how long the requests under way may take before their connections are closed",
      )
        .env("SYNCFILE_SHUTDOWN_TIMEOUT")
        .argParser((text) => parseDuration("--shutdown-timeout", text))
        .default(30_000, "30s"),
    )
    .addHelpText(
      "after",
      `
The page at / checks, converts and pushes a file from the browser (it is checked there:
nothing is sent until you push). Served from elsewhere, it needs --cors with its origin.

API keys come from SYNCFILE_API_KEYS (comma-separated). Without it, the server creates one
on its first start, keeps it in <data>/api-key and prints it that once.

Everything survives a restart. One server runs on a --data folder at a time.

The log is JSON, a line each (pretty when standard output is a terminal): a line per request
with its request id (the client's X-Request-Id, or a new one, echoed in the answer), a line
per sync with its outcome, counts and duration, per report archive, per refusal of the guard.
No API key or URL signature is ever written to it. What is printed for people at the start
goes to standard error. /healthz says the process answers, /readyz that its database,
storage and Redis do and that it is not draining, /metrics the Prometheus metrics (behind
SYNCFILE_METRICS_TOKEN as a bearer token when it is set). SIGTERM or Ctrl-C drains
(--drain-delay), then stops; a second one stops at once.

Each sync is compared with the account's state before it: GET /v1.0/appAccounts/ID/syncs
lists the syncs with what each changed, and .../syncs/SYNC/changes the changes themselves.

Several instances: give each the same --database (or SYNCFILE_DATABASE_URL), the same
--storage (or SYNCFILE_STORAGE_URL) and the same SYNCFILE_API_KEYS, and put a load balancer
in front. The schema is migrated once at start, rate limits are counted for all of them
together, one sync runs at a time among them, and each report archive is made once. With
--redis (or SYNCFILE_REDIS_URL) the rate limits are counted in Redis instead. The bucket's
credentials come from the AWS environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
AWS_REGION, or AWS_PROFILE).
Stop it with Ctrl-C.

Examples:
  $ syncfile serve --port 8080 --data ./syncfile-data --seed fixtures/seed.json
  $ syncfile serve --port 8081 --database postgres://syncfile@db:5432/syncfile \\
      --storage "s3://syncfile-files/prod?region=eu-west-1"`,
    )
    .action(async (flags: ServeFlags) => {
      result.code = await runServe(flags);
    });
}

async function runServe(flags: ServeFlags): Promise<number> {
  const rates =
    flags.rates === undefined
      ? undefined
      : readRates(flags.rates, flags.sourceCurrency ?? flags.displayCurrency);
  // the server (fastify, PGlite, pdfkit) loads only for this command: every other starts faster
  const { StorageError, parseStorageUrl, publicUrlOf, createServer, SeedError, ApiKeys, DatabaseError } =
    await serverPackage();
  const database = serverUrl(flags.database, "--database", "SYNCFILE_DATABASE_URL", (url) =>
    /^postgres(ql)?:\/\/\S+$/.test(url)
      ? null
      : " must be a PostgreSQL URL such as postgres://user@127.0.0.1:5432/syncfile",
  );
  const redis = serverUrl(flags.redis, "--redis", "SYNCFILE_REDIS_URL", (url) =>
    /^rediss?:\/\/\S+$/.test(url) ? null : " must be a Redis URL such as redis://127.0.0.1:6379",
  );
  const storage = serverUrl(flags.storage, "--storage", "SYNCFILE_STORAGE_URL", (url) => {
    try {
      parseStorageUrl(url);
      return null;
    } catch (error) {
      return `: ${(error as Error).message}`;
    }
  });
  try {
    publicUrlOf(flags.publicUrl);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  // the SDK's nine lines on Node 20 speak of its releases after 2026, not of the one installed
  if (storage) process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  let server: SyncfileServer;
  try {
    server = await createServer({
      dataDir: flags.data,
      ...(database ? { database } : {}),
      ...(storage ? { storage } : {}),
      ...(redis ? { redis } : {}),
      host: flags.host,
      port: flags.port,
      displayCurrency: flags.displayCurrency,
      ...(flags.sourceCurrency ? { sourceCurrency: flags.sourceCurrency } : {}),
      ...(rates ? { rates } : {}),
      ...(flags.seed ? { seed: flags.seed } : {}),
      ...(flags.maxUploadBytes ? { maxUploadBytes: flags.maxUploadBytes } : {}),
      maxDeletes: flags.maxDeletes,
      cors: flags.cors,
      apiKeys: ApiKeys.parseList(process.env.SYNCFILE_API_KEYS),
      log: { level: flags.logLevel, destination: process.stdout, pretty: process.stdout.isTTY === true },
      ...(process.env.SYNCFILE_METRICS_TOKEN ? { metricsToken: process.env.SYNCFILE_METRICS_TOKEN } : {}),
      drainMs: flags.drainDelay,
      ...(flags.trustProxy === undefined ? {} : { trustProxy: flags.trustProxy }),
      ...(flags.publicUrl === undefined ? {} : { publicUrl: flags.publicUrl }),
      shutdownTimeoutMs: flags.shutdownTimeout,
    });
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e instanceof RangeError || e instanceof SeedError) throw new UsageError(e.message);
    if (e instanceof DatabaseError || e instanceof StorageError) {
      process.stderr.write(`syncfile: ${e.message}\n`);
      return EXIT.unreadable;
    }
    if (e.code === "EADDRINUSE") {
      process.stderr.write(
        `syncfile: cannot listen on ${flags.host}:${flags.port}: the port is in use (choose another with --port)\n`,
      );
      return EXIT.unreadable;
    }
    if (e.code === "EACCES" || e.code === "ENOENT" || e.code === "EROFS") {
      process.stderr.write(`syncfile: cannot use ${flags.data}: ${describeIoError(e)}\n`);
      return EXIT.unreadable;
    }
    throw error;
  }
  // for people, on standard error: standard output is the log's, which never holds a key
  if (server.createdApiKey) {
    process.stderr.write(
      `created an API key, kept in ${flags.data}/api-key (shown only this once):\n  ${server.createdApiKey}\n`,
    );
  } else if (!process.env.SYNCFILE_API_KEYS) {
    process.stderr.write(`API key: the one in ${flags.data}/api-key\n`);
  }
  const where =
    (database || storage
      ? `metadata in ${database ? redactUrl(database) : flags.data}, files in ${server.storage}`
      : `data in ${flags.data}`) + (redis ? `, rate limits in ${redactUrl(redis)}` : "");
  process.stderr.write(
    `syncfile serve: listening on ${server.url} (${where})\n` +
      `  the page: ${server.url}/ (check, convert and push a file in the browser)\n` +
      `  the interface: ${server.url}/openapi.json (OpenAPI 3.1), ${server.url}/docs (reference)\n`,
  );
  let stopping = false;
  const stop = () => {
    // a second signal ends the drain at once
    if (stopping) return server.hurry();
    stopping = true;
    server.shutdown().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return EXIT.ok;
}

/**
 * A server's URL from its flag or, without one, its environment variable; `wrong` says what
 * is wrong with it (after the flag's or the variable's name, which the refusal starts with).
 */
function serverUrl(
  flag: string | undefined,
  name: string,
  variable: string,
  wrong: (url: string) => string | null,
): string | undefined {
  const url = flag ?? (process.env[variable] || undefined);
  const problem = url === undefined ? null : wrong(url);
  if (problem !== null) throw new UsageError(`${flag === undefined ? variable : name}${problem}`);
  return url;
}

/** `--trust-proxy`: true or false, a number of hops, or addresses and CIDR ranges. */
function trustProxyOf(text: string): boolean | number | string {
  const value = text.trim();
  if (value === "true" || value === "false") return value === "true";
  if (/^\d+$/.test(value)) return Number(value);
  if (/^[\w.:/]+(\s*,\s*[\w.:/]+)*$/.test(value)) return value;
  throw new InvalidArgumentError(
    `--trust-proxy takes true, a number of hops, or addresses and CIDR ranges such as 10.0.0.0/8,127.0.0.1, not ${JSON.stringify(text)}`,
  );
}
