// The human format: `file:line:column: severity code: message` (a workbook's: `file:Sheet!E3:`), a hint, and the source
// line with a caret for the first findings; then a summary.

import type { Finding } from "./Finding.js";
import type { Report } from "./Report.js";

/** A source line around a finding, with where the caret goes. */
export interface Excerpt {
  /** The line number. */
  line: number;
  /** The text of the line, possibly clipped. */
  text: string;
  /** 0-based index in `text` under which the caret goes. */
  caret: number;
}

/** Options of the text format. */
export interface TextFormatOptions {
  /** Source excerpts by finding (the CLI reads them from the file); none when absent. */
  excerpts?: ReadonlyMap<Finding, Excerpt>;
  /** ANSI colours. Default false. */
  color?: boolean;
}

const STYLES = { red: [31, 39], yellow: [33, 39], green: [32, 39], dim: [2, 22], bold: [1, 22] } as const;

/** The report as text for a terminal or a log. */
export function formatText(report: Report, options: TextFormatOptions = {}): string {
  const paint = (style: keyof typeof STYLES, s: string) =>
    options.color ? `\u001b[${STYLES[style][0]}m${s}\u001b[${STYLES[style][1]}m` : s;
  const file = report.file ?? "stdin";
  const out: string[] = [];
  for (const f of report.findings) {
    const place = placeOf(f);
    const position = place ? `:${place}` : "";
    const severity = f.severity === "error" ? paint("red", "error") : paint("yellow", "warning");
    const where = pathOf(f);
    out.push(
      `${paint("bold", `${file}${position}`)}: ${severity} ${f.code}: ${f.message}${where ? paint("dim", ` (${where})`) : ""}`,
    );
    if (f.hint) out.push(`  ${paint("dim", "hint:")} ${f.hint}`);
    const excerpt = options.excerpts?.get(f);
    if (excerpt) {
      const gutter = String(excerpt.line);
      out.push(paint("dim", `  ${gutter} | `) + excerpt.text);
      if (f.column !== undefined) {
        const caret = `${" ".repeat(excerpt.caret)}^`;
        out.push(
          paint("dim", `  ${" ".repeat(gutter.length)} | `) +
            paint(f.severity === "error" ? "red" : "yellow", caret),
        );
      }
    }
  }
  if (report.truncated) {
    out.push(
      paint(
        "dim",
        `… ${report.suppressed} more findings not shown (raise --max-errors to see them). All findings by code:`,
      ),
    );
    for (const [code, n] of Object.entries(report.counts.byCode).sort((a, b) => b[1] - a[1])) {
      out.push(paint("dim", `  ${String(n).padStart(9)}  ${code}`));
    }
  }
  out.push(summary(report, file, paint));
  const readAs = readAsLine(report);
  if (readAs) out.push(paint("dim", readAs));
  if (report.output) out.push(outputLine(report.output, report.valid, paint));
  return `${out.join("\n")}\n`;
}

/** Where a finding is in the file: `line:column`, `line`, a workbook's cell, or "" (the whole file). */
export function placeOf(f: Finding): string {
  if (f.cell !== undefined) return f.cell;
  if (f.line === undefined) return "";
  return f.column === undefined ? `${f.line}` : `${f.line}:${f.column}`;
}

/** Where a finding is in the data: its JSON pointer, CSV row and column, or "". */
export function pathOf(f: Finding): string {
  return [
    f.pointer ? f.pointer : null,
    f.row !== undefined ? `row ${f.row}` : null,
    f.row !== undefined && f.field !== undefined ? `column ${f.field}` : null,
  ]
    .filter((s) => s !== null)
    .join(", ");
}

function summary(
  report: Report,
  file: string,
  paint: (style: keyof typeof STYLES, s: string) => string,
): string {
  const { error, warning } = report.counts;
  const s = report.stats;
  const verdict = report.valid ? paint("green", "valid") : paint("red", "invalid");
  const counts = `${plural(error, "error")}, ${plural(warning, "warning")}`;
  return `${paint("bold", file)}: ${verdict} — ${counts} (${recordsOf(s)}; ${formatBytes(s.bytes)} in ${s.durationMs} ms)`;
}

/**
 * How the file was read, when that is worth saying: through a mapping (mappingLine), from text
 * that is not UTF-8 with commas ("read as tab-separated UTF-16LE text"), or both; else null.
 */
export function readAsLine(report: Pick<Report, "mapping" | "text">): string | null {
  const text = report.text ? textLine(report.text) : null;
  if (report.mapping) return mappingLine(report.mapping, text);
  return text === null ? null : `read as ${text}`;
}

/** The names of the delimiters told apart besides the comma. */
const DELIMITER_NAMES: Readonly<Record<string, string>> = { "\t": "tab", ";": "semicolon", "|": "pipe" };

/** A CSV file's text: "tab-separated UTF-16LE text", "semicolon-separated text". */
function textLine(text: NonNullable<Report["text"]>): string {
  const delimiter =
    text.delimiter === undefined ? "comma" : (DELIMITER_NAMES[text.delimiter] ?? text.delimiter);
  return `${delimiter}-separated ${text.encoding ? `${text.encoding} ` : ""}text`;
}

/**
 * Which mapping an export was read through, how it was chosen, from what `text` (when worth
 * saying), and what it left out: "read as Slack: Manage members, Export member list (profile
 * slack, recognised by its header); 2 rows left out by the mapping".
 */
export function mappingLine(mapping: NonNullable<Report["mapping"]>, text: string | null = null): string {
  const how = {
    detected: `profile ${mapping.name}, recognised by its header`,
    profile: `profile ${mapping.name}`,
    file: `mapping ${mapping.name}`,
  }[mapping.how];
  const from = text === null ? "" : `, from ${text}`;
  const left =
    mapping.rowsExcluded > 0 ? `; ${plural(mapping.rowsExcluded, "row")} left out by the mapping` : "";
  return `read as ${mapping.title} (${how})${from}${left}`;
}

/** What a pass read: "3 users, 2 licenses, 3 license users". */
export function recordsOf(s: Report["stats"]): string {
  return `${plural(s.users, "user")}, ${plural(s.licenses, "license")}, ${plural(s.licenseUsers, "license user")}`;
}

/** What a conversion wrote, or why it did not: "wrote out.json (JSON; normalised)". */
export function outputLine(
  output: NonNullable<Report["output"]>,
  valid: boolean,
  paint: (style: keyof typeof STYLES, s: string) => string = (_style, s) => s,
): string {
  const to = output.file ?? "stdout";
  if (!output.written) {
    return paint(
      "red",
      `not written to ${to}: the input has errors (fix them, or add --force to write anyway)`,
    );
  }
  const details = [
    output.format.toUpperCase(),
    output.normalized ? `normalised${output.currency ? `, prices in ${output.currency}` : ""}` : null,
    output.formulasEscaped > 0 ? `${plural(output.formulasEscaped, "formula cell")} escaped` : null,
    valid ? null : "written despite errors (--force)",
  ].filter((d) => d !== null);
  return `wrote ${paint("bold", to)} (${details.join("; ")})`;
}

/** `n` and `word`, plural unless n is 1: "1,234 users". */
export function plural(n: number, word: string): string {
  return `${groupDigits(n)} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * A whole number with its thousands grouped, as en-US writes it: "1,234,567" (by hand: the
 * first toLocaleString of a process loads the locale's data, a cost at every command's start).
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  return `${n < 0 ? "-" : ""}${String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ",")}`;
}

/** 1536 → "1.5 KB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = bytes;
  let u = -1;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${units[u]}`;
}
