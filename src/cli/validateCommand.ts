// `syncfile validate FILE...`: check data files and print every finding.

import { Command } from "commander";
import type { Report } from "syncfile/internal/report/Report.js";
import { describeIoError, sizeOf, writeOut } from "./_io.js";
import { Progress } from "./_progress.js";
import {
  addReportOptions,
  checkInputFlags,
  inputOptions,
  isWholeRun,
  prestartFor,
  type ReportFlags,
  renderReport,
  renderRun,
} from "./_reportOptions.js";
import { EXIT } from "./exitCodes.js";
import { UsageError } from "./UsageError.js";

type ValidateFlags = ReportFlags;

/** The `validate` command; its exit code goes to `result.code`. */
export function validateCommand(result: { code: number }): Command {
  const command = new Command("validate")
    .description(
      "check data files before upload: every problem with its line, column, JSON pointer and a hint",
    )
    .argument(
      "<files...>",
      "data files to check (JSON, or by extension CSV or an Excel workbook .xlsx); - reads standard input",
    );
  return addReportOptions(command)
    .addHelpText(
      "after",
      `
Output: text (file:line:column — a workbook's file:Sheet!E3 —, the message, a hint and the
source line), json (one report object per file and line, as the server returns it),
github (annotations), html (one self-contained page for every file: a banner, the counts
by code and the findings with their source lines, to send to whoever owns the data; it
makes no request to any host) or sarif (one SARIF 2.1.0 log for every file, for
code-scanning tools such as GitHub's upload-sarif: a rule per code, a result per finding).

Exit codes: 0 every file valid, 1 a file invalid, 2 usage error, 3 a file unreadable.

Examples:
  $ syncfile validate users.json
  $ syncfile validate hr-export.csv
  $ syncfile validate hr-export.xlsx --sheet Users
  $ syncfile validate exports/*.json --format github
  $ syncfile validate hr-export.csv --format html > report.html
  $ syncfile validate exports/*.json --format sarif > syncfile.sarif
  $ curl -s https://example.com/users.json | syncfile validate - --format json
  $ cat users.csv | syncfile validate - --input-format csv`,
    )
    .action(async (files: string[], flags: ValidateFlags) => {
      result.code = await runValidate(files, flags);
    });
}

async function runValidate(files: string[], flags: ValidateFlags): Promise<number> {
  if (files.filter((f) => f === "-").length > 1)
    throw new UsageError("standard input (-) can be read only once");
  checkInputFlags(files, flags);
  if (files[0] !== undefined) await prestartFor(files[0], flags);
  const input = await inputOptions(flags);
  const { validateFile, validateStream } = await import("syncfile/internal/validate/validate.js");
  let code: number = EXIT.ok;
  // an HTML page or a SARIF log is one document: every file's report, written once all are read
  const reports: { report: Report; file: string }[] = [];
  for (const file of files) {
    let report: Report;
    const progress = new Progress(
      `validating ${file === "-" ? "stdin" : file}`,
      file === "-" ? null : sizeOf(file),
    );
    const options = {
      ...input,
      maxErrors: flags.maxErrors,
      strict: flags.strict === true,
      onProgress: (bytes: number) => progress.update(bytes),
    };
    try {
      report =
        file === "-" ? await validateStream(process.stdin, options) : await validateFile(file, options);
    } catch (error) {
      progress.done();
      process.stderr.write(`syncfile: cannot read ${file}: ${describeIoError(error)}\n`);
      code = EXIT.unreadable;
      continue;
    }
    progress.done();
    if (isWholeRun(flags)) reports.push({ report, file });
    else writeOut(process.stdout, renderReport(report, file, flags, process.stdout));
    if (!report.valid && code === EXIT.ok) code = EXIT.invalid;
  }
  if (reports.length > 0) writeOut(process.stdout, renderRun(reports, flags));
  return code;
}
