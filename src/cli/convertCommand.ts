// `syncfile convert IN OUT`: validate and write the data file as JSON, CSV or an Excel
// workbook, normalised on request; nothing is written when the input has errors, unless forced.

import { Command, Option } from "commander";
import type { Report } from "syncfile/internal/report/Report.js";
import { exitOnInterrupt } from "./_interrupt.js";
import { describeIoError, sizeOf, writeOut } from "./_io.js";
import { Progress } from "./_progress.js";
import { readRates } from "./_rates.js";
import {
  addReportOptions,
  checkInputFlags,
  inputOptions,
  prestartFor,
  type ReportFlags,
  renderReport,
} from "./_reportOptions.js";
import { EXIT } from "./exitCodes.js";
import { UsageError } from "./UsageError.js";

interface ConvertFlags extends ReportFlags {
  to?: "json" | "csv" | "xlsx";
  normalize?: boolean;
  force?: boolean;
  escapeFormulas: boolean;
  displayCurrency?: string;
  sourceCurrency?: string;
  rates?: string;
}

/** The `convert` command; its exit code goes to `result.code`. */
export function convertCommand(result: { code: number }): Command {
  const command = new Command("convert")
    .description(
      "convert a data file between JSON, CSV and Excel workbooks (validating it on the way), optionally normalised",
    )
    .argument(
      "<input>",
      "the data file to read (JSON, or by extension CSV or an Excel workbook .xlsx); - reads standard input",
    )
    .argument("<output>", "the file to write (JSON, CSV or .xlsx by extension); - writes standard output")
    .addOption(
      new Option("--to <format>", "output format (default: by the output's extension)").choices([
        "json",
        "csv",
        "xlsx",
      ]),
    )
    .option(
      "--normalize",
      "write the sync-ready form: license statuses derived, prices converted, dates as YYYY-MM-DD",
    )
    .option("--display-currency <code>", "with --normalize: the currency prices are shown in (ISO 4217)")
    .option("--source-currency <code>", "with --normalize: the currency of the file's cents (default USD)")
    .option("--rates <file>", 'with --display-currency: a JSON file of rates, {"EUR": "0.92"}')
    .option("--force", "write even when the input has errors")
    .option("--no-escape-formulas", "write CSV cells starting with = + - @ tab CR as they are");
  return addReportOptions(command)
    .addHelpText(
      "after",
      `
The output is written to a temporary file first and takes its name only when the input
is valid (or with --force): a refused or interrupted conversion leaves no output file.
Without --to, the output format follows the output's extension; for - or another
extension it is CSV for JSON input, else JSON. A workbook is written in the CSV layout on
one sheet, Users: a bold frozen header row, sized columns. The report goes to stdout, or to
stderr when the output is stdout.

Exit codes: 0 written, input valid; 1 input invalid (written only with --force);
2 usage error; 3 input unreadable or output unwritable.

Examples:
  $ syncfile convert hr-export.csv users.json
  $ syncfile convert users.json users.csv
  $ syncfile convert hr-export.xlsx users.json --sheet Staff
  $ syncfile convert users.json users.xlsx
  $ syncfile convert users.json sync-ready.json --normalize --display-currency EUR --rates rates.json
  $ cat hr-export.csv | syncfile convert - - --input-format csv --to json > users.json`,
    )
    .action(async (input: string, output: string, flags: ConvertFlags) => {
      result.code = await runConvert(input, output, flags);
    });
}

async function runConvert(input: string, output: string, flags: ConvertFlags): Promise<number> {
  checkInputFlags([input], flags);
  await prestartFor(input, flags);
  const reading = await inputOptions(flags);
  if (!flags.normalize && (flags.displayCurrency || flags.sourceCurrency || flags.rates)) {
    throw new UsageError("--display-currency, --source-currency and --rates apply only with --normalize");
  }
  const rates = flags.rates === undefined ? undefined : readRates(flags.rates, flags.sourceCurrency ?? "USD");
  const progress = new Progress(
    `converting ${input === "-" ? "stdin" : input}`,
    input === "-" ? null : sizeOf(input),
  );
  const options = {
    ...reading,
    ...(flags.to ? { to: flags.to } : {}),
    ...(flags.displayCurrency ? { displayCurrency: flags.displayCurrency } : {}),
    ...(flags.sourceCurrency ? { sourceCurrency: flags.sourceCurrency } : {}),
    ...(rates ? { rates } : {}),
    normalize: flags.normalize === true,
    force: flags.force === true,
    escapeFormulas: flags.escapeFormulas,
    maxErrors: flags.maxErrors,
    strict: flags.strict === true,
    onProgress: (bytes: number) => progress.update(bytes),
  };
  const { convertFile, convertStream } = await import("syncfile/internal/convert/convert.js");
  const reportStream = output === "-" ? process.stderr : process.stdout;
  let report: Report;
  const interruptible = exitOnInterrupt(progress);
  try {
    const destination = output === "-" ? process.stdout : output;
    report =
      input === "-"
        ? await convertStream(process.stdin, destination, options)
        : await convertFile(input, destination, options);
  } catch (error) {
    progress.done();
    if (error instanceof RangeError) throw new UsageError(error.message);
    const what = failedFile(error, input, output);
    if (what === null) throw error; // not an I/O error: a bug, reported as one
    process.stderr.write(`syncfile: ${what}: ${describeIoError(error)}\n`);
    return EXIT.unreadable;
  } finally {
    interruptible();
  }
  progress.done();
  writeOut(reportStream, renderReport(report, input, flags, reportStream));
  return report.valid ? EXIT.ok : EXIT.invalid;
}

/**
 * "cannot read IN" or "cannot write OUT" for an I/O error of a conversion, by the file it names
 * (the library names the input on a failed read and the output on a failed write); one that
 * names none failed on standard input or output. Null for an error that is no I/O error.
 */
function failedFile(error: unknown, input: string, output: string): string | null {
  const e = error as NodeJS.ErrnoException;
  if (typeof e?.syscall !== "string") return null;
  const name = (file: string, stream: string) => (file === "-" ? stream : file);
  if (e.path === undefined) {
    return e.syscall === "read"
      ? `cannot read ${name(input, "standard input")}`
      : `cannot write ${name(output, "standard output")}`;
  }
  return e.path === input ? `cannot read ${input}` : `cannot write ${e.path}`;
}
