// `syncfile mapping suggest EXPORT`: a starting mapping document for an export no profile knows,
// on standard output, and on standard error what it found: the email column and why, the
// status column's values (marked where their meaning is not plain), the date form, what is not read.
// An export without an email column gets no document: one the reader cannot use is no start.

import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { Command, Option } from "commander";
import { formatOf } from "syncfile/internal/pass/formatOf.js";
import { describeIoError, writeOut } from "./_io.js";
import { EXIT } from "./exitCodes.js";
import { UsageError } from "./UsageError.js";

interface SuggestFlags {
  inputFormat?: "csv" | "xlsx";
  sheet?: string;
}

/** The `mapping` command and its `suggest`; the exit code goes to `result.code`. */
export function mappingCommand(result: { code: number }): Command {
  const suggest = new Command("suggest")
    .description("write a starting mapping document for an export, from its header and its values")
    .argument("<export>", "a CSV file or an Excel workbook (.xlsx)")
    .addOption(
      new Option("--input-format <format>", "read the export as csv or xlsx (default: by extension)").choices(
        ["csv", "xlsx"],
      ),
    )
    .option("--sheet <name>", "the workbook's sheet to read (default: the first visible sheet)")
    .addHelpText(
      "after",
      `
The document goes to standard output; what was found goes to standard error: the email
column (by its name, or by the addresses in its cells), the status column's values —
✓ mapped, ? to map by hand (until then each is an error at its rows) — the form of the
dates and the texts that mean no date, and the columns not read. Edit the document, then
read the export with --mapping FILE (validate, convert, push).

Exit codes: 0 written, 1 no column holds email addresses (nothing written), 2 usage error,
3 the export unreadable.

Examples:
  $ syncfile mapping suggest hr-export.csv > hr-mapping.json
  $ syncfile validate hr-export.csv --mapping hr-mapping.json`,
    )
    .action(async (file: string, flags: SuggestFlags) => {
      result.code = await runSuggest(file, flags);
    });
  return new Command("mapping")
    .description("mapping documents: how an export's columns make the service's file")
    .addCommand(suggest.exitOverride());
}

async function runSuggest(file: string, flags: SuggestFlags): Promise<number> {
  const format = flags.inputFormat ?? formatOf(file);
  if (format !== "csv" && format !== "xlsx") {
    throw new UsageError(
      `${file} is read as JSON: mapping suggest reads a CSV file or a workbook (add --input-format csv)`,
    );
  }
  if (flags.sheet !== undefined && format !== "xlsx") {
    throw new UsageError(`--sheet names a workbook's sheet, but ${file} is read as CSV`);
  }
  const { inspectExport, mappingName } = await import("syncfile/internal/validate/inspectExport.js");
  // the suggestion is all it prints: each column's values and the first rows are not kept
  const lean = { everyColumn: false };
  let found: Awaited<ReturnType<typeof inspectExport>>;
  try {
    if (format === "xlsx") {
      const { fileRange } = await import("syncfile/internal/bytes/fileRange.js");
      const handle = await open(file, "r");
      try {
        const range = fileRange(handle, (await handle.stat()).size);
        found = await inspectExport({ format, range, sheet: flags.sheet ?? null }, mappingName(file), lean);
      } finally {
        await handle.close();
      }
    } else {
      found = await inspectExport({ format, chunks: createReadStream(file) }, mappingName(file), lean);
    }
  } catch (error) {
    process.stderr.write(`syncfile: cannot read ${file}: ${describeIoError(error)}\n`);
    return EXIT.unreadable;
  }
  if (found.header === null) {
    process.stderr.write(`syncfile: cannot read ${file}: ${found.problem ?? "it has no header row"}\n`);
    return EXIT.unreadable;
  }
  // no column of addresses, or one without a name in the header (a mapping names its columns)
  if (!found.suggestion.usable || found.suggestion.document.email === "") {
    process.stderr.write(`syncfile: ${noEmailColumn(file, found.header)}\n`);
    return EXIT.invalid;
  }
  writeOut(process.stdout, `${JSON.stringify(found.suggestion.document, null, 2)}\n`);
  process.stderr.write(`${found.suggestion.notes.join("\n")}\n`);
  return EXIT.ok;
}

/** How many of an export's columns the message of one without an email column names. */
const NAMED_COLUMNS = 20;

/**
 * What to do about an export none of whose named columns holds addresses (a column of them
 * without a name in the header cannot be mapped either): its columns, named.
 */
function noEmailColumn(file: string, header: readonly string[]): string {
  const named = header.filter((name) => name !== "");
  const shown = named.slice(0, NAMED_COLUMNS).map((name) => JSON.stringify(name));
  if (named.length > NAMED_COLUMNS) shown.push(`and ${named.length - NAMED_COLUMNS} more`);
  return (
    `no named column of ${file} holds email addresses; its columns: ${shown.join(", ") || "none named"}: ` +
    "add the users' email addresses to the export, or, if a column holds them, check the file's " +
    "header row: it must name that column"
  );
}
