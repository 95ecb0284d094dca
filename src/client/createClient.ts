// The client of the interface: one typed method per operation, the upload procedure in one
// call, downloads that never leave a half-written file, syncs that wait out a running sync.
// The documented rate limits are kept before each call; a 429 is still retried after its
// Retry-After, a 5xx or a lost connection with exponential backoff and jitter, a bounded
// number of times.

import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import { basename, extname } from "node:path";
import packageJson from "../../package.json" with { type: "json" };
import {
  type AppAccountState,
  type AppAccountUsers,
  type FileType,
  OPERATIONS,
  type Operation,
  type SyncSummary,
  type UploadFileParameters,
} from "../http/operations.js";
import { discard, parseBody, readText, retryAfterMs, send } from "./_request.js";
import { type Destination, saveResponse } from "./_saveResponse.js";
import { type Executions, readExecutions, readFileId, readUploadParameters } from "./_tolerant.js";
import { ApiError } from "./ApiError.js";
import { type Clock, systemClock } from "./Clock.js";
import { ConnectionError } from "./ConnectionError.js";
import { DOCUMENTED_LIMITS, RateLimiter, type RateLimits } from "./RateLimiter.js";

/** How to reach the service, and how patient to be with it. */
export interface ClientOptions {
  /** The service's base URL, e.g. https://api.example.com or http://127.0.0.1:8080. */
  baseUrl: string;
  /** The bearer key sent with every call but the storage's. */
  apiKey: string;
  /** Retries of a call answered 429 or 5xx, or not answered at all. Default 5. */
  retries?: number;
  /** The first backoff; it doubles with each retry (with jitter) up to `maxBackoffMs`. Default 500 ms. */
  backoffMs?: number;
  /** Default 30 s. */
  maxBackoffMs?: number;
  /** The longest Retry-After waited for; a longer one fails the call. Default 10 minutes. */
  maxRetryAfterMs?: number;
  /** How long a connection may stay silent before it is dropped (and retried). Default 60 s. */
  timeoutMs?: number;
  /** The same for a sync, which says nothing until it is done. Default 2 hours. */
  syncTimeoutMs?: number;
  /** Calls per minute by operation; default the documented limits; false keeps none. */
  rateLimits?: RateLimits | false;
  /** The time and the waits (tests pass a clock they move). Default the system's. */
  clock?: Clock;
  /** Told before each retry: what failed and how long the client waits. */
  onRetry?: (event: RetryEvent) => void;
}

/** A retry about to be made. */
export interface RetryEvent {
  method: string;
  path: string;
  /** 1 for the first retry. */
  attempt: number;
  /** The most retries that will be made. */
  retries: number;
  waitMs: number;
  /** The status that failed, or null when no (complete) answer came. */
  status: number | null;
  /** The failure's message. */
  reason: string;
}

/** Common to every call: an abort signal. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** What `uploadFile` needs beyond the file. */
export interface UploadOptions extends CallOptions {
  /** What the file is registered as. Default customIntegrationData. */
  type?: FileType;
  /** The name to upload under. Default the file's base name. */
  name?: string;
  /** Default by extension: .json application/json, .csv text/csv, … */
  contentType?: string;
  onProgress?: (sent: number, total: number) => void;
}

/** A file uploaded and registered. */
export interface UploadedFile {
  id: number;
  filePath: string;
  name: string;
  contentType: string;
  bytes: number;
}

/** What `downloadFile` can be told. */
export interface DownloadOptions extends CallOptions {
  onProgress?: (received: number, total: number | null) => void;
}

/** A file downloaded: where it is and its size. */
export interface DownloadedFile {
  path: string;
  bytes: number;
}

/** What `sync` can be told. */
export interface SyncOptions extends CallOptions {
  /** json (PUT /v1.0/services/sync/custom, the default) or csv (…/custom/csv). */
  format?: "json" | "csv";
  /** How long to keep trying while another sync runs (409). Default 10 minutes; 0: not at all. */
  waitMs?: number;
  /** How often to try again meanwhile. Default 5 s. */
  pollMs?: number;
  /** Told each time the service says another sync is running, before the client waits. */
  onWaiting?: (event: { waitedMs: number; nextMs: number; message: string }) => void;
}

/** The client of one service with one key. */
export interface Client {
  readonly baseUrl: string;
  /** Time spent waiting for the client's own rate limits, summed over the calls that waited. */
  readonly rateLimitWaitMs: number;
  /** GET /v1.0/files/url: where to PUT a file of this name and content type. */
  getUploadUrl(name: string, contentType: string, options?: CallOptions): Promise<UploadFileParameters>;
  /** The storage PUT of the upload procedure: a path (streamed) or bytes, to a URL of getUploadUrl. */
  putFile(
    url: string,
    source: string | Uint8Array,
    contentType: string,
    options?: CallOptions & { onProgress?: (sent: number, total: number) => void },
  ): Promise<void>;
  /** POST /v1.0/files: registers an uploaded path; resolves to the new file's id. */
  registerFile(path: string, type: FileType, options?: CallOptions): Promise<{ id: number }>;
  /** The three steps of the upload procedure: upload URL, PUT (streamed), register. */
  uploadFile(path: string, options?: UploadOptions): Promise<UploadedFile>;
  /** GET /v1.0/files/{id}/download: the short-lived URL it redirects to. */
  getDownloadUrl(id: number, options?: CallOptions): Promise<string>;
  /**
   * Downloads file `id` to `dest` (a path, or a function of the name the server suggests):
   * streamed to a temporary file beside it and renamed into place when complete; a cut
   * connection is retried from a fresh download URL.
   */
  downloadFile(id: number, dest: Destination, options?: DownloadOptions): Promise<DownloadedFile>;
  /** PUT /v1.0/services/sync/custom, once. */
  syncCustom(idFile: number, idAppAccount: number, options?: CallOptions): Promise<SyncSummary>;
  /** PUT /v1.0/services/sync/custom/csv, once. */
  syncCustomCsv(idFile: number, idAppAccount: number, options?: CallOptions): Promise<SyncSummary>;
  /** A sync that waits while another sync runs (409), up to `waitMs`. */
  sync(idFile: number, idAppAccount: number, options?: SyncOptions): Promise<SyncSummary>;
  /** GET /v1.0/accessReviews/campaigns: executions by bucket, newest first. */
  listExecutions(
    options?: CallOptions & { limit?: number; completedAfter?: Date | string },
  ): Promise<Executions>;
  /** GET /v1.0/appAccounts/{id}: what the last sync left in an app account. */
  appAccount(id: number, options?: CallOptions): Promise<AppAccountState>;
  /** GET /v1.0/appAccounts/{id}/users: a page of its shown users. */
  appAccountUsers(
    id: number,
    options?: CallOptions & { limit?: number; offset?: number },
  ): Promise<AppAccountUsers>;
}

const CONTENT_TYPES: Record<string, string> = {
  ".json": "application/json",
  ".csv": "text/csv",
  ".zip": "application/zip",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
};

/** The content type a file is uploaded with, by its extension. */
export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[extname(name).toLowerCase()] ?? "application/octet-stream";
}

/** A client of the service at `options.baseUrl`. */
export function createClient(options: ClientOptions): Client {
  return new HttpClient(options);
}

interface Call extends CallOptions {
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

type Read<T> = (response: IncomingMessage, url: URL) => Promise<T>;

class HttpClient implements Client {
  readonly baseUrl: string;
  readonly #base: URL;
  readonly #apiKey: string;
  readonly #retries: number;
  readonly #backoffMs: number;
  readonly #maxBackoffMs: number;
  readonly #maxRetryAfterMs: number;
  readonly #timeoutMs: number;
  readonly #syncTimeoutMs: number;
  readonly #clock: Clock;
  readonly #limiter: RateLimiter;
  readonly #onRetry: ((event: RetryEvent) => void) | undefined;

  constructor(options: ClientOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new TypeError(
        `the base URL must be an http(s) URL such as https://api.example.com, got "${options.baseUrl}"`,
      );
    }
    if (base.protocol !== "http:" && base.protocol !== "https:") {
      throw new TypeError(`the base URL must start with http:// or https://, got "${options.baseUrl}"`);
    }
    if (!/^[\x21-\x7e]+$/.test(options.apiKey ?? "")) {
      throw new TypeError(
        "the API key must be a non-empty string of visible ASCII characters, without spaces",
      );
    }
    this.#base = base;
    this.baseUrl = base.href.replace(/\/+$/, "");
    this.#apiKey = options.apiKey;
    this.#retries = options.retries ?? 5;
    this.#backoffMs = options.backoffMs ?? 500;
    this.#maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? 10 * 60_000;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#syncTimeoutMs = options.syncTimeoutMs ?? 2 * 3_600_000;
    this.#clock = options.clock ?? systemClock;
    this.#limiter = new RateLimiter(
      options.rateLimits === false ? {} : { ...DOCUMENTED_LIMITS, ...(options.rateLimits ?? {}) },
      this.#clock,
    );
    this.#onRetry = options.onRetry;
  }

  get rateLimitWaitMs(): number {
    return this.#limiter.waitedMs;
  }

  // ── files ──

  async getUploadUrl(name: string, contentType: string, options: CallOptions = {}) {
    return this.#json(
      "fileUploadUrl",
      { ...options, path: OPERATIONS.fileUploadUrl.path, query: { name, type: contentType } },
      (body, url, status) =>
        readUploadParameters(body) ??
        unexpected("GET", url, status, body, "no uploadFileParameters {url, filePath}"),
    );
  }

  async putFile(
    url: string,
    source: string | Uint8Array,
    contentType: string,
    options: CallOptions & { onProgress?: (sent: number, total: number) => void } = {},
  ): Promise<void> {
    const target = new URL(url, this.#base);
    const size = typeof source === "string" ? (await stat(source)).size : source.byteLength;
    await this.#retrying("PUT", target, options.signal, async () => {
      const response = await send({
        method: "PUT",
        url: target,
        headers: { "content-type": contentType, "content-length": String(size) },
        body: typeof source === "string" ? () => readWithProgress(source, size, options.onProgress) : source,
        signal: options.signal,
        idleTimeoutMs: this.#timeoutMs,
      });
      if (isSuccess(response)) return discard(response);
      throw await failure(response, "PUT", target, this.#clock, options.signal);
    });
  }

  async registerFile(path: string, type: FileType, options: CallOptions = {}) {
    return this.#json(
      "registerFile",
      { ...options, path: OPERATIONS.registerFile.path, body: { path, type } },
      (body, url, status) => {
        const id = readFileId(body);
        return id === null ? unexpected("POST", url, status, body, "no file id") : { id };
      },
    );
  }

  async uploadFile(path: string, options: UploadOptions = {}): Promise<UploadedFile> {
    const name = options.name ?? basename(path);
    const contentType = options.contentType ?? contentTypeOf(name);
    const bytes = (await stat(path)).size;
    const call = options.signal ? { signal: options.signal } : {};
    const { url, filePath } = await this.getUploadUrl(name, contentType, call);
    await this.putFile(url, path, contentType, {
      ...call,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    const { id } = await this.registerFile(filePath, options.type ?? "customIntegrationData", call);
    return { id, filePath, name, contentType, bytes };
  }

  async getDownloadUrl(id: number, options: CallOptions = {}): Promise<string> {
    const target = await this.#downloadTarget(id, options.signal);
    if (target instanceof URL) return target.href;
    discard(target.response);
    return target.url.href;
  }

  async downloadFile(id: number, dest: Destination, options: DownloadOptions = {}): Promise<DownloadedFile> {
    for (let retry = 0; ; retry++) {
      const target = await this.#downloadTarget(id, options.signal); // retried by itself
      const url = target instanceof URL ? target : target.url;
      try {
        const response =
          target instanceof URL ? await this.#storageGet(target, options.signal) : target.response;
        return await saveResponse(response, url, dest, options);
      } catch (error) {
        await this.#beforeRetry(error, retry, "GET", url, options.signal, true);
      }
    }
  }

  // ── syncs ──

  syncCustom(idFile: number, idAppAccount: number, options: CallOptions = {}) {
    return this.#syncOnce("syncCustom", idFile, idAppAccount, options);
  }

  syncCustomCsv(idFile: number, idAppAccount: number, options: CallOptions = {}) {
    return this.#syncOnce("syncCustomCsv", idFile, idAppAccount, options);
  }

  async sync(idFile: number, idAppAccount: number, options: SyncOptions = {}): Promise<SyncSummary> {
    const operation = options.format === "csv" ? "syncCustomCsv" : "syncCustom";
    const waitMs = options.waitMs ?? 10 * 60_000;
    const pollMs = options.pollMs ?? 5000;
    const started = this.#clock.now();
    const call = options.signal ? { signal: options.signal } : {};
    for (;;) {
      try {
        return await this.#syncOnce(operation, idFile, idAppAccount, call);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 409) throw error;
        const waitedMs = this.#clock.now() - started;
        const nextMs = Math.min(pollMs, waitMs - waitedMs);
        if (nextMs <= 0) throw error;
        options.onWaiting?.({ waitedMs, nextMs, message: error.message });
        await this.#clock.sleep(nextMs, options.signal);
      }
    }
  }

  // ── access reviews, app accounts ──

  async listExecutions(options: CallOptions & { limit?: number; completedAfter?: Date | string } = {}) {
    const completedAfter =
      options.completedAfter instanceof Date ? options.completedAfter.toISOString() : options.completedAfter;
    return this.#json(
      "listExecutions",
      {
        ...call(options),
        path: OPERATIONS.listExecutions.path,
        query: { limit: options.limit, completedAfter },
      },
      (body, url, status) =>
        readExecutions(body) ?? unexpected("GET", url, status, body, "no …Executions arrays"),
    );
  }

  async appAccount(id: number, options: CallOptions = {}) {
    return this.#json(
      "appAccount",
      { ...call(options), path: pathOf("appAccount", id) },
      (body) => body as AppAccountState,
    );
  }

  async appAccountUsers(id: number, options: CallOptions & { limit?: number; offset?: number } = {}) {
    return this.#json(
      "appAccountUsers",
      {
        ...call(options),
        path: pathOf("appAccountUsers", id),
        query: { limit: options.limit, offset: options.offset },
      },
      (body) => body as AppAccountUsers,
    );
  }

  // ── the exchange: rate limit, request, answer, retries ──

  #syncOnce(operation: Operation, idFile: number, idAppAccount: number, options: CallOptions) {
    return this.#json(
      operation,
      { ...call(options), path: OPERATIONS[operation].path, body: { idFile, idAppAccount } },
      (body) => body as SyncSummary,
    );
  }

  /** A call answered with JSON; `read` turns the 2xx body into the result. */
  #json<T>(
    operation: Operation,
    request: Call,
    read: (body: unknown, url: URL, status: number) => T,
  ): Promise<T> {
    return this.#exchange(operation, request, async (response, url) => {
      const method = OPERATIONS[operation].method;
      if (!isSuccess(response)) throw await failure(response, method, url, this.#clock, request.signal);
      const body = parseBody(await readText(response, method, url, request.signal));
      if (typeof body !== "object" || body === null)
        return unexpected(method, url, response.statusCode ?? 0, body, "a body that is not a JSON object");
      return read(body, url, response.statusCode ?? 200);
    });
  }

  /** One operation: a rate-limit slot, the request, `read` of the answer; retried when it may be. */
  #exchange<T>(operation: Operation, request: Call, read: Read<T>): Promise<T> {
    const { method } = OPERATIONS[operation];
    const url = this.#url(request.path, request.query);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#apiKey}`,
      accept: "application/json",
      "user-agent": `syncfile/${packageJson.version}`,
    };
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers["content-type"] = "application/json";
    }
    // a sync is not repeated once the service may have started it
    const safe = !SYNCS.has(operation);
    const idleTimeoutMs = safe ? this.#timeoutMs : Math.max(this.#timeoutMs, this.#syncTimeoutMs);
    const attempt = async () => {
      const release = await this.#limiter.acquire(operation, request.signal);
      try {
        const response = await send({
          method,
          url,
          headers,
          ...(body !== undefined ? { body } : {}),
          signal: request.signal,
          idleTimeoutMs,
        });
        return await read(response, url);
      } finally {
        release();
      }
    };
    return this.#retrying(method, url, request.signal, attempt, safe);
  }

  async #retrying<T>(
    method: string,
    url: URL,
    signal: AbortSignal | undefined,
    attempt: () => Promise<T>,
    safe = true,
  ): Promise<T> {
    for (let retry = 0; ; retry++) {
      try {
        return await attempt();
      } catch (error) {
        await this.#beforeRetry(error, retry, method, url, signal, safe);
      }
    }
  }

  /**
   * Rethrows `error` unless it may be retried and retries are left; else announces and waits.
   * 429 and 503 say the call was not acted on; another 5xx, or a connection lost once the whole
   * request was sent, may have been: those are retried only for calls safe to repeat.
   */
  async #beforeRetry(
    error: unknown,
    retry: number,
    method: string,
    url: URL,
    signal: AbortSignal | undefined,
    safe: boolean,
  ) {
    if (signal?.aborted || retry >= this.#retries) throw error;
    let waitMs: number;
    if (error instanceof ApiError && (error.status === 429 || error.status === 503)) {
      waitMs = error.retryAfterMs ?? this.#backoff(retry);
      if (waitMs > this.#maxRetryAfterMs) throw error;
    } else if (error instanceof ApiError && error.status >= 500 && safe) {
      waitMs = this.#backoff(retry);
    } else if (error instanceof ConnectionError && error.retryable && (safe || !error.sent)) {
      waitMs = this.#backoff(retry);
    } else {
      throw error;
    }
    this.#onRetry?.({
      method,
      path: url.pathname,
      attempt: retry + 1,
      retries: this.#retries,
      waitMs,
      status: error instanceof ApiError ? error.status : null,
      reason: error.message,
    });
    await this.#clock.sleep(waitMs, signal);
  }

  /** Exponential backoff with equal jitter: between half and all of base·2^retry, capped. */
  #backoff(retry: number): number {
    const ceiling = Math.min(this.#maxBackoffMs, this.#backoffMs * 2 ** retry);
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }

  /** Where file `id` downloads from: the redirect's URL, or the API's own answer when it sends the file. */
  async #downloadTarget(
    id: number,
    signal: AbortSignal | undefined,
  ): Promise<URL | { response: IncomingMessage; url: URL }> {
    return this.#exchange(
      "downloadFile",
      { path: pathOf("downloadFile", id), ...(signal ? { signal } : {}) },
      async (response, url) => {
        const location = response.headers.location;
        if (isRedirect(response) && location) {
          discard(response);
          return new URL(location, url);
        }
        if (isSuccess(response)) return { response, url };
        throw await failure(response, "GET", url, this.#clock, signal);
      },
    );
  }

  /** GET of a storage URL (its signature authorises it: no key), following up to 5 redirects. */
  async #storageGet(start: URL, signal: AbortSignal | undefined): Promise<IncomingMessage> {
    let url = start;
    for (let hop = 0; hop <= 5; hop++) {
      const response = await send({
        method: "GET",
        url,
        headers: { "user-agent": `syncfile/${packageJson.version}` },
        signal,
        idleTimeoutMs: this.#timeoutMs,
      });
      const location = response.headers.location;
      if (isRedirect(response) && location) {
        discard(response);
        url = new URL(location, url);
        continue;
      }
      if (isSuccess(response)) return response;
      throw await failure(response, "GET", url, this.#clock, signal);
    }
    throw new ConnectionError("GET", url, new Error("more than 5 redirects"), { retryable: false });
  }

  #url(path: string, query: Record<string, string | number | undefined> = {}): URL {
    const url = new URL(this.#base.href.replace(/\/+$/, "") + path);
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) url.searchParams.set(name, String(value));
    return url;
  }
}

const SYNCS: ReadonlySet<Operation> = new Set(["syncCustom", "syncCustomCsv"]);

function call(options: CallOptions): CallOptions {
  return options.signal ? { signal: options.signal } : {};
}

function pathOf(operation: "downloadFile" | "appAccount" | "appAccountUsers", id: number): string {
  if (!Number.isSafeInteger(id) || id < 1)
    throw new TypeError(`an id is a whole number of at least 1, got ${id}`);
  return OPERATIONS[operation].path.replace(":id", String(id));
}

function isSuccess(response: IncomingMessage): boolean {
  const status = response.statusCode ?? 0;
  return status >= 200 && status < 300;
}

function isRedirect(response: IncomingMessage): boolean {
  return [301, 302, 303, 307, 308].includes(response.statusCode ?? 0);
}

/** The ApiError of a failed answer, its body read. */
async function failure(
  response: IncomingMessage,
  method: string,
  url: URL,
  clock: Clock,
  signal: AbortSignal | undefined,
): Promise<ApiError> {
  const text = await readText(response, method, url, signal);
  return new ApiError(
    method,
    url.pathname,
    response.statusCode ?? 0,
    parseBody(text),
    retryAfterMs(response, clock.now()),
  );
}

function unexpected(method: string, url: URL, status: number, body: unknown, what: string): never {
  const shown = typeof body === "string" ? body : JSON.stringify(body);
  throw new ApiError(
    method,
    url.pathname,
    status,
    body,
    null,
    `the answer has ${what}: ${shown.slice(0, 200)}`,
  );
}

function readWithProgress(path: string, size: number, onProgress?: (sent: number, total: number) => void) {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  if (onProgress) {
    let sent = 0;
    stream.on("data", (chunk) => {
      sent += chunk.length;
      onProgress(sent, size);
    });
  }
  return stream;
}
