// GitHub Actions workflow commands: one annotation per finding, shown on the file in a PR.
// The runner obeys any line of a step's output that begins (after spaces) with `::` or `##[`,
// and a file's name or a value is the file's author's to choose: every line is escaped as the
// runner reads it (`%`, CR, LF; in a property also `:` and `,`), so that the only commands in
// the output are the annotations written here.

import { neutralizeCommands } from "../text/workflowCommands.js";
import type { Finding } from "./Finding.js";
import type { Report } from "./Report.js";

/** `::error file=…,line=…,col=…,title=…::message` for each finding, then a summary line. */
export function formatGithub(report: Report): string {
  const file = report.file ?? "stdin";
  const lines = report.findings.map((f) => annotation(file, f));
  lines.push(summaryLine(report));
  return `${lines.join("\n")}\n`;
}

function annotation(file: string, f: Finding): string {
  const props = [`file=${escapeProperty(file)}`];
  if (f.line !== undefined) props.push(`line=${f.line}`);
  if (f.column !== undefined) props.push(`col=${f.column}`);
  props.push(`title=${escapeProperty(f.code)}`);
  const where = f.cell || f.pointer ? ` (${[f.cell, f.pointer].filter(Boolean).join(", ")})` : "";
  const hint = f.hint ? `\nhint: ${f.hint}` : "";
  return `::${f.severity} ${props.join(",")}::${escapeData(`${f.message}${where}${hint}`)}`;
}

function summaryLine(report: Report): string {
  const { error, warning } = report.counts;
  const more = report.suppressed > 0 ? `, ${report.suppressed} not shown` : "";
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
  const output = report.output;
  const wrote = !output ? "" : output.written ? `; wrote ${output.file ?? "stdout"}` : "; nothing written";
  return plainLine(
    `${report.file ?? "stdin"}: ${report.valid ? "valid" : "invalid"} (${n(error, "error")}, ${n(warning, "warning")}${more})${wrote}`,
  );
}

/** `text` as one line that the runner shows and does not obey. */
function plainLine(text: string): string {
  return neutralizeCommands(escapeData(text));
}

function escapeData(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
