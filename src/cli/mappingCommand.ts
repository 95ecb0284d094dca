// `syncfile mapping suggest EXPORT`: a starting mapping document for an export no profile knows,
// on standard output, and on standard error what it found: the email column and why, the
// status column's values (marked where their meaning is not plain), the date form, what is not read.

import { basename } from "node:path";
import { Command, Option } from "commander";
import type { CsvSink } from "../csv/CsvSink.js";
import { MappingSuggester } from "../mapping/MappingSuggester.js";
import { detectProfile, profileNamed } from "../mapping/profiles.js";
import { formatOf } from "../pass/formatOf.js";
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

Exit codes: 0 written, 2 usage error, 3 the export unreadable.

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
  const suggester = new MappingSuggester();
  let header: readonly string[] | null = null;
  let problem: string | null = null;
  const sink: CsvSink = {
    header(h) {
      header = h.names;
      suggester.header(h.names);
    },
    row: (row) => suggester.row(row.cells),
    finding(code, details) {
      // what ends reading (not UTF-8, a quote never closed, a damaged workbook); ragged rows are read on
      if (code !== "csv.ragged" && problem === null)
        problem = `${code}${details.params?.detail ? `: ${details.params.detail}` : ""}`;
    },
  };
  try {
    if (format === "xlsx") {
      const { readWorkbook } = await import("../xlsx/XlsxReader.js");
      const { fileRange } = await import("../bytes/fileRange.js");
      const { open } = await import("node:fs/promises");
      const handle = await open(file, "r");
      try {
        await readWorkbook(fileRange(handle, (await handle.stat()).size), sink, {
          maxRecordBytes: 1 << 20,
          layout: "raw",
          sheet: flags.sheet ?? null,
        });
      } finally {
        await handle.close();
      }
    } else {
      const { createReadStream } = await import("node:fs");
      const { CsvReader } = await import("../csv/CsvReader.js");
      const reader = new CsvReader(sink, { maxRecordBytes: 1 << 20, layout: "raw" });
      for await (const chunk of createReadStream(file)) {
        reader.push(chunk as Buffer);
        if (reader.stopped) break;
      }
      reader.end();
    }
  } catch (error) {
    process.stderr.write(`syncfile: cannot read ${file}: ${describeIoError(error)}\n`);
    return EXIT.unreadable;
  }
  if (header === null) {
    process.stderr.write(`syncfile: cannot read ${file}: ${problem ?? "it has no header row"}\n`);
    return EXIT.unreadable;
  }
  const profile = detectProfile(header);
  const name =
    basename(file)
      .replace(/\.[^.]*$/, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "export";
  const { document, notes } = profile
    ? {
        document: profileNamed(profile.name) ?? profile,
        notes: [
          `this is the ${profile.name} export: syncfile reads it with no mapping; its profile follows, to change`,
        ],
      }
    : suggester.suggest(name);
  if (problem !== null) notes.push(`reading stopped early (${problem}): the values are of the rows before`);
  writeOut(process.stdout, `${JSON.stringify(document, null, 2)}\n`);
  process.stderr.write(`${notes.join("\n")}\n`);
  return EXIT.ok;
}
