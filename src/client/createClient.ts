// The client of the interface: one typed method per operation, the upload procedure in one
// call, downloads that never leave a half-written file, syncs that wait out a running sync.
// The documented rate limits are kept before each call; a 429 is still retried after its
// Retry-After, a 5xx or a lost connection with exponential backoff and jitter, a bounded
// number of times.

import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import { basename, extname } from "node:path";
import type { Change } from "syncfile/internal/diff/Change.js";
import { type Clock, systemClock } from "syncfile/internal/http/Clock.js";
import {
  ALLOW_DELETES_HEADER,
  type AppAccountState,
  type AppAccountUsers,
  type FileInformation,
  type FileType,
  OPERATIONS,
  type Operation,
  type SyncChangesPage,
  type SyncList,
  type SyncSummary,
  type UploadFileParameters,
} from "syncfile/internal/http/operations.js";
import {
  type Executions,
  readExecutions,
  readFileId,
  readFileInformation,
  readUploadParameters,
} from "syncfile/internal/http/tolerant.js";
import { type SyncWaiting, whileSyncRuns } from "syncfile/internal/http/whileSyncRuns.js";
import { addSecret, addSecretsOf, redactUrl } from "syncfile/internal/text/redact.js";
import {
  type CallOptions,
  Exchange,
  isSuccess,
  type RetryEvent,
  redirectOf,
  unexpected,
} from "./_Exchange.js";
import { discard, JSON_ANSWER_BYTES } from "./_request.js";
import { type Destination, saveResponse } from "./_saveResponse.js";
import { ApiError, refusedByGuard } from "./ApiError.js";
import { ConnectionError } from "./ConnectionError.js";
import { DOCUMENTED_LIMITS, RateLimiter, type RateLimits } from "./RateLimiter.js";

export type { CallOptions, RetryEvent } from "./_Exchange.js";

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
  /** json (PUT /v1.0/services/sync/custom, the default) or csv (…/sync/gluu). */
  format?: "json" | "csv";
  /** How long to keep trying while another sync runs (409). Default 10 minutes; 0: not at all. */
  waitMs?: number;
  /** How often to try again meanwhile. Default 5 s. */
  pollMs?: number;
  /** Told each time the service says another sync is running, before the client waits. */
  onWaiting?: (event: SyncWaiting) => void;
  /**
   * Go ahead though the sync takes away more users than the server's guard allows (`syncfile
   * serve --max-deletes`): sent as the header syncfile-allow-deletes, which other servers ignore.
   */
  allowDeletes?: boolean;
}

/** The client of one service with one key. */
export interface Client {
  readonly baseUrl: string;
  /** The time the client reads and waits with (`options.clock`, else the system's). */
  readonly clock: Clock;
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
  /**
   * POST /v1.0/files/upload: a file of up to 3 MiB (a path, or bytes named `options.name`) in
   * one request, of `options.type` (default customIntegrationData); resolves to its id.
   */
  uploadSmallFile(
    source: string | Uint8Array,
    options?: CallOptions & { name?: string; type?: FileType; contentType?: string },
  ): Promise<{ id: number }>;
  /** GET /v1.0/files/{id}: a file's information, looked up as `type` (the service's default: expenseReport). */
  fileInformation(id: number, options?: CallOptions & { type?: FileType }): Promise<FileInformation["file"]>;
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
  /** PUT /v1.0/services/sync/gluu (a CSV file), once. */
  syncGluu(idFile: number, idAppAccount: number, options?: CallOptions): Promise<SyncSummary>;
  /** PUT /v1.0/services/sync/custom/csv, once: the CSV sync of a syncfile server before 0.2 (syncGluu on others). */
  syncCustomCsv(idFile: number, idAppAccount: number, options?: CallOptions): Promise<SyncSummary>;
  /** A sync that waits while another sync runs (409), up to `waitMs`. */
  sync(idFile: number, idAppAccount: number, options?: SyncOptions): Promise<SyncSummary>;
  /** GET /v1.0/accessReviews/campaigns: executions by bucket, newest first. */
  listExecutions(
    options?: CallOptions & { limit?: number; completedAfter?: Date | string },
  ): Promise<Executions>;
  /** GET /v1.0/appAccounts/{id}: what the last sync left in an app account. */
  appAccount(id: number, options?: CallOptions): Promise<AppAccountState>;
  /**
   * GET /v1.0/appAccounts/{id}/users: a page of its shown users. Pass a page's `next` as `after`
   * for the page after it (fast at any depth); `offset` counts from the start.
   */
  appAccountUsers(id: number, options?: CallOptions & UsersPage): Promise<AppAccountUsers>;
  /** GET /v1.0/appAccounts/{id}/syncs (ours): the account's syncs, newest first, and what each changed. */
  appAccountSyncs(id: number, options?: CallOptions & { limit?: number; after?: string }): Promise<SyncList>;
  /** GET /v1.0/appAccounts/{id}/syncs/{syncId}/changes (ours): a page of what a sync changed. */
  syncChanges(
    id: number,
    syncId: number,
    options?: CallOptions & { limit?: number; after?: string; kind?: Change["kind"] },
  ): Promise<SyncChangesPage>;
}

/** Which page of an app account's users: `limit` of them, after a cursor or at an offset. */
export interface UsersPage {
  limit?: number;
  /** The `next` of the page before. */
  after?: string;
  offset?: number;
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

// an execution in a list, generously: its ids, dates, state and a campaign's name
const EXECUTION_BYTES = 4096;

/** A client of the service at `options.baseUrl`. */
export function createClient(options: ClientOptions): Client {
  return new HttpClient(options);
}

class HttpClient implements Client {
  readonly baseUrl: string;
  readonly clock: Clock;
  readonly #base: URL;
  readonly #clock: Clock;
  readonly #limiter: RateLimiter;
  readonly #exchange: Exchange;

  constructor(options: ClientOptions) {
    // whatever quotes them later (an error, a log line) says *** instead
    addSecret(options.apiKey);
    addSecretsOf(options.baseUrl);
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new TypeError(
        `the base URL must be an http(s) URL such as https://api.example.com, got "${redactUrl(options.baseUrl)}"`,
      );
    }
    if (base.protocol !== "http:" && base.protocol !== "https:") {
      throw new TypeError(
        `the base URL must start with http:// or https://, got "${redactUrl(options.baseUrl)}"`,
      );
    }
    if (!/^[\x21-\x7e]+$/.test(options.apiKey ?? "")) {
      throw new TypeError(
        "the API key must be a non-empty string of visible ASCII characters, without spaces",
      );
    }
    this.#base = base;
    this.baseUrl = base.href.replace(/\/+$/, "");
    this.#clock = options.clock ?? systemClock;
    this.clock = this.#clock;
    this.#limiter = new RateLimiter(
      options.rateLimits === false ? {} : { ...DOCUMENTED_LIMITS, ...(options.rateLimits ?? {}) },
      this.#clock,
    );
    this.#exchange = new Exchange({
      base,
      apiKey: options.apiKey,
      retries: options.retries ?? 5,
      backoffMs: options.backoffMs ?? 500,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 10 * 60_000,
      timeoutMs: options.timeoutMs ?? 60_000,
      syncTimeoutMs: options.syncTimeoutMs ?? 2 * 3_600_000,
      clock: this.#clock,
      limiter: this.#limiter,
      onRetry: options.onRetry,
    });
  }

  get rateLimitWaitMs(): number {
    return this.#limiter.waitedMs;
  }

  // ── files ──

  async getUploadUrl(name: string, contentType: string, options: CallOptions = {}) {
    return this.#exchange.json(
      "fileUploadUrl",
      { ...call(options), path: OPERATIONS.fileUploadUrl.path, query: { name, type: contentType } },
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
    await this.#exchange.retrying("PUT", target, options.signal, async () => {
      const response = await this.#exchange.storage(
        "PUT",
        target,
        {
          headers: { "content-type": contentType, "content-length": String(size) },
          body:
            typeof source === "string" ? () => readWithProgress(source, size, options.onProgress) : source,
        },
        options.signal,
      );
      if (isSuccess(response)) return discard(response);
      throw await this.#exchange.failure(response, "PUT", target, options.signal);
    });
  }

  async registerFile(path: string, type: FileType, options: CallOptions = {}) {
    return this.#exchange.json(
      "registerFile",
      { ...call(options), path: OPERATIONS.registerFile.path, body: { path, type } },
      registeredId,
    );
  }

  async uploadFile(path: string, options: UploadOptions = {}): Promise<UploadedFile> {
    const name = options.name ?? basename(path);
    const contentType = options.contentType ?? contentTypeOf(name);
    const bytes = (await stat(path)).size;
    const signal = call(options);
    const { url, filePath } = await this.getUploadUrl(name, contentType, signal);
    await this.putFile(url, path, contentType, {
      ...signal,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    const { id } = await this.registerFile(filePath, options.type ?? "customIntegrationData", signal);
    return { id, filePath, name, contentType, bytes };
  }

  async uploadSmallFile(
    source: string | Uint8Array,
    options: CallOptions & { name?: string; type?: FileType; contentType?: string } = {},
  ): Promise<{ id: number }> {
    const name = options.name ?? (typeof source === "string" ? basename(source) : "file");
    const bytes = typeof source === "string" ? await readFile(source) : source;
    const form = new FormData();
    form.set("type", options.type ?? "customIntegrationData");
    form.set("file", new Blob([bytes], { type: options.contentType ?? contentTypeOf(name) }), name);
    // the form's bytes and its boundary, as fetch would send them
    const encoded = new Response(form);
    const data = new Uint8Array(await encoded.arrayBuffer());
    const contentType = encoded.headers.get("content-type") as string;
    return this.#exchange.json(
      "uploadSmallFile",
      { ...call(options), path: OPERATIONS.uploadSmallFile.path, bytes: { data, contentType } },
      registeredId,
    );
  }

  async fileInformation(id: number, options: CallOptions & { type?: FileType } = {}) {
    return this.#exchange.json(
      "fileInformation",
      {
        ...call(options),
        path: pathOf("fileInformation", id),
        query: { type: options.type },
      },
      (body, url, status) =>
        readFileInformation(body) ?? unexpected("GET", url, status, body, "no file {id, type, fileName}"),
    );
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
        await this.#exchange.beforeRetry(error, retry, "GET", url, options.signal, true);
      }
    }
  }

  // ── syncs ──

  syncCustom(idFile: number, idAppAccount: number, options: CallOptions = {}) {
    return this.#syncOnce("syncCustom", idFile, idAppAccount, options);
  }

  syncGluu(idFile: number, idAppAccount: number, options: CallOptions = {}) {
    return this.#syncOnce("syncGluu", idFile, idAppAccount, options);
  }

  syncCustomCsv(idFile: number, idAppAccount: number, options: CallOptions = {}) {
    return this.#syncOnce("syncCustomCsv", idFile, idAppAccount, options);
  }

  async sync(idFile: number, idAppAccount: number, options: SyncOptions = {}): Promise<SyncSummary> {
    const operation = options.format === "csv" ? "syncGluu" : "syncCustom";
    return whileSyncRuns(
      () => this.#syncOnce(operation, idFile, idAppAccount, call(options), options.allowDeletes === true),
      (error): error is ApiError =>
        error instanceof ApiError && error.status === 409 && !refusedByGuard(error.body),
      this.#clock,
      {
        waitMs: options.waitMs ?? 10 * 60_000,
        pollMs: options.pollMs ?? 5000,
        ...(options.onWaiting ? { onWaiting: options.onWaiting } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
    );
  }

  #syncOnce(
    operation: Operation,
    idFile: number,
    idAppAccount: number,
    options: CallOptions,
    allowDeletes = false,
  ) {
    return this.#exchange.json(
      operation,
      {
        ...call(options),
        path: OPERATIONS[operation].path,
        body: { idFile, idAppAccount },
        ...(allowDeletes ? { headers: { [ALLOW_DELETES_HEADER]: "true" } } : {}),
      },
      (body) => body as SyncSummary,
    );
  }

  // ── access reviews, app accounts ──

  async listExecutions(options: CallOptions & { limit?: number; completedAfter?: Date | string } = {}) {
    const completedAfter =
      options.completedAfter instanceof Date ? options.completedAfter.toISOString() : options.completedAfter;
    return this.#exchange.json(
      "listExecutions",
      {
        ...call(options),
        path: OPERATIONS.listExecutions.path,
        query: { limit: options.limit, completedAfter },
        // three buckets of up to `limit` executions each, on top of what any answer may take
        maxAnswerBytes: JSON_ANSWER_BYTES + 3 * (options.limit ?? 100) * EXECUTION_BYTES,
      },
      (body, url, status) =>
        readExecutions(body) ?? unexpected("GET", url, status, body, "no …Executions arrays"),
    );
  }

  async appAccount(id: number, options: CallOptions = {}) {
    return this.#exchange.json(
      "appAccount",
      { ...call(options), path: pathOf("appAccount", id) },
      (body) => body as AppAccountState,
    );
  }

  async appAccountUsers(id: number, options: CallOptions & UsersPage = {}) {
    return this.#exchange.json(
      "appAccountUsers",
      {
        ...call(options),
        path: pathOf("appAccountUsers", id),
        query: { limit: options.limit, offset: options.offset, after: options.after },
      },
      (body) => body as AppAccountUsers,
    );
  }

  async appAccountSyncs(id: number, options: CallOptions & { limit?: number; after?: string } = {}) {
    return this.#exchange.json(
      "appAccountSyncs",
      {
        ...call(options),
        path: pathOf("appAccountSyncs", id),
        query: { limit: options.limit, after: options.after },
      },
      (body) => body as SyncList,
    );
  }

  async syncChanges(
    id: number,
    syncId: number,
    options: CallOptions & { limit?: number; after?: string; kind?: Change["kind"] } = {},
  ) {
    return this.#exchange.json(
      "syncChanges",
      {
        ...call(options),
        path: pathOf("syncChanges", id).replace(":syncId", String(idOf(syncId))),
        query: { limit: options.limit, after: options.after, kind: options.kind },
      },
      (body) => body as SyncChangesPage,
    );
  }

  // ── downloads ──

  /** Where file `id` downloads from: the redirect's URL, or the API's own answer when it sends the file. */
  async #downloadTarget(
    id: number,
    signal: AbortSignal | undefined,
  ): Promise<URL | { response: IncomingMessage; url: URL }> {
    return this.#exchange.call(
      "downloadFile",
      { path: pathOf("downloadFile", id), ...(signal ? { signal } : {}) },
      async (response, url) => {
        const location = redirectOf(response, url);
        if (location) return location;
        if (isSuccess(response)) return { response, url };
        throw await this.#exchange.failure(response, "GET", url, signal);
      },
    );
  }

  /** GET of a storage URL, following up to 5 redirects. */
  async #storageGet(start: URL, signal: AbortSignal | undefined): Promise<IncomingMessage> {
    let url = start;
    for (let hop = 0; hop <= 5; hop++) {
      const response = await this.#exchange.storage("GET", url, {}, signal);
      const location = redirectOf(response, url);
      if (location) {
        url = location;
        continue;
      }
      if (isSuccess(response)) return response;
      throw await this.#exchange.failure(response, "GET", url, signal);
    }
    throw new ConnectionError("GET", url, new Error("more than 5 redirects"), { retryable: false });
  }
}

/** The id a registration (POST /v1.0/files, or …/files/upload) answers. */
function registeredId(body: unknown, url: URL, status: number): { id: number } {
  const id = readFileId(body);
  return id === null ? unexpected("POST", url, status, body, "no file id") : { id };
}

function call(options: CallOptions): CallOptions {
  return options.signal ? { signal: options.signal } : {};
}

function pathOf(
  operation:
    | "fileInformation"
    | "downloadFile"
    | "appAccount"
    | "appAccountUsers"
    | "appAccountSyncs"
    | "syncChanges",
  id: number,
): string {
  return OPERATIONS[operation].path.replace(":id", String(idOf(id)));
}

function idOf(id: number): number {
  if (!Number.isSafeInteger(id) || id < 1)
    throw new TypeError(`an id is a whole number of at least 1, got ${id}`);
  return id;
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
