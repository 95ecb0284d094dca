// `syncfile diff OLD NEW`: what a sync of NEW would change in an account that holds OLD —
// users added, removed, deactivated, reactivated and changed; licenses; license users. Exit
// codes as diff(1): 0 nothing changes, 1 something does, 2 trouble (a usage error, an invalid
// file), 3 a file that cannot be read.

import { Command, Option } from "commander";
import type { Change } from "syncfile/internal/diff/Change.js";
import type { DiffResult } from "syncfile/internal/diff/compare.js";
import type { DiffOptions } from "syncfile/internal/diff/diffFiles.js";
import { PROFILES } from "syncfile/internal/mapping/profiles.js";
import { formatOf } from "syncfile/internal/pass/formatOf.js";
import { formatText } from "syncfile/internal/report/formatText.js";
import { describeIoError, useColor, wholeNumber, writeOut } from "./_io.js";
import { inputOptions } from "./_reportOptions.js";
import { EXIT } from "./exitCodes.js";
import { UsageError } from "./UsageError.js";

interface DiffFlags {
  format: "text" | "json" | "csv" | "html";
  ignoreDates?: boolean;
  limit: number;
  sheet?: string;
  profile?: string;
  mapping?: string;
}

/** The `diff` command; its exit code goes to `result.code`. */
export function diffCommand(result: { code: number }): Command {
  return new Command("diff")
    .description("show what a sync of NEW would change in an account that holds OLD")
    .argument(
      "<old>",
      "the data file the account holds now (JSON, CSV or a workbook; any export a profile reads)",
    )
    .argument("<new>", "the data file to sync")
    .addOption(
      new Option("-f, --format <format>", "output format")
        .choices(["text", "json", "csv", "html"])
        .default("text"),
    )
    .option("--ignore-dates", "leave out lastUsedDate moves (they change every day)")
    .option(
      "--limit <n>",
      "changes of each kind to list in text (the counts stay exact)",
      wholeNumber("--limit", 0),
      20,
    )
    .option(
      "--sheet <name>",
      "the sheet to read of a workbook among the files (default: its first visible sheet)",
    )
    .addOption(
      new Option(
        "--profile <name>",
        "read the CSV files and workbooks among the two as this export (default: each header decides; none: the service's layout only)",
      ).choices([...PROFILES.map((p) => p.name), "none"]),
    )
    .addOption(
      new Option(
        "--mapping <file>",
        "read the CSV files and workbooks among the two through this mapping document",
      ).conflicts("profile"),
    )
    .addHelpText(
      "after",
      `
Users are matched by email, in any case (an email whose case changed is no change). The files
are compared as the service applies them (statuses derived, dates as YYYY-MM-DD), in bounded
memory whatever their size.

Output: text (the counts, then the first --limit changes of each kind), json (one change a
line, as they are found: {"kind": "user.deactivated", "email": …}), csv (a row per change, or
per changed field: kind,email,license,field,from,to) or html (one self-contained page: the
counts and the first --limit changes of each kind).

--profile, --mapping and --sheet apply to each of the two that is a CSV file or a workbook
(--sheet: a workbook): yesterday's export and today's are read alike, and a JSON file as JSON.

Exit codes: 0 nothing changes, 1 something changes, 2 usage error or a file invalid (its
report is printed), 3 a file unreadable.

Examples:
  $ syncfile diff last-week.json users.json
  $ syncfile diff users.json hr-export.csv --ignore-dates --format json > changes.jsonl
  $ syncfile diff monday.csv tuesday.csv --profile okta`,
    )
    .action(async (oldPath: string, newPath: string, flags: DiffFlags) => {
      result.code = await runDiff(oldPath, newPath, flags);
    });
}

/** How each file is read: by its extension, the layout flags applied where they can be. */
async function sideOptions(paths: readonly string[], flags: DiffFlags): Promise<DiffOptions["old"][]> {
  const formats = paths.map((path) => formatOf(path));
  if (flags.sheet !== undefined && !formats.includes("xlsx")) {
    throw new UsageError("--sheet names a workbook's sheet, but neither file is a workbook (.xlsx)");
  }
  const layout = flags.mapping !== undefined ? "--mapping" : flags.profile !== undefined ? "--profile" : null;
  if (layout !== null && formats.every((format) => format === "json")) {
    throw new UsageError(`${layout} reads the columns of a CSV file or a workbook, but both files are JSON`);
  }
  // no report is printed; a mapping's mistakes are listed as validate lists them by default
  const { sheet, profile, mapping } = await inputOptions({ ...flags, format: "text", maxErrors: 1000 });
  return formats.map((format) => ({
    format,
    ...(format === "xlsx" && sheet !== undefined ? { sheet } : {}),
    ...(format !== "json" && profile !== undefined ? { profile } : {}),
    ...(format !== "json" && mapping !== undefined ? { mapping } : {}),
  }));
}

async function runDiff(oldPath: string, newPath: string, flags: DiffFlags): Promise<number> {
  const [oldOptions, newOptions] = await sideOptions([oldPath, newPath], flags);
  const { diffFiles, CHANGE_KINDS } = await import("syncfile/internal/diff/diffFiles.js");
  const { DIFF_CSV_HEADER, diffCsvLines, diffHtml, diffText, totalOf } = await import(
    "syncfile/internal/diff/formatDiff.js"
  );
  if (flags.format === "csv") writeOut(process.stdout, DIFF_CSV_HEADER);
  const listed = new Map<Change["kind"], Change[]>(CHANGE_KINDS.map((k) => [k, []]));
  let found: DiffResult;
  try {
    found = await diffFiles(
      oldPath,
      newPath,
      (change) => {
        if (flags.format === "json") writeOut(process.stdout, `${JSON.stringify(change)}\n`);
        else if (flags.format === "csv") writeOut(process.stdout, diffCsvLines(change));
        else {
          const list = listed.get(change.kind) as Change[];
          if (list.length < flags.limit) list.push(change);
        }
      },
      {
        ignoreDates: flags.ignoreDates === true,
        ...(oldOptions ? { old: oldOptions } : {}),
        ...(newOptions ? { new: newOptions } : {}),
      },
    );
  } catch (error) {
    const path = (error as { path?: string }).path ?? `${oldPath} or ${newPath}`;
    process.stderr.write(`syncfile: cannot read ${path}: ${describeIoError(error)}\n`);
    return EXIT.unreadable;
  }
  const invalid = [
    [oldPath, found.old],
    [newPath, found.new],
  ].filter(([, report]) => !(report as DiffResult["old"]).valid) as [string, DiffResult["old"]][];
  if (invalid.length > 0) {
    for (const [, report] of invalid)
      writeOut(process.stdout, formatText(report, { color: useColor(process.stdout) }));
    process.stderr.write(
      `syncfile: cannot compare: ${invalid.map(([path, r]) => `${path} has ${r.counts.error} error${r.counts.error === 1 ? "" : "s"}`).join(", ")}\n`,
    );
    return EXIT.usage;
  }
  const title = `${oldPath} → ${newPath}`;
  if (flags.format === "text") writeOut(process.stdout, diffText(title, found.counts, listed));
  if (flags.format === "html") writeOut(process.stdout, diffHtml(title, found.counts, listed));
  return totalOf(found.counts) === 0 ? EXIT.ok : EXIT.invalid;
}
