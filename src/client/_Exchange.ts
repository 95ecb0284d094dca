// How the client talks to the service: for each call a rate-limit slot, the request, the
// answer read, and the retries its failure allows. The client's operations are built on it.

import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import type { Clock } from "syncfile/internal/http/Clock.js";
import { OPERATIONS, type Operation } from "syncfile/internal/http/operations.js";
import packageJson from "../../package.json" with { type: "json" };
import { AnswerTooLarge, discard, parseBody, readText, retryAfterMs, send } from "./_request.js";
import { ApiError } from "./ApiError.js";
import { ConnectionError } from "./ConnectionError.js";
import type { RateLimiter } from "./RateLimiter.js";

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

/** One call of an operation. */
export interface Call extends CallOptions {
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as they are, with their content type (a form). */
  bytes?: { data: Uint8Array; contentType: string };
  headers?: Record<string, string>;
  /** The most bytes its answer is read to (default JSON_ANSWER_BYTES). */
  maxAnswerBytes?: number;
}

/** The settings of the exchanges, every default applied. */
export interface ExchangeSettings {
  base: URL;
  apiKey: string;
  retries: number;
  backoffMs: number;
  maxBackoffMs: number;
  maxRetryAfterMs: number;
  timeoutMs: number;
  syncTimeoutMs: number;
  clock: Clock;
  limiter: RateLimiter;
  onRetry: ((event: RetryEvent) => void) | undefined;
}

const USER_AGENT = `syncfile/${packageJson.version}`;

// a sync is not repeated once the service may have started it
const SYNCS: ReadonlySet<Operation> = new Set(["syncCustom", "syncGluu", "syncCustomCsv"]);

/** The exchanges of one client. */
export class Exchange {
  readonly #s: ExchangeSettings;

  constructor(settings: ExchangeSettings) {
    this.#s = settings;
  }

  /** A call answered with JSON; `read` turns the 2xx body into the result. */
  json<T>(
    operation: Operation,
    call: Call,
    read: (body: unknown, url: URL, status: number) => T,
  ): Promise<T> {
    return this.call(operation, call, async (response, url) => {
      const method = OPERATIONS[operation].method;
      if (!isSuccess(response)) throw await this.failure(response, method, url, call.signal);
      const status = response.statusCode ?? 200;
      const body = parseBody(await readAnswer(response, method, url, status, call));
      if (typeof body !== "object" || body === null)
        return unexpected(method, url, status, body, "a body that is not a JSON object");
      return read(body, url, status);
    });
  }

  /** One operation: a rate-limit slot, the request, `read` of the answer; retried when it may be. */
  call<T>(
    operation: Operation,
    call: Call,
    read: (response: IncomingMessage, url: URL) => Promise<T>,
  ): Promise<T> {
    const { method } = OPERATIONS[operation];
    const url = this.url(call.path, call.query);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#s.apiKey}`,
      accept: "application/json",
      "user-agent": USER_AGENT,
      ...call.headers,
    };
    let body: string | Uint8Array | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers["content-type"] = "application/json";
    } else if (call.bytes !== undefined) {
      body = call.bytes.data;
      headers["content-type"] = call.bytes.contentType;
    }
    const safe = !SYNCS.has(operation);
    const idleTimeoutMs = safe ? this.#s.timeoutMs : Math.max(this.#s.timeoutMs, this.#s.syncTimeoutMs);
    const attempt = async () => {
      const release = await this.#s.limiter.acquire(operation, call.signal);
      try {
        const response = await send({
          method,
          url,
          headers,
          ...(body !== undefined ? { body } : {}),
          signal: call.signal,
          idleTimeoutMs,
        });
        return await read(response, url);
      } finally {
        release();
      }
    };
    return this.retrying(method, url, call.signal, attempt, safe);
  }

  /** One request to a storage URL: its signature authorises it, so it goes without the key and the limits. */
  storage(
    method: "GET" | "PUT",
    url: URL,
    options: { headers?: Record<string, string>; body?: Uint8Array | (() => Readable) },
    signal: AbortSignal | undefined,
  ): Promise<IncomingMessage> {
    return send({
      method,
      url,
      headers: { "user-agent": USER_AGENT, ...(options.headers ?? {}) },
      ...(options.body !== undefined ? { body: options.body } : {}),
      signal,
      idleTimeoutMs: this.#s.timeoutMs,
    });
  }

  /** Runs `attempt` until it succeeds, or fails in a way that is not retried, or retries run out. */
  async retrying<T>(
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
        await this.beforeRetry(error, retry, method, url, signal, safe);
      }
    }
  }

  /**
   * Rethrows `error` unless it may be retried and retries are left; else announces and waits.
   * 429 and 503 say the call was not acted on; another 5xx, or a connection lost once the whole
   * request was sent, may have been: those are retried only for calls safe to repeat.
   */
  async beforeRetry(
    error: unknown,
    retry: number,
    method: string,
    url: URL,
    signal: AbortSignal | undefined,
    safe: boolean,
  ): Promise<void> {
    if (signal?.aborted || retry >= this.#s.retries) throw error;
    let waitMs: number;
    if (error instanceof ApiError && (error.status === 429 || error.status === 503)) {
      waitMs = error.retryAfterMs ?? this.#backoff(retry);
      if (waitMs > this.#s.maxRetryAfterMs) throw error;
    } else if (error instanceof ApiError && error.status >= 500 && safe) {
      waitMs = this.#backoff(retry);
    } else if (error instanceof ConnectionError && error.retryable && (safe || !error.sent)) {
      waitMs = this.#backoff(retry);
    } else {
      throw error;
    }
    this.#s.onRetry?.({
      method,
      path: url.pathname,
      attempt: retry + 1,
      retries: this.#s.retries,
      waitMs,
      status: error instanceof ApiError ? error.status : null,
      reason: error.message,
    });
    await this.#s.clock.sleep(waitMs, signal);
  }

  /** The ApiError of a failed answer, its body read. */
  async failure(
    response: IncomingMessage,
    method: string,
    url: URL,
    signal: AbortSignal | undefined,
  ): Promise<ApiError> {
    const text = await readAnswer(response, method, url, response.statusCode ?? 0, { signal });
    return new ApiError(
      method,
      url.pathname,
      response.statusCode ?? 0,
      parseBody(text),
      retryAfterMs(response, this.#s.clock.now()),
    );
  }

  /** The URL of `path` under the base URL, with the query's defined values. */
  url(path: string, query: Record<string, string | number | undefined> = {}): URL {
    const url = new URL(this.#s.base.href.replace(/\/+$/, "") + path);
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) url.searchParams.set(name, String(value));
    return url;
  }

  /** Exponential backoff with equal jitter: between half and all of base·2^retry, capped. */
  #backoff(retry: number): number {
    const ceiling = Math.min(this.#s.maxBackoffMs, this.#s.backoffMs * 2 ** retry);
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }
}

/** The body of an answer, read up to the call's limit; past it, the ApiError of its status. */
async function readAnswer(
  response: IncomingMessage,
  method: string,
  url: URL,
  status: number,
  call: { signal?: AbortSignal | undefined; maxAnswerBytes?: number | undefined },
): Promise<string> {
  try {
    return await readText(response, method, url, call.signal, call.maxAnswerBytes);
  } catch (error) {
    if (!(error instanceof AnswerTooLarge)) throw error;
    throw new ApiError(
      method,
      url.pathname,
      status,
      null,
      null,
      `${error.message}: is the base URL the service's?`,
    );
  }
}

/** A 2xx. */
export function isSuccess(response: IncomingMessage): boolean {
  const status = response.statusCode ?? 0;
  return status >= 200 && status < 300;
}

/** A redirect with a Location to follow, its body discarded; null for any other answer. */
export function redirectOf(response: IncomingMessage, from: URL): URL | null {
  const location = response.headers.location;
  if (![301, 302, 303, 307, 308].includes(response.statusCode ?? 0) || !location) return null;
  discard(response);
  return new URL(location, from);
}

/** Throws the ApiError of a 2xx whose body is not what the operation answers. */
export function unexpected(method: string, url: URL, status: number, body: unknown, what: string): never {
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
