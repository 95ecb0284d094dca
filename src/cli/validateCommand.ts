// `syncfile validate FILE...`: check data files and print every finding.

import { statSync } from "node:fs";
import { Command, InvalidArgumentError, Option } from "commander";
import { formatGithub } from "../report/formatGithub.js";
import { formatJson } from "../report/formatJson.js";
import { formatText } from "../report/formatText.js";
import type { Report } from "../report/Report.js";
import { readExcerpts } from "../report/readExcerpts.js";
import { validateFile, validateStream } from "../validate/validate.js";
import { describeIoError, parseWholeNumber, useColor } from "./_io.js";
import { Progress } from "./_progress.js";
import { EXIT } from "./exitCodes.js";
import { UsageError } from "./UsageError.js";

interface ValidateFlags {
  format: "text" | "json" | "github";
  maxErrors: number;
  strict?: boolean;
}

/** The `validate` command; its exit code goes to `result.code`. */
export function validateCommand(result: { code: number }): Command {
  return new Command("validate")
    .description(
      "check data files before upload: every problem with its line, column, JSON pointer and a hint",
    )
    .argument("<files...>", "data files to check; - reads standard input")
    .addOption(
      new Option("-f, --format <format>", "output format")
        .choices(["text", "json", "github"])
        .default("text"),
    )
    .option(
      "--max-errors <n>",
      "errors (and warnings) to list per file; the totals stay exact",
      (v: string) => count("--max-errors", v),
      1000,
    )
    .option("--strict", "treat warnings as errors")
    .addHelpText(
      "after",
      `
Output: text (file:line:column, the message, a hint and the source line), json (one
report object per file and line, as the server returns it) or github (annotations).

Exit codes: 0 every file valid, 1 a file invalid, 2 usage error, 3 a file unreadable.

Examples:
  $ syncfile validate users.json
  $ syncfile validate exports/*.json --format github
  $ curl -s https://example.com/users.json | syncfile validate - --format json`,
    )
    .action(async (files: string[], flags: ValidateFlags) => {
      result.code = await runValidate(files, flags);
    });
}

function count(flag: string, text: string): number {
  try {
    return parseWholeNumber(flag, text, 0);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

async function runValidate(files: string[], flags: ValidateFlags): Promise<number> {
  if (files.filter((f) => f === "-").length > 1)
    throw new UsageError("standard input (-) can be read only once");
  let code: number = EXIT.ok;
  for (const file of files) {
    let report: Report;
    const progress = new Progress(
      `validating ${file === "-" ? "stdin" : file}`,
      file === "-" ? null : sizeOf(file),
    );
    const options = {
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
    process.stdout.write(render(report, file, flags.format));
    if (!report.valid && code === EXIT.ok) code = EXIT.invalid;
  }
  return code;
}

function render(report: Report, file: string, format: ValidateFlags["format"]): string {
  if (format === "json") return formatJson(report);
  if (format === "github") return formatGithub(report);
  const excerpts = file === "-" ? undefined : readExcerpts(file, report.findings);
  return formatText(report, { color: useColor(process.stdout), ...(excerpts ? { excerpts } : {}) });
}

function sizeOf(file: string): number | null {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}
