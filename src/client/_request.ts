// One HTTP exchange on node:http(s). Not fetch: a sync of a large file may take longer than
// fetch waits for headers, a file must stream up with its Content-Length (object storage
// refuses chunked uploads), and a download streams to disk and must notice a cut connection.

import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Readable } from "node:stream";
import { ConnectionError } from "./ConnectionError.js";

/** A request to send. */
export interface RequestSpec {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** The body; a function for a stream, called once per attempt. */
  body?: string | Uint8Array | (() => Readable);
  signal?: AbortSignal | undefined;
}

/** Sends a request; resolves to the response once its headers arrive (its body still to read). */
export function send(spec: RequestSpec): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (spec.url.protocol !== "http:" && spec.url.protocol !== "https:") {
      reject(new Error(`not an http(s) URL: ${spec.url.href}`));
      return;
    }
    const transport = spec.url.protocol === "https:" ? httpsRequest : httpRequest;
    const request = transport(spec.url, {
      method: spec.method,
      headers: spec.headers,
      ...(spec.signal ? { signal: spec.signal } : {}),
    });
    request.once("response", resolve);
    request.once("error", (error) => reject(spec.signal?.aborted ? spec.signal.reason : error));
    const { body } = spec;
    if (body === undefined || typeof body === "string" || body instanceof Uint8Array) {
      request.end(body);
      return;
    }
    const stream = body();
    stream.once("error", (error) => request.destroy(error));
    stream.pipe(request);
  }).catch((error: unknown) => {
    if (spec.signal?.aborted) throw spec.signal.reason;
    if (isLocal(error)) throw error;
    throw new ConnectionError(spec.method, spec.url, error);
  }) as Promise<IncomingMessage>;
}

/** The whole body of a (small) response as text; a cut connection is a ConnectionError. */
export async function readText(response: IncomingMessage, method: string, url: URL): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of response) chunks.push(chunk as Buffer);
  } catch (error) {
    throw new ConnectionError(method, url, error);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Discards a response's body so that its connection can serve the next request. */
export function discard(response: IncomingMessage): void {
  response.resume();
  response.on("error", () => {});
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

/** The wait a Retry-After header asks for (seconds or an HTTP date), in ms; null without one. */
export function retryAfterMs(response: IncomingMessage, now: number): number | null {
  const value = response.headers["retry-after"];
  if (typeof value !== "string" || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

// errors of the local side (a file that cannot be read) are not the network's
function isLocal(error: unknown): boolean {
  const e = error as NodeJS.ErrnoException;
  return typeof e?.syscall === "string" && ["open", "read", "stat"].includes(e.syscall);
}
