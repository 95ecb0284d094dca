// A paginated JSON API's records: each page's list at the job's path, and the next page asked
// for as the API says — a Link header's rel="next", a cursor in the page sent back as a
// parameter, a page number, or an offset. A page that fails, or whose list is not there, fails
// the source: a run never pushes part of the users. An API that hands back a cursor or a link
// it gave before would loop: that fails the source too.

import { redactUrl } from "syncfile/internal/text/redact.js";
import { getJson, valueAt } from "./_getJson.js";
import { SourceError } from "./SourceError.js";
import type { JsonApiSource } from "./SourceSpec.js";
import type { SourceRecord } from "./writeRecords.js";

/** The records of every page of `source`, page by page. */
export async function* jsonApiRecords(
  source: JsonApiSource,
  signal?: AbortSignal,
): AsyncGenerator<SourceRecord> {
  const next = source.next;
  let url = firstUrl(source);
  const seen = new Set<string>([url]);
  let page = next.kind === "page" ? next.start : 0;
  let offset = 0;
  for (;;) {
    const got = await getJson(url, source.headers, signal);
    const records = valueAt(got.body, source.records);
    if (!Array.isArray(records)) {
      const where = source.records === "" ? "the page" : `"${source.records}"`;
      throw new SourceError(`GET ${redactUrl(url)} answered with no list of records at ${where}`);
    }
    for (const record of records) {
      if (record === null || typeof record !== "object" || Array.isArray(record)) {
        throw new SourceError(`GET ${redactUrl(url)} answered a record that is not an object`);
      }
      yield record as SourceRecord;
    }
    let following: string | null;
    switch (next.kind) {
      case "none":
        following = null;
        break;
      case "link":
        following = linkNext(got.headers.get("link"), got.url);
        break;
      case "cursor": {
        const cursor = valueAt(got.body, next.path);
        following =
          cursor === null || cursor === undefined || cursor === "" || cursor === false
            ? null
            : withParam(url, next.param, String(cursor));
        break;
      }
      case "page":
        page += 1;
        following = records.length === 0 ? null : withParam(url, next.param, String(page));
        break;
      case "offset":
        offset += records.length;
        following = records.length < next.limit ? null : withParam(url, next.param, String(offset));
        break;
    }
    if (following === null) return;
    if (seen.has(following)) {
      throw new SourceError(
        `${redactUrl(source.url)} gave the same next page twice: its pages would never end`,
      );
    }
    seen.add(following);
    url = following;
  }
}

/** The first page's URL: the job's, with the page or the offset and limit it starts from. */
function firstUrl(source: JsonApiSource): string {
  const next = source.next;
  if (next.kind === "page") return withParam(source.url, next.param, String(next.start));
  if (next.kind === "offset")
    return withParam(withParam(source.url, next.limitParam, String(next.limit)), next.param, "0");
  return source.url;
}

/** `url` with its parameter `name` set to `value`. */
function withParam(url: string, name: string, value: string): string {
  const u = new URL(url);
  u.searchParams.set(name, value);
  return u.href;
}

/** The rel="next" target of a Link header (RFC 8288), resolved against the page's URL. */
export function linkNext(header: string | null, base: string): string | null {
  if (!header) return null;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(match[2] as string)?.[1] ?? "";
    if (rel.split(/\s+/).includes("next")) return new URL(match[1] as string, base).href;
  }
  return null;
}
