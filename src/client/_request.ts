// One HTTP exchange on node:http(s). Not fetch: a sync of a large file may take longer than
// fetch waits for headers, a file must stream up with its Content-Length (object storage
// refuses chunked uploads), and a download streams to disk and must notice a cut connection.

import { type Agent, request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Readable } from "node:stream";
import { retryAfterMs as parseRetryAfter } from "syncfile/internal/http/retryAfter.js";
import { ConnectionError } from "./ConnectionError.js";

/** A request to send. */
export interface RequestSpec {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** The body; a function for a stream, called once per attempt. */
  body?: string | Uint8Array | (() => Readable);
  signal?: AbortSignal | undefined;
  /** The connection may stay silent this long (sending, waiting, receiving) before it is dropped. */
  idleTimeoutMs: number;
}

/**
 * Sends a request; resolves to the response once its headers arrive (its body still to read,
 * under the same idle timeout). A failure of the network is a ConnectionError; a failure to
 * read the body's own stream (a local file) is thrown as it is.
 */
export function send(spec: RequestSpec): Promise<IncomingMessage> {
  const { method, url } = spec;
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return Promise.reject(
      new ConnectionError(method, url, new Error(`${url.href} is not an http(s) URL`), {
        sent: false,
        retryable: false,
      }),
    );
  }
  // the proxy's packages load with the first request, not with every command of the CLI
  proxies ??= import("./_proxy.js");
  return proxies.then(({ proxyAgentFor, proxyOf }) => {
    let agent: Agent | undefined;
    try {
      agent = proxyAgentFor(url);
    } catch (error) {
      throw new ConnectionError(method, url, error, { sent: false, retryable: false });
    }
    return exchange(spec, agent, agent && proxyOf(agent));
  });
}

let proxies: Promise<typeof import("./_proxy.js")> | null = null;

/** `send` once the proxy (or none) is known. */
function exchange(
  spec: RequestSpec,
  agent: Agent | undefined,
  via: string | undefined,
): Promise<IncomingMessage> {
  const { method, url } = spec;
  let sent = false;
  let local: unknown = null;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const transport = url.protocol === "https:" ? httpsRequest : httpRequest;
    const request = transport(url, {
      method,
      headers: spec.headers,
      ...(agent ? { agent } : {}),
      ...(spec.signal ? { signal: spec.signal } : {}),
    });
    request.setTimeout(spec.idleTimeoutMs, () =>
      request.destroy(
        Object.assign(new Error(`no data for ${Math.round(spec.idleTimeoutMs / 1000)} s`), {
          code: "ETIMEDOUT",
        }),
      ),
    );
    request.once("finish", () => {
      sent = true;
    });
    request.once("response", resolve);
    request.once("error", reject);
    const { body } = spec;
    if (body === undefined || typeof body === "string" || body instanceof Uint8Array) {
      request.end(body);
      return;
    }
    const stream = body();
    stream.once("error", (error) => {
      local = error;
      request.destroy(error);
    });
    request.once("close", () => stream.destroy());
    stream.pipe(request);
  }).catch((error: unknown) => {
    if (spec.signal?.aborted) throw spec.signal.reason;
    if (local !== null) throw local;
    throw new ConnectionError(method, url, error, { sent, ...(via ? { via } : {}) });
  });
}

/**
 * The most bytes a JSON answer is read to, unless its call says otherwise: the largest the
 * service sends (a page of 1,000 users, a report of 1,000 findings) is well under it, and an
 * answer past it — a proxy's endless body, a wrong URL serving a file — is not read into memory.
 */
export const JSON_ANSWER_BYTES = 8 * 1024 * 1024;

/** An answer whose body is longer than its call ever takes: it was not read further. */
export class AnswerTooLarge extends Error {
  override readonly name = "AnswerTooLarge";
  readonly limit: number;

  constructor(limit: number) {
    super(`the answer's body is larger than ${limit} bytes, more than this call takes`);
    this.limit = limit;
  }
}

/**
 * The whole body of a (small) response as text, up to `limit` bytes: past it the response is
 * given up and AnswerTooLarge thrown; a cut connection is a ConnectionError.
 */
export async function readText(
  response: IncomingMessage,
  method: string,
  url: URL,
  signal?: AbortSignal,
  limit = JSON_ANSWER_BYTES,
): Promise<string> {
  const declared = Number(response.headers["content-length"] ?? Number.NaN);
  if (declared > limit) {
    response.destroy();
    throw new AnswerTooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        response.destroy();
        throw new AnswerTooLarge(limit);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof AnswerTooLarge) throw error;
    if (signal?.aborted) throw signal.reason;
    throw new ConnectionError(method, url, error);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Discards a response's body so that its connection can serve the next request. */
export function discard(response: IncomingMessage): void {
  response.on("error", () => {});
  response.resume();
}

/** JSON when the text is JSON, else the text. */
export function parseBody(text: string): unknown {
  if (!text) return "";
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The wait a response's Retry-After header asks for, in ms; null without one. */
export function retryAfterMs(response: IncomingMessage, now: number): number | null {
  const value = response.headers["retry-after"];
  return parseRetryAfter(typeof value === "string" ? value : null, now);
}
