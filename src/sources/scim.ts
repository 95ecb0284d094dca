// A SCIM 2.0 service provider's users (RFC 7644): GET /Users page by page, startIndex moving by
// what each page held, until totalResults are read (or a page comes back empty), with an
// optional filter; a 429 with Retry-After waited out. Each user becomes a record of the core
// User schema (RFC 7643) the built-in `scim` profile reads: its e-mail (the primary one, else
// the first work one, else the first), its name's parts, active, userName, id and roles; the
// rest of the resource follows by path, for a mapping of the job's own (meta.lastModified,
// the enterprise extension's department…).

import { redactUrl } from "syncfile/internal/text/redact.js";
import { getJson } from "./_getJson.js";
import { SourceError } from "./SourceError.js";
import type { ScimSource } from "./SourceSpec.js";
import type { SourceRecord } from "./writeRecords.js";

/** The users of `source`, page by page. */
export async function* scimRecords(source: ScimSource, signal?: AbortSignal): AsyncGenerator<SourceRecord> {
  const headers = {
    authorization: `Bearer ${source.token}`,
    accept: "application/scim+json, application/json",
  };
  const base = source.url.replace(/\/+$/, "");
  let startIndex = 1;
  let read = 0;
  for (;;) {
    const url = new URL(`${base}/Users`);
    url.searchParams.set("startIndex", String(startIndex));
    url.searchParams.set("count", String(source.pageSize));
    if (source.filter !== null) url.searchParams.set("filter", source.filter);
    const page = (await getJson(url.href, headers, signal)).body as Partial<ListResponse> | null;
    const resources = page?.Resources ?? [];
    if (!Array.isArray(resources) || typeof page?.totalResults !== "number") {
      throw new SourceError(
        `GET ${redactUrl(url.href)} answered no SCIM ListResponse (totalResults, Resources)`,
      );
    }
    for (const user of resources) yield scimUser(user);
    read += resources.length;
    if (resources.length === 0 || read >= page.totalResults) {
      if (read < page.totalResults) {
        throw new SourceError(
          `${redactUrl(base)}/Users said ${page.totalResults} users, then gave none after ${read}: its pages end early`,
        );
      }
      return;
    }
    startIndex += resources.length;
  }
}

interface ListResponse {
  totalResults: number;
  Resources: Record<string, unknown>[];
}

/** A SCIM User resource as a record: the core fields first, then the resource by path. */
export function scimUser(user: Record<string, unknown>): SourceRecord {
  const { emails, roles, ...rest } = user;
  const name = (user.name ?? {}) as Record<string, unknown>;
  return {
    email: emailOf(emails),
    userName: user.userName,
    givenName: name.givenName,
    familyName: name.familyName,
    displayName: user.displayName,
    active: typeof user.active === "boolean" ? user.active : undefined,
    id: user.id,
    roles: Array.isArray(roles)
      ? roles.map((r) =>
          typeof r === "object" && r !== null
            ? ((r as Record<string, unknown>).value ?? (r as Record<string, unknown>).display)
            : r,
        )
      : undefined,
    ...Object.fromEntries(
      Object.entries(rest).filter(
        ([key]) => key !== "schemas" && !["userName", "displayName", "active", "id"].includes(key),
      ),
    ),
  };
}

/** The user's address: the primary one, else the first of type work, else the first. */
function emailOf(emails: unknown): string | undefined {
  if (!Array.isArray(emails)) return undefined;
  const list = emails.filter(
    (e): e is { value: string; primary?: boolean; type?: string } =>
      typeof e === "object" && e !== null && typeof (e as { value?: unknown }).value === "string",
  );
  return (list.find((e) => e.primary === true) ?? list.find((e) => e.type === "work") ?? list[0])?.value;
}
