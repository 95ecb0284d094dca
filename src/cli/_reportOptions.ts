// What validate, convert and push share: the report flags, how a report is printed, the input
// format and sheet.

import { readFileSync } from "node:fs";
import { type Command, Option } from "commander";
import type { MappingDocument } from "syncfile/internal/mapping/MappingDocument.js";
import { PROFILES } from "syncfile/internal/mapping/profiles.js";
import { formatOf, type InputFormat } from "syncfile/internal/pass/formatOf.js";
import type { Finding } from "syncfile/internal/report/Finding.js";
import { formatGithub } from "syncfile/internal/report/formatGithub.js";
import { formatHtml } from "syncfile/internal/report/formatHtml.js";
import { formatJson } from "syncfile/internal/report/formatJson.js";
import { formatSarif } from "syncfile/internal/report/formatSarif.js";
import type { Excerpt } from "syncfile/internal/report/formatText.js";
import { formatText } from "syncfile/internal/report/formatText.js";
import type { Report } from "syncfile/internal/report/Report.js";
import { readExcerpts } from "syncfile/internal/report/readExcerpts.js";
import { describeIoError, sizeOf, useColor, wholeNumber } from "./_io.js";
import { UsageError } from "./UsageError.js";

/** The report flags, as commander gives them. */
export interface ReportFlags {
  format: "text" | "json" | "github" | "html" | "sarif";
  maxErrors: number;
  strict?: boolean;
  inputFormat?: "json" | "csv" | "xlsx";
  sheet?: string;
  profile?: string;
  mapping?: string;
}

/** Adds --format, --max-errors, --strict, --input-format, --sheet, --profile and --mapping to `command`. */
export function addReportOptions(command: Command): Command {
  return command
    .addOption(
      new Option("-f, --format <format>", "report format")
        .choices(["text", "json", "github", "html", "sarif"])
        .default("text"),
    )
    .option(
      "--max-errors <n>",
      "errors (and warnings) to list per file; the totals stay exact",
      wholeNumber("--max-errors", 0),
      1000,
    )
    .option("--strict", "treat warnings as errors")
    .addOption(
      new Option(
        "--input-format <format>",
        "read input as json, csv or an Excel workbook (default: by extension, .csv, .tsv, .txt or .xlsx; stdin is json)",
      ).choices(["json", "csv", "xlsx"]),
    )
    .option("--sheet <name>", "the workbook's sheet to read (default: the first visible sheet)")
    .addOption(
      new Option(
        "--profile <name>",
        "read a CSV file or workbook as this export (default: the header decides; none: the service's layout only)",
      ).choices([...PROFILES.map((p) => p.name), "none"]),
    )
    .addOption(
      new Option("--mapping <file>", "read a CSV file or workbook through this mapping document").conflicts(
        "profile",
      ),
    );
}

/** How `file` (- for standard input) is read: as --input-format says, else by its name. */
function inputFormatOf(file: string, flags: ReportFlags): InputFormat {
  return flags.inputFormat ?? (file === "-" ? "json" : formatOf(file));
}

/** Rejects --sheet for an input that is not read as a workbook, --profile and --mapping for JSON. */
export function checkInputFlags(files: readonly string[], flags: ReportFlags): void {
  for (const file of files) {
    const format = inputFormatOf(file, flags);
    const input = file === "-" ? "standard input" : file;
    if (flags.sheet !== undefined && format !== "xlsx") {
      throw new UsageError(
        `--sheet names a workbook's sheet, but ${input} is read as ${format}: give an .xlsx file, or add --input-format xlsx`,
      );
    }
    const layout =
      flags.mapping !== undefined ? "--mapping" : flags.profile !== undefined ? "--profile" : null;
    if (layout !== null && format === "json") {
      throw new UsageError(
        `${layout} reads the columns of a CSV file or a workbook, but ${input} is read as JSON: give a .csv or .xlsx file, or add --input-format csv`,
      );
    }
  }
}

/**
 * Starts the decoding thread of a pass over `file` when it is a JSON file large enough for one,
 * so that the thread boots while the command loads the rest of its modules (prestart.ts).
 */
export async function prestartFor(file: string, flags: ReportFlags): Promise<void> {
  if (file === "-" || inputFormatOf(file, flags) !== "json") return;
  const { prestartJsonWorker } = await import("syncfile/internal/pass/prestart.js");
  prestartJsonWorker(sizeOf(file));
}

/** What the flags ask for of the validation: the input's format, sheet, profile or mapping. */
export interface InputOptions {
  format?: "json" | "csv" | "xlsx";
  sheet?: string;
  profile?: string;
  mapping?: MappingDocument;
}

/** The input options of the validation the flags ask for; a --mapping that cannot be used is a UsageError. */
export async function inputOptions(flags: ReportFlags): Promise<InputOptions> {
  return {
    ...(flags.inputFormat ? { format: flags.inputFormat } : {}),
    ...(flags.sheet !== undefined ? { sheet: flags.sheet } : {}),
    ...(flags.profile !== undefined ? { profile: flags.profile } : {}),
    ...(flags.mapping !== undefined ? { mapping: await mappingFile(flags.mapping, flags.maxErrors) } : {}),
  };
}

/**
 * The mapping document in `file`; what is wrong with it, where, as a UsageError listing as many
 * mistakes as --max-errors lists errors (one at least: the mapping cannot be used, and says why).
 */
async function mappingFile(file: string, maxErrors: number): Promise<MappingDocument> {
  // loaded here: a run without a mapping loads no JSON parser that keeps places
  const { MappingError, readMapping } = await import("syncfile/internal/mapping/readMapping.js");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the mapping ${file}: ${describeIoError(error)}`);
  }
  try {
    return readMapping(text, file, { maxProblems: Math.max(1, maxErrors) });
  } catch (error) {
    if (!(error instanceof MappingError)) throw error;
    const lines = error.problems.map((p) => `${file}:${p.line}:${p.column}: error: ${p.message}`);
    const more = error.total - error.problems.length;
    if (more > 0) lines.push(`… ${more} more mistakes not shown (${error.total} in all)`);
    throw new UsageError(`the mapping ${file} cannot be used:\n${lines.join("\n")}`);
  }
}

/** The report in the chosen format; text and html get source excerpts when the file can be read again. */
export function renderReport(
  report: Report,
  file: string,
  flags: ReportFlags,
  stream: NodeJS.WriteStream,
): string {
  if (flags.format === "json") return formatJson(report);
  if (flags.format === "github") return formatGithub(report);
  if (flags.format === "html") return renderHtml([{ report, file }]);
  if (flags.format === "sarif") return formatSarif([report]);
  const excerpts = file === "-" ? undefined : readExcerpts(file, report.findings);
  return formatText(report, { color: useColor(stream), ...(excerpts ? { excerpts } : {}) });
}

/** Whether the format makes one document of every file's report, written once all are read. */
export function isWholeRun(flags: ReportFlags): boolean {
  return flags.format === "html" || flags.format === "sarif";
}

/** Every file's report as one document: an HTML page or a SARIF log. */
export function renderRun(reports: readonly { report: Report; file: string }[], flags: ReportFlags): string {
  if (flags.format === "sarif") return formatSarif(reports.map(({ report }) => report));
  return renderHtml(reports);
}

/** Reports as one HTML page, each finding kept with its source line when the file can be read again. */
function renderHtml(reports: readonly { report: Report; file: string }[]): string {
  const excerpts = new Map<Finding, Excerpt>();
  for (const { report, file } of reports) {
    if (file === "-") continue;
    for (const [finding, excerpt] of readExcerpts(file, report.findings, report.findings.length)) {
      excerpts.set(finding, excerpt);
    }
  }
  return formatHtml(
    reports.map(({ report }) => report),
    { excerpts },
  );
}
