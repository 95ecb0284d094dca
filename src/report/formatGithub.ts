// GitHub Actions workflow commands: one annotation per finding, shown on the file in a PR.

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
  return `${report.file ?? "stdin"}: ${report.valid ? "valid" : "invalid"} (${n(error, "error")}, ${n(warning, "warning")}${more})${wrote}`;
}

function escapeData(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
