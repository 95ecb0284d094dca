// A diff's changes for people and programs: text (the counts, then the first changes of each
// kind), CSV (a row per change, or per changed field), and one self-contained HTML page in the
// report's look. JSON is a change a line, as diffFiles tells them.

import { stringify } from "csv-stringify/sync";
import { escapeFormula } from "../csv/cells.js";
import { escapeHtml, htmlPage } from "../report/formatHtml.js";
import { countLines, describeChange, totalOf } from "./counts.js";
import type { Change, DiffResult } from "./diffFiles.js";

export { countLines, describeChange, totalOf };

/** The diff as text: what was compared, the counts, then the changes listed of each kind. */
export function diffText(
  title: string,
  counts: DiffResult["counts"],
  listed: ReadonlyMap<Change["kind"], readonly Change[]>,
  /** Where the changes not listed are: said beside their number. */
  rest = "--limit",
): string {
  const total = totalOf(counts);
  const lines = [
    `${title}: ${total === 0 ? "no change" : `${total} change${total === 1 ? "" : "s"}`}`,
    ...countLines(counts).map((line) => `  ${line}`),
  ];
  for (const [kind, changes] of listed) {
    if (changes.length === 0) continue;
    lines.push("", `${kind} (${counts[kind]}):`);
    for (const change of changes) lines.push(`  ${describeChange(change)}`);
    const more = counts[kind] - changes.length;
    if (more > 0) lines.push(`  … ${more} more (--limit, or --format json or csv for all)`);
  }
  return `${lines.join("\n")}\n`;
}

/** The header of the CSV format. */
export const DIFF_CSV_HEADER = csvLine(["kind", "email", "license", "field", "from", "to"]);

/** A change as CSV lines: one, or one per changed field. */
export function diffCsvLines(change: Change): string {
  const row = (email: string, license: string, field = "", from: unknown = "", to: unknown = "") =>
    csvLine([change.kind, email, license, field, cellOf(from), cellOf(to)]);
  switch (change.kind) {
    case "user.added":
    case "user.removed":
    case "user.deactivated":
    case "user.reactivated":
      return row(change.email, "");
    case "user.changed":
      return change.fields.map((f) => row(change.email, "", f.field, f.from, f.to)).join("");
    case "license.added":
    case "license.removed":
      return row("", change.license);
    case "license.changed":
      return change.fields.map((f) => row("", change.license, f.field, f.from, f.to)).join("");
    case "assignment.granted":
    case "assignment.revoked":
      return row(change.email, change.license);
    case "assignment.changed":
      return row(change.email, change.license, "licenseStatus", change.from, change.to);
  }
}

/** The diff as one page: the counts, then the changes listed of each kind, in tables. */
export function diffHtml(
  title: string,
  counts: DiffResult["counts"],
  listed: ReadonlyMap<Change["kind"], readonly Change[]>,
  /** Where the changes not listed are: said beside their number. */
  rest = "--limit",
): string {
  const total = totalOf(counts);
  const out = [
    `<h1>${escapeHtml(title)}</h1>`,
    `<div class="banner ${total === 0 ? "valid" : "invalid"}" role="status">${escapeHtml(total === 0 ? "no change" : `${total} change${total === 1 ? "" : "s"}`)}</div>`,
    ...countLines(counts).map((line) => `<p class="stats">${escapeHtml(line)}</p>`),
  ];
  for (const [kind, changes] of listed) {
    if (changes.length === 0) continue;
    out.push(
      `<table><caption>${escapeHtml(`${kind} (${counts[kind]})`)}</caption><tbody>`,
      ...changes.map((change) => `<tr><td>${escapeHtml(describeChange(change))}</td></tr>`),
      "</tbody></table>",
    );
    const more = counts[kind] - changes.length;
    if (more > 0) out.push(`<p class="note">${escapeHtml(`${more} more not listed (${rest})`)}</p>`);
  }
  return htmlPage(`${title} — syncfile diff`, out.join("\n"));
}

/** One CSV line (quoted where needed), its cells escaped as formulas where a spreadsheet would run them. */
function csvLine(cells: readonly string[]): string {
  return stringify([cells.map(escapeFormula)]);
}

/** A value in a CSV cell: text as it is, lists and numbers as JSON, none as empty. */
function cellOf(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}
