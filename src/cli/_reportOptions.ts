// What validate and convert share: the report flags, how a report is printed, the input format.

import { type Command, Option } from "commander";
import { formatGithub } from "../report/formatGithub.js";
import { formatJson } from "../report/formatJson.js";
import { formatText } from "../report/formatText.js";
import type { Report } from "../report/Report.js";
import { readExcerpts } from "../report/readExcerpts.js";
import { useColor, wholeNumber } from "./_io.js";

/** The report flags, as commander gives them. */
export interface ReportFlags {
  format: "text" | "json" | "github";
  maxErrors: number;
  strict?: boolean;
  inputFormat?: "json" | "csv";
}

/** Adds --format, --max-errors, --strict and --input-format to `command`. */
export function addReportOptions(command: Command): Command {
  return command
    .addOption(
      new Option("-f, --format <format>", "report format")
        .choices(["text", "json", "github"])
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
        "read input as json or csv (default: by extension; stdin is json)",
      ).choices(["json", "csv"]),
    );
}

/** The report in the chosen format; text gets source excerpts when the file can be read again. */
export function renderReport(
  report: Report,
  file: string,
  flags: ReportFlags,
  stream: NodeJS.WriteStream,
): string {
  if (flags.format === "json") return formatJson(report);
  if (flags.format === "github") return formatGithub(report);
  const excerpts = file === "-" ? undefined : readExcerpts(file, report.findings);
  return formatText(report, { color: useColor(stream), ...(excerpts ? { excerpts } : {}) });
}
