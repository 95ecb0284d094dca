// The service of the interface document, on fastify: the upload procedure (upload URL, the
// storage PUT, file registration), download, both syncs, access-review executions, and the
// synced state of an app account. Bearer keys and per-key, per-operation rate limits on
// every route but the storage, which a signed URL authorises by itself.

import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { Readable } from "node:stream";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import {
  type AppAccountState,
  type AppAccountUsers,
  DOWNLOAD_URL_TTL_MS,
  FILE_TYPES,
  OPERATIONS,
  type Operation,
  RATE_WINDOW_MS,
  UPLOAD_URL_TTL_MS,
} from "../http/operations.js";
import { SlidingWindow } from "../http/SlidingWindow.js";
import { currencyOf, type RateTable } from "../model/money.js";
import { badRequest, HttpError, parseId, parseLimit, parseTimestamp, requireString, show } from "./_http.js";
import { AccessReviews, checkSeed, readSeed, type Seed } from "./AccessReviews.js";
import { ApiKeys } from "./ApiKeys.js";
import { BlobStore, TooLarge } from "./BlobStore.js";
import { Database } from "./Database.js";
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

const FILE_NAME_HINT = "the file's base name, such as users.json";

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

  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024, return503OnClosing: true });
  try {
    return await serve(app);
  } catch (error) {
    await app.close().catch(() => {});
    await db.close();
    throw error;
  }

  async function serve(app: FastifyInstance): Promise<SyncfileServer> {
    const limits = new Map<string, SlidingWindow>();

    app.setErrorHandler(
      (error: Error & { statusCode?: number; code?: string; validation?: unknown }, _request, reply) => {
        if (error instanceof HttpError) return send(reply, error);
        if (error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError) {
          return send(reply, badRequest(`the body is not JSON: ${error.message}`));
        }
        if (error.code === "FST_ERR_CTP_EMPTY_JSON_BODY")
          return send(reply, badRequest("the body is empty; send a JSON object"));
        if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
          return send(
            reply,
            new HttpError(415, "send the body as JSON, with Content-Type: application/json"),
          );
        }
        if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE")
          return send(reply, new HttpError(413, "the body is too large"));
        if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
          return send(reply, new HttpError(error.statusCode, error.message));
        }
        process.stderr.write(`syncfile serve: internal error: ${error.stack ?? error.message}\n`);
        return send(reply, new HttpError(500, "internal error; the server's log says more"));
      },
    );
    app.setNotFoundHandler((request, reply) =>
      send(reply, new HttpError(404, `no such route: ${request.method} ${request.url.split("?")[0]}`)),
    );

    /** Auth, then the operation's rate limit for this key. */
    const guard = (operation: Operation) => async (request: FastifyRequest, reply: FastifyReply) => {
      const checked = keys.check(request.headers.authorization);
      if (!checked.ok)
        throw new HttpError(401, checked.message, {}, { "WWW-Authenticate": 'Bearer realm="syncfile"' });
      const { perMinute } = OPERATIONS[operation];
      const id = `${checked.id}:${operation}`;
      let window = limits.get(id);
      if (!window) {
        window = new SlidingWindow(perMinute, RATE_WINDOW_MS);
        limits.set(id, window);
      }
      const state = window.take(clock());
      const resetSeconds = Math.ceil(state.resetMs / 1000);
      reply.header("RateLimit-Policy", `${perMinute};w=${RATE_WINDOW_MS / 1000}`);
      reply.header("RateLimit-Limit", String(perMinute));
      reply.header("RateLimit-Remaining", String(state.remaining));
      reply.header("RateLimit-Reset", String(resetSeconds));
      if (!state.allowed) {
        throw new HttpError(
          429,
          `rate limit: ${perMinute} ${OPERATIONS[operation].method} ${OPERATIONS[operation].path} calls a minute per API key; retry in ${resetSeconds} s`,
          {},
          { "Retry-After": String(Math.max(1, resetSeconds)) },
        );
      }
    };
    const route = (
      operation: Operation,
      handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
    ) => {
      const { method, path } = OPERATIONS[operation];
      app.route({ method, url: path, onRequest: guard(operation), handler });
    };
    const baseUrl = (request: FastifyRequest) =>
      `${request.protocol}://${request.headers.host ?? request.hostname}`;

    // ── files ──
    route("fileUploadUrl", async (request) => {
      const query = request.query as Record<string, unknown>;
      const name = requireString("name", query.name, FILE_NAME_HINT);
      if (!BlobStore.validPath(name) || name.includes("/") || Buffer.byteLength(name) > 255) {
        throw badRequest(
          `name must be ${FILE_NAME_HINT} (no /, \\, control characters, . or ..), got ${show(name)}`,
        );
      }
      const type = requireString(
        "type",
        query.type,
        "the content type the file will be uploaded with, such as application/json",
      );
      if (!/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(type) || type.length > 200) {
        throw badRequest(
          `type must be a content type such as application/json or text/csv, got ${show(type)}`,
        );
      }
      const filePath = `${clock()}/${name}`;
      const expires = clock() + UPLOAD_URL_TTL_MS;
      const url = signedUrl(
        baseUrl(request),
        filePath,
        expires,
        type,
        blobs.sign("PUT", filePath, expires, type),
      );
      return { uploadFileParameters: { url, filePath } };
    });

    route("registerFile", async (request, reply) => {
      const body = request.body as Record<string, unknown> | undefined;
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        throw badRequest(
          'the body must be a JSON object: {"path": "<filePath>", "type": "customIntegrationData"}',
        );
      }
      const path = requireString("path", body.path, "the filePath that GET /v1.0/files/url returned");
      const type = requireString("type", body.type, `one of ${FILE_TYPES.join(", ")}`);
      if (!(FILE_TYPES as readonly string[]).includes(type)) {
        throw badRequest(`type must be one of ${FILE_TYPES.join(", ")}, got ${show(type)}`);
      }
      const { rows: uploads } = await db.query<{ content_type: string; size: number }>(
        "SELECT content_type, size FROM uploads WHERE path = $1",
        [path],
      );
      const upload = uploads[0];
      if (!upload) {
        throw badRequest(
          `nothing was uploaded to ${show(path)}: PUT the file to the URL from GET /v1.0/files/url first, then register its filePath`,
        );
      }
      const { rows } = await db.query<{ id: number }>(
        "INSERT INTO files (path, type, content_type, size) VALUES ($1, $2, $3, $4) RETURNING id",
        [path, type, upload.content_type, upload.size],
      );
      reply.code(201);
      return { id: (rows[0] as { id: number }).id };
    });

    route("downloadFile", async (request, reply) => {
      const id = parseId("id", (request.params as { id: string }).id);
      const { rows } = await db.query<{ path: string }>("SELECT path FROM files WHERE id = $1", [id]);
      const file = rows[0];
      if (!file) throw new HttpError(404, `file ${id} not found`);
      const expires = clock() + DOWNLOAD_URL_TTL_MS;
      reply.redirect(
        signedUrl(baseUrl(request), file.path, expires, "", blobs.sign("GET", file.path, expires)),
        302,
      );
    });

    // ── syncs ──
    const sync = (format: "json" | "csv") => async (request: FastifyRequest) => {
      const body = request.body as Record<string, unknown> | undefined;
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        throw badRequest(
          'the body must be a JSON object: {"idFile": <file id>, "idAppAccount": <app account id>}',
        );
      }
      return syncs.run(parseId("idFile", body.idFile), parseId("idAppAccount", body.idAppAccount), format);
    };
    route("syncCustom", sync("json"));
    route("syncCustomCsv", sync("csv"));

    // ── access reviews ──
    route("listExecutions", async (request) => {
      const query = request.query as Record<string, unknown>;
      const limit = parseLimit(query.limit, 100, 1000);
      const completedAfter = parseTimestamp("completedAfter", query.completedAfter);
      return reviews.list(limit, completedAfter, clock());
    });

    // ── app accounts: what the syncs made ──
    route("appAccount", async (request) => {
      const id = parseId("id", (request.params as { id: string }).id);
      return appAccountState(db, id, displayCurrency);
    });
    route("appAccountUsers", async (request) => {
      const id = parseId("id", (request.params as { id: string }).id);
      const query = request.query as Record<string, unknown>;
      const limit = parseLimit(query.limit, 100, 1000);
      const offset = query.offset === undefined ? 0 : parseOffset(query.offset);
      return appAccountUsers(db, id, limit, offset);
    });

    // ── the object storage: authorised by the signed URL alone ──
    await app.register(async (storage) => {
      storage.removeAllContentTypeParsers();
      storage.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
      storage.put("/storage/*", async (request, reply) => {
        const { path, params } = storageRequest(request);
        const contentType = request.headers["content-type"] ?? null;
        const verdict = blobs.verify("PUT", path, params, contentType, clock());
        if (verdict !== "ok") throw storageRefusal(verdict, params, contentType);
        const declared = Number(request.headers["content-length"] ?? Number.NaN);
        if (declared > maxUploadBytes)
          throw new HttpError(413, `the file is larger than the limit of ${maxUploadBytes} bytes`);
        let size: number;
        try {
          size = await blobs.write(path, request.body as Readable, maxUploadBytes);
        } catch (error) {
          if (error instanceof TooLarge) throw new HttpError(413, error.message);
          throw error;
        }
        await db.query(
          `INSERT INTO uploads (path, content_type, size, uploaded_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (path) DO UPDATE SET content_type = $2, size = $3, uploaded_at = now()`,
          [path, params.contentType, size],
        );
        reply.code(200).header("ETag", `"${params.signature.slice(0, 32)}"`);
        return "";
      });
      storage.get("/storage/*", async (request, reply) => {
        const { path, params } = storageRequest(request);
        const verdict = blobs.verify("GET", path, { ...params, contentType: "" }, null, clock());
        if (verdict !== "ok") throw storageRefusal(verdict, params, null);
        const size = await blobs.size(path);
        if (size === null) throw new HttpError(404, `no blob at ${path}`);
        const { rows } = await db.query<{ content_type: string }>(
          "SELECT content_type FROM uploads WHERE path = $1 UNION ALL (SELECT content_type FROM files WHERE path = $1 ORDER BY id DESC LIMIT 1)",
          [path],
        );
        reply
          .header("Content-Type", rows[0]?.content_type || "application/octet-stream")
          .header("Content-Length", String(size))
          .header(
            "Content-Disposition",
            `attachment; filename="${(path.split("/").pop() ?? "file").replace(/"/g, "")}"`,
          );
        return reply.send(blobs.read(path));
      });
    });

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

function send(reply: FastifyReply, error: HttpError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.code(error.statusCode).type("application/json; charset=utf-8").send(error.body());
}

function signedUrl(
  base: string,
  path: string,
  expires: number,
  contentType: string,
  signature: string,
): string {
  const query = new URLSearchParams({ "X-Expires": String(expires), "X-Signature": signature });
  if (contentType) query.set("X-Content-Type", contentType);
  return `${base}/storage/${path.split("/").map(encodeURIComponent).join("/")}?${query}`;
}

function storageRequest(request: FastifyRequest): {
  path: string;
  params: { expires: number; contentType: string; signature: string };
} {
  const raw = (request.params as { "*": string })["*"];
  let path: string;
  try {
    path = raw.split("/").map(decodeURIComponent).join("/");
  } catch {
    throw new HttpError(400, "the storage path is not valid URL encoding");
  }
  if (!BlobStore.validPath(path)) throw new HttpError(400, `not a storage path: ${show(path)}`);
  const query = request.query as Record<string, unknown>;
  const expires = Number(query["X-Expires"]);
  if (!Number.isSafeInteger(expires) || typeof query["X-Signature"] !== "string") {
    throw new HttpError(
      403,
      "this storage URL is not signed: use the URL that GET /v1.0/files/url (or a download redirect) gave",
    );
  }
  return {
    path,
    params: {
      expires,
      contentType: typeof query["X-Content-Type"] === "string" ? query["X-Content-Type"] : "",
      signature: query["X-Signature"] as string,
    },
  };
}

function storageRefusal(
  verdict: string,
  params: { expires: number; contentType: string },
  contentType: string | null,
): HttpError {
  if (verdict === "expired") {
    return new HttpError(
      403,
      `this URL expired at ${new Date(params.expires).toISOString()}: ask for a new one with GET /v1.0/files/url`,
    );
  }
  if (verdict === "wrong-content-type") {
    return new HttpError(
      403,
      `this URL is signed for Content-Type ${show(params.contentType)} but the request has ${show(contentType ?? undefined)}: send the type given to GET /v1.0/files/url`,
    );
  }
  return new HttpError(403, "the URL's signature does not match: use the URL exactly as it was given");
}

function parseOffset(value: unknown): number {
  if (typeof value !== "string" || !/^\d{1,15}$/.test(value)) {
    throw badRequest(`offset must be a whole number of at least 0, got ${show(value)}`);
  }
  return Number(value);
}

async function appAccountState(db: Database, id: number, displayCurrency: string): Promise<AppAccountState> {
  const { rows } = await db.query<{
    current_sync: number | null;
    summary: Record<string, unknown> | null;
    finished_at: Date | null;
  }>(
    `SELECT a.current_sync, s.summary, s.finished_at FROM app_accounts a LEFT JOIN syncs s ON s.id = a.current_sync WHERE a.id = $1`,
    [id],
  );
  const account = rows[0];
  if (!account || account.current_sync === null) {
    throw new HttpError(
      404,
      `app account ${id} has not been synced yet: sync a file into it with PUT /v1.0/services/sync/custom`,
    );
  }
  const sync = account.current_sync;
  const { rows: licenses } = await db.query<{
    name: string;
    price_per_user: number | null;
    currency: string;
    unassigned_amount: number | null;
    active: number;
    inactive: number;
    deleted: number;
  }>(
    `SELECT l.name, l.price_per_user, l.currency, l.unassigned_amount,
       count(*) FILTER (WHERE u.license_status = 'active')::int AS active,
       count(*) FILTER (WHERE u.license_status = 'inactive')::int AS inactive,
       count(*) FILTER (WHERE u.license_status = 'deleted')::int AS deleted
     FROM account_licenses l LEFT JOIN account_license_users u ON u.sync_id = l.sync_id AND u.license_idx = l.idx
     WHERE l.sync_id = $1 GROUP BY l.idx, l.name, l.price_per_user, l.currency, l.unassigned_amount ORDER BY l.idx`,
    [sync],
  );
  const { rows: counts } = await db.query<{ users: number; active: number }>(
    "SELECT count(*)::int AS users, count(*) FILTER (WHERE status = 'active')::int AS active FROM account_users WHERE sync_id = $1",
    [sync],
  );
  return {
    idAppAccount: id,
    lastSync: { ...(account.summary ?? {}), finishedAt: account.finished_at?.toISOString() ?? null },
    displayCurrency,
    users: { active: counts[0]?.active ?? 0, deleted: (counts[0]?.users ?? 0) - (counts[0]?.active ?? 0) },
    licenses: licenses.map((l) => ({
      name: l.name,
      pricePerUser: l.price_per_user,
      currency: l.currency,
      unassignedAmount: l.unassigned_amount,
      users: { active: l.active, inactive: l.inactive, deleted: l.deleted },
    })),
  };
}

async function appAccountUsers(
  db: Database,
  id: number,
  limit: number,
  offset: number,
): Promise<AppAccountUsers> {
  const { rows: account } = await db.query<{ current_sync: number | null }>(
    "SELECT current_sync FROM app_accounts WHERE id = $1",
    [id],
  );
  const sync = account[0]?.current_sync;
  if (sync === undefined || sync === null) {
    throw new HttpError(
      404,
      `app account ${id} has not been synced yet: sync a file into it with PUT /v1.0/services/sync/custom`,
    );
  }
  const { rows } = await db.query<{
    email: string;
    external_id: string | null;
    first_name: string | null;
    last_name: string | null;
    external_status: string | null;
    roles: string[] | null;
    last_used_date: string | null;
    licenses: { name: string; licenseStatus: string }[] | null;
  }>(
    `SELECT u.email, u.external_id, u.first_name, u.last_name, u.external_status, u.roles, u.last_used_date::text,
       (SELECT json_agg(json_build_object('name', l.name, 'licenseStatus', lu.license_status) ORDER BY l.idx)
          FROM account_license_users lu JOIN account_licenses l ON l.sync_id = lu.sync_id AND l.idx = lu.license_idx
          WHERE lu.sync_id = u.sync_id AND lower(lu.email) = lower(u.email)) AS licenses
     FROM account_users u WHERE u.sync_id = $1 AND u.status = 'active' ORDER BY u.idx LIMIT $2 OFFSET $3`,
    [sync, limit, offset],
  );
  const { rows: total } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM account_users WHERE sync_id = $1 AND status = 'active'",
    [sync],
  );
  return {
    idAppAccount: id,
    total: total[0]?.n ?? 0,
    limit,
    offset,
    users: rows.map((u) => ({
      email: u.email,
      ...(u.external_id !== null ? { id: u.external_id } : {}),
      ...(u.first_name !== null ? { firstName: u.first_name } : {}),
      ...(u.last_name !== null ? { lastName: u.last_name } : {}),
      ...(u.external_status !== null ? { externalStatus: u.external_status } : {}),
      ...(u.roles !== null ? { roles: u.roles } : {}),
      ...(u.last_used_date !== null ? { lastUsedDate: u.last_used_date } : {}),
      licenses: u.licenses ?? [],
    })),
  };
}
