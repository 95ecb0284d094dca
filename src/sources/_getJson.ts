// One page of a JSON API: a GET whose 429 (and 503) with Retry-After is waited out a few
// times, as rate-limited APIs ask (without one, tried twice more, soon), and whose other
// failures fail the source with what the server said. A page is read whole (it is a page); its
// URL's secrets never reach a message.

import { redactText, redactUrl } from "syncfile/internal/text/redact.js";
import { SourceError } from "./SourceError.js";

/** How many times a page asked to wait (429, 503) is asked for. */
const TRIES = 6;
/** How many times a 429 or 503 without Retry-After is asked for (1 s, then 2 s apart). */
const QUICK_TRIES = 3;
/** The longest wait a Retry-After is followed for; longer fails the source. */
const LONGEST_WAIT_MS = 5 * 60_000;

/** A page: its parsed body and its headers. */
export interface Page {
  body: unknown;
  headers: Headers;
  url: string;
}

/** GETs `url` as JSON with `headers`; a failure of any kind is a SourceError. */
export async function getJson(
  url: string,
  headers: Readonly<Record<string, string>>,
  signal?: AbortSignal,
): Promise<Page> {
  const said = redactUrl(url);
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { accept: "application/json", ...headers },
        redirect: "follow",
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new SourceError(`cannot GET ${said}: ${redactText(cause ?? (error as Error).message)}`);
    }
    // a wait asked for is waited out; without Retry-After, a couple of short tries only
    const asked = response.headers.get("retry-after") !== null;
    if ((response.status === 429 || response.status === 503) && attempt < (asked ? TRIES : QUICK_TRIES)) {
      await response.body?.cancel();
      const wait = retryAfterMs(response.headers.get("retry-after"), attempt);
      if (wait > LONGEST_WAIT_MS) {
        throw new SourceError(
          `GET ${said} answered ${response.status}: it asks to wait ${Math.round(wait / 1000)} s`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      continue;
    }
    const text = await response.text().catch((error: Error) => {
      throw new SourceError(`the answer to GET ${said} was cut short: ${redactText(error.message)}`);
    });
    if (!response.ok) {
      const detail = text.trim().slice(0, 200);
      throw new SourceError(
        redactText(
          `GET ${said} answered ${response.status} ${response.statusText}${detail ? `: ${detail}` : ""}`,
        ),
      );
    }
    try {
      return { body: JSON.parse(text) as unknown, headers: response.headers, url: response.url || url };
    } catch {
      throw new SourceError(`GET ${said} answered with no JSON: ${redactText(text.slice(0, 80))}`);
    }
  }
}

/** How long a Retry-After says to wait (seconds, or an HTTP date); without one, 1 s doubling. */
function retryAfterMs(value: string | null, attempt: number): number {
  if (value !== null) {
    if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
    const at = Date.parse(value);
    if (!Number.isNaN(at)) return Math.max(0, at - Date.now());
  }
  return 1000 * 2 ** (attempt - 1);
}

/** The value at a dotted path in `value` ("" the value itself), or undefined. */
export function valueAt(value: unknown, path: string): unknown {
  if (path === "") return value;
  let here: unknown = value;
  for (const part of path.split(".")) {
    if (here === null || typeof here !== "object") return undefined;
    here = (here as Record<string, unknown>)[part];
  }
  return here;
}
