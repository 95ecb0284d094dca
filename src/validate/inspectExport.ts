// An export looked at before it is read as data: its header, its first rows, each column's
// values, and the mapping to read it with — the built-in profile its header is, or one
// suggested from its names and values (MappingSuggester). What `syncfile mapping suggest` and
// the page's mapping step show. Streams the rows: any size of file, in Node or a browser. A
// header below a title is found (CsvRows' raw layout), and the suggestion says where it is.

import type { ByteRange } from "../bytes/ByteRange.js";
import { CsvReader } from "../csv/CsvReader.js";
import type { CsvHeader, CsvSink } from "../csv/CsvSink.js";
import { MappedHeader } from "../csv/MappedRows.js";
import { Mapping } from "../mapping/Mapping.js";
import type { MappingDocument } from "../mapping/MappingDocument.js";
import { MappingSuggester, type SuggesterOptions, type Suggestion } from "../mapping/MappingSuggester.js";
import { detectProfile } from "../mapping/profiles.js";
import { readAsLine } from "../report/formatText.js";
import type { ReportText } from "../report/Report.js";

/** What an export holds, and how to read it. */
export interface ExportInspection {
  /** The header names, or null when the file has none (then `problem` says why). */
  header: string[] | null;
  /** The first rows after the header, as they are (none when not `everyColumn`). */
  rows: string[][];
  /** Each column's distinct values (the first 100) with their counts (when not `everyColumn`: only those a suggestion reads). */
  values: [string, number][][];
  /** The built-in profile the header is, or null. */
  profile: string | null;
  /** The profile's mapping document, or one suggested, with notes on what it found. */
  suggestion: Suggestion;
  /** What ended reading early (not UTF-8, a damaged workbook…), or null. */
  problem: string | null;
}

/** Where the export's bytes are: chunks of a CSV file, or a workbook's bytes by position. */
export type ExportSource =
  | { format: "csv"; chunks: AsyncIterable<Uint8Array> }
  | { format: "xlsx"; range: ByteRange; sheet?: string | null };

/**
 * Reads the export in `source`; `name` names a suggested mapping (a file's name, without its
 * extension). `everyColumn: false` keeps only what the suggestion needs (`mapping suggest`).
 */
export async function inspectExport(
  source: ExportSource,
  name: string,
  options: SuggesterOptions = {},
): Promise<ExportInspection> {
  const suggester = new MappingSuggester(options);
  let header: string[] | null = null;
  let problem: string | null = null;
  let text: ReportText | null = null;
  let below: HeaderBelow | undefined;
  const sink: CsvSink = {
    header(h) {
      header = [...h.names];
      below = h.below;
      suggester.header(h.names);
    },
    row: (row) => suggester.row(row.cells),
    text(read) {
      text = read;
    },
    finding(code, details) {
      // what ends reading; ragged rows are read on
      if (code !== "csv.ragged" && problem === null) {
        problem = `${code}${details.params?.detail ? `: ${details.params.detail}` : ""}`;
      }
    },
  };
  const limits = { maxRecordBytes: 1 << 20, layout: "raw" } as const;
  if (source.format === "xlsx") {
    // loaded here: a CSV export does not load the workbook reader
    const { readWorkbook } = await import("../xlsx/XlsxReader.js");
    await readWorkbook(source.range, sink, { ...limits, sheet: source.sheet ?? null });
  } else {
    const reader = new CsvReader(sink, limits);
    for await (const chunk of source.chunks) {
      reader.push(chunk);
      if (reader.stopped) break;
    }
    reader.end();
  }
  const names = header as string[] | null;
  const profile = names ? detectProfile(names) : null;
  const suggestion: Suggestion = profile
    ? {
        document: profile as MappingDocument,
        notes: [
          below
            ? `this is the ${profile.name} export below a title: read it with --profile ${profile.name}; its profile follows, to change`
            : `this is the ${profile.name} export: syncfile reads it with no mapping; its profile follows, to change`,
        ],
        choices: [],
        usable: true,
      }
    : suggester.suggest(name);
  if (below) {
    // a sheet's row as the spreadsheet numbers it; a file's line as an editor does
    placeHeader(suggestion, below, source.format === "xlsx" ? `row ${below.row}` : `line ${below.line}`);
  }
  const read = text as ReportText | null;
  const readAs = read === null ? null : readAsLine({ text: read });
  if (read !== null && readAs !== null) {
    const told = read.encoding ? "its byte-order mark and its first lines" : "its first lines";
    suggestion.notes.unshift(`${readAs} (told by ${told})`);
  }
  if (problem !== null)
    suggestion.notes.push(`reading stopped early (${problem}): the values are of the rows before`);
  return {
    header: names,
    rows: suggester.sample,
    values: (names ?? []).map((_, i) => suggester.valuesOf(i)),
    profile: profile?.name ?? null,
    suggestion,
    problem,
  };
}

type HeaderBelow = NonNullable<CsvHeader["below"]>;

/**
 * A header found below a title (`where`): said first in the notes; and written as the document's
 * headerRow when a row above it names the email column too, which a mapping's search (the
 * first row naming it) would take for the header. Else the search finds it, and a headerRow
 * would only break the mapping for the same export without a title.
 */
function placeHeader(suggestion: Suggestion, below: HeaderBelow, where: string): void {
  suggestion.notes.unshift(`header: ${where} (the rows above it are a title)`);
  const document = suggestion.document;
  // without an email column there is nothing a row above could name; a profile goes by --profile
  if (!suggestion.usable || document.email === "" || document.detect !== undefined) return;
  const mapping = new Mapping(document);
  const names = (cells: readonly string[]) => cells.map((c) => c.trim());
  if (!below.above.some((cells) => MappedHeader.bind(mapping, names(cells)) !== null)) return;
  suggestion.document = withHeaderRow(document, below.row);
  suggestion.notes.splice(
    1,
    0,
    `headerRow: ${below.row}, since a row above the header also names the email column ${JSON.stringify(document.email)}`,
  );
}

/** `document` with `headerRow`, where the schema lists it: after the name and title. */
function withHeaderRow(document: MappingDocument, headerRow: number): MappingDocument {
  const { $schema, name, title, ...fields } = document;
  return {
    ...($schema === undefined ? {} : { $schema }),
    name,
    ...(title === undefined ? {} : { title }),
    headerRow,
    ...fields,
  };
}

/** A mapping's name made of a file's: lower case, `-` for anything but letters and digits. */
export function mappingName(file: string): string {
  const base = file.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "");
  return (
    base
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "export"
  );
}
