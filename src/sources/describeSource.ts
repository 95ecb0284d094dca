// A source in words, its secrets left out: what `syncfile job check` says a job reads, and where
// a run's record says its data came from.

import { redactText, redactUrl } from "syncfile/internal/text/redact.js";
import type { SourceSpec } from "./SourceSpec.js";

/** "file /srv/exports/people-*.csv", "sql postgres://app@db/app", "scim https://…"… */
export function describeSource(source: SourceSpec): string {
  switch (source.kind) {
    case "file":
      return `file ${source.path}`;
    case "command":
      return `command ${redactText(source.command.join(" "))}`;
    case "http":
      return `http ${redactUrl(source.url)}`;
    case "json-api":
      return `the records at ${source.records === "" ? "each page" : source.records} of http ${redactUrl(source.url)}${source.next.kind === "none" ? "" : `, pages by ${source.next.kind}`}`;
    case "sql":
      return `sql ${redactUrl(source.url)}`;
    case "ldap":
      return `ldap ${redactUrl(source.url)} ${source.base} ${source.filter}`;
    case "scim":
      return `scim ${redactUrl(source.url)}/Users`;
    case "s3":
      return `s3 ${redactUrl(source.url)}`;
  }
}
