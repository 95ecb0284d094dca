// CSV records matched to the header: rows come out with their record number, line and offset;
// empty lines are skipped; the header's unknown and repeated columns, ragged rows and what
// ended parsing become csv.* findings naming the row and column. A mapping's header, and the
// raw layout's, may be below a title. Fed by a CsvParser in this thread, or by the batches of
// one on a worker, or by a sheet's rows.

import { Mapping } from "../mapping/Mapping.js";
import type { MappingDocument } from "../mapping/MappingDocument.js";
import { statusColumnsByName } from "../mapping/MappingSuggester.js";
import { detectProfile } from "../mapping/profiles.js";
import { CSV_DATA_FIRST_HINT } from "../report/catalog.js";
import type { SourceLocation } from "../report/Finding.js";
import { plural } from "../report/formatText.js";
import { type FoundHeader, HEADER_SEARCH, type HeldRow, RawHeaderSearch } from "./_RawHeaderSearch.js";
import type { ParseFailure, RawRecordSink } from "./CsvParser.js";
import type { CsvHeader, CsvReaderLimits, CsvSink } from "./CsvSink.js";
import { type ColumnKey, matchHeader } from "./columns.js";
import { MappedHeader, type MappingProblem } from "./MappedRows.js";

/**
 * How a source that fits its rows to the header itself does so (a sheet's: the cells past the
 * header's width are findings, the missing ones empty): `row` being the row's number.
 */
export type FitRow = (cells: string[], row: number) => string[];

/** Raw records in file order (`record`, `failure`), then `finish()`. */
export class CsvRows implements RawRecordSink {
  readonly #sink: CsvSink;
  readonly #limits: CsvReaderLimits;
  readonly #delimiter: string;
  readonly #fit: FitRow | null;
  /** Whether the source numbers its rows (a sheet): a mapping's headerRow is then that number. */
  #numbered = false;
  #header: CsvHeader | null = null;
  #headerRow = 0;
  #stopped = false;
  #row = 0;
  /** A header without an email column, while the rows after it are searched for one. */
  #missing: MissingEmail | null = null;
  /** The mapping the rows are read through, bound to the export's header. */
  #mapped: MappedHeader | null = null;
  /** How the mapping came, its rows left out, and the export's header width. */
  #how: "detected" | "profile" | "file" = "detected";
  #excluded = 0;
  #width = 0;
  /** Records read while looking for the header a mapping names (a preamble above it). */
  #seeking = 0;
  /** The mapping whose header is being looked for, and where the search started. */
  #sought: { mapping: Mapping; loc: SourceLocation } | null = null;
  /** The first row of an export read through a mapping that had fewer cells than its header, and how many did. */
  #short: { loc: SourceLocation; row: number; cells: number; count: number } | null = null;
  /** The raw layout's first rows, held until one shows which is the header (below a title). */
  #search: RawHeaderSearch | null;

  /**
   * `delimiter`: the one the file's start chose, given with the header; `fit`: how the source
   * fits each row after the header to it, once the header is known (none: rows are as read).
   */
  constructor(sink: CsvSink, limits: CsvReaderLimits, delimiter: string, fit: FitRow | null = null) {
    this.#sink = sink;
    this.#limits = limits;
    this.#delimiter = delimiter;
    this.#fit = fit;
    this.#search = limits.layout === "raw" ? new RawHeaderSearch() : null;
  }

  /** True once a fatal problem ended reading. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** After the last record: an input without even a header is empty. */
  finish(): void {
    this.release();
    const mapped = this.#mapped;
    const short = this.#short;
    if (short) {
      this.#sink.finding("csv.row.short", {
        location: short.loc,
        row: short.row,
        params: {
          rows: plural(short.count, "row"),
          count: short.cells,
          expected: this.#width,
        },
      });
    }
    if (mapped) {
      this.#sink.mapped?.({
        name: mapped.mapping.name,
        title: mapped.mapping.title,
        how: this.#how,
        rowsExcluded: this.#excluded,
        columnsIgnored: [...mapped.ignored],
      });
    }
    if (this.#missing) {
      this.#sayMissing();
      return;
    }
    if (!this.#stopped && !this.#header && this.#sought) {
      // the file ended before the header a mapping names
      this.#noMappedHeader(this.#sought.mapping, this.#sought.loc);
      return;
    }
    if (!this.#stopped && !this.#header) {
      this.#stopped = true;
      this.#sink.finding("csv.empty", { location: { line: 1, column: 1, offset: 0 }, row: 0 });
    }
  }

  /** A raw record: the header, an empty line, a ragged row, or a row, numbered from the header (0). */
  record(cells: string[], loc: SourceLocation): void {
    this.numberedRecord(cells, loc, undefined);
  }

  /**
   * A raw record of a source that numbers its rows itself (a sheet's, as the spreadsheet shows
   * them): `row`; undefined numbers it as `record` does.
   */
  numberedRecord(cells: string[], loc: SourceLocation, row: number | undefined): void {
    if (this.#stopped) return;
    if (cells.length === 1 && (cells[0] as string).trim() === "") return; // an empty line
    if (this.#search) {
      this.#hold(cells, loc, row);
      return;
    }
    if (this.#missing) {
      this.#missing.look(cells);
      if (this.#missing.rows === LOOK_AHEAD) this.#sayMissing();
      return;
    }
    if (!this.#header) {
      this.#headerRow = row ?? 0;
      this.#numbered = row !== undefined;
      this.#readHeader(cells, loc);
      return;
    }
    this.#row = row ?? this.#row + 1;
    row = this.#row;
    if (this.#fit) cells = this.#fit(cells, row);
    const expected = this.#mapped ? this.#width : this.#header.keys.length;
    if (this.#mapped && cells.length < expected) cells = this.#padShort(cells, loc, row);
    // looked at to suggest a mapping (the raw layout): a short row is read as the mapping will read it
    else if (this.#limits.layout === "raw" && cells.length < expected) {
      cells = [...cells, ...new Array<string>(expected - cells.length).fill("")];
    }
    if (cells.length !== expected) {
      this.#sink.finding("csv.ragged", {
        location: loc,
        row,
        params: { count: cells.length, expected },
        // too few cells: the catalog's hint
        ...(cells.length > expected ? { hint: "a cell holding the delimiter must be in double quotes" } : {}),
      });
      return;
    }
    if (this.#mapped) {
      const at = row;
      const mapped = this.#mapped.row(cells, (problem: MappingProblem) =>
        this.#sink.finding(problem.code, {
          location: loc,
          row: at,
          field: problem.field,
          params: problem.params,
          ...(problem.hint ? { hint: problem.hint } : {}),
        }),
      );
      if (mapped === null) {
        this.#excluded++;
        return;
      }
      cells = mapped;
    }
    this.#sink.row({ row, loc, cells });
  }

  /**
   * A row of an export that leaves off its trailing empty cells (exports do): its missing cells
   * read as empty. Counted, to be said once at the end, at the first such row.
   */
  #padShort(cells: string[], loc: SourceLocation, row: number): string[] {
    this.#short ??= { loc, row, cells: cells.length, count: 0 };
    this.#short.count++;
    const padded = cells.slice();
    while (padded.length < this.#width) padded.push("");
    return padded;
  }

  /**
   * Reading ends, at its end or early (a parse failure, a sheet's cell too large, a damaged
   * workbook): the rows held while the raw layout's header was searched for are given on, the
   * first of them as the header; none is lost.
   */
  release(): void {
    const found = this.#search?.end() ?? null;
    this.#search = null;
    if (found && !this.#stopped) this.#readHeld(found);
  }

  /** What ended parsing, as a finding of the row being read. */
  failure(failure: ParseFailure): void {
    this.release();
    if (this.#missing) {
      this.#sayMissing(); // no column of the file can be read: that alone is said
      return;
    }
    if (this.#stopped) return;
    this.#stopped = true;
    const row = this.#header ? this.#row + 1 : this.#headerRow;
    const field = this.#header?.names[failure.cell];
    const withField = field ? { field } : {};
    if (failure.kind === "size") {
      this.#sink.finding("csv.record.size", {
        location: failure.opened,
        row,
        params: { limit: this.#limits.maxRecordBytes },
        ...withField,
      });
    } else if (failure.kind === "encoding") {
      this.#sink.finding("csv.encoding", {
        location: failure.at,
        row,
        params: { detail: `the file is not valid ${failure.encoding ?? "UTF-8"}: ${failure.reason}` },
        // text decoded from UTF-16 is damaged, not in another encoding
        ...(failure.encoding ? { hint: UNDECODABLE_HINT } : {}),
        ...withField,
      });
    } else {
      // a problem csv-parse names that is not listed: its own words, and the catalog's hint
      const problem = QUOTE_PROBLEMS[failure.code];
      this.#sink.finding("csv.quote", {
        location: failure.code === "CSV_QUOTE_NOT_CLOSED" ? failure.opened : failure.at,
        row,
        params: { detail: problem?.detail ?? failure.message },
        ...(problem ? { hint: problem.hint } : {}),
        ...withField,
      });
    }
  }

  /** The raw layout: a row held until the header is known, then the rows held given on. */
  #hold(cells: string[], loc: SourceLocation, row: number | undefined): void {
    const found = (this.#search as RawHeaderSearch).push({ cells, loc, row });
    if (found === null) return;
    this.#search = null;
    this.#readHeld(found);
  }

  /**
   * The raw layout's header, every column as it is named and none matched; then the rows held
   * after it, as if read now. The rows above it are a title: told with the header, not as rows.
   */
  #readHeld({ rows, header }: FoundHeader): void {
    const head = rows[header] as HeldRow;
    this.#headerRow = head.row ?? 0;
    this.#numbered = head.row !== undefined;
    const names = head.cells.map((c) => c.trim());
    this.#header = { keys: names.map(() => null), names, index: {}, delimiter: this.#delimiter };
    if (header > 0) {
      this.#header.below = {
        above: rows.slice(0, header).map((r) => r.cells),
        // counted as a mapping's headerRow counts: a sheet's number, a file's records
        row: head.row ?? header + 1,
        line: head.loc.line,
      };
    }
    this.#sink.header(this.#header);
    for (const held of rows.slice(header + 1)) this.numberedRecord(held.cells, held.loc, held.row);
  }

  #readHeader(cells: string[], loc: SourceLocation): void {
    const names = cells.map((c) => c.trim());
    const layout = this.#limits.layout ?? "detect";
    if (layout === "raw") throw new Error("the raw layout's header is found by its search"); // a bug
    const mapping: MappingDocument | null =
      layout === "none" ? null : layout === "detect" ? detected(names) : layout.mapping;
    if (mapping) {
      this.#how = typeof layout === "object" ? layout.given : "detected";
      this.#readMappedHeader(new Mapping(mapping), names, loc);
      return;
    }
    const matches = names.map(matchHeader);
    if (!matches.some((m) => m.key === "email")) {
      // without an email column nothing can be read: that alone is said, once the next rows
      // have shown which column holds the addresses (unless this row is data itself)
      this.#missing = new MissingEmail(names, loc, this.#headerRow);
      if (cells.some((c) => c.includes("@"))) this.#sayMissing(CSV_DATA_FIRST_HINT);
      return;
    }
    const keys: (ColumnKey | null)[] = [];
    const index: Partial<Record<ColumnKey, number>> = {};
    matches.forEach((match, i) => {
      const name = names[i] as string;
      if (match.key === null) {
        keys.push(null);
        this.#sink.finding("csv.header.unknown", {
          location: loc,
          row: this.#headerRow,
          field: name,
          params: { name: JSON.stringify(name) },
          ...(match.suggestion ? { hint: `did you mean "${match.suggestion}"?` } : {}),
        });
        return;
      }
      const same = match.key === "licenses" ? "licenseName" : match.key === "licenseName" ? "licenses" : null;
      const previous = index[match.key] ?? (same ? index[same] : undefined);
      if (previous !== undefined) {
        keys.push(null);
        this.#sink.finding("csv.header.duplicate", {
          location: loc,
          row: this.#headerRow,
          field: name,
          params: { name: JSON.stringify(name), other: JSON.stringify(names[previous] ?? "") },
        });
        return;
      }
      keys.push(match.key);
      index[match.key] = i;
    });
    const split = [index.firstName, index.lastName].filter((i) => i !== undefined);
    if (index.name !== undefined && split.length > 0) {
      // First name / Last name give the names; the whole name is not split on top of them
      const name = names[index.name] as string;
      this.#sink.finding("csv.header.name", {
        location: loc,
        row: this.#headerRow,
        field: name,
        params: {
          name: JSON.stringify(name),
          other: split.map((i) => JSON.stringify(names[i] ?? "")).join(" and "),
        },
      });
      keys[index.name] = null;
      delete index.name;
    }
    this.#header = { keys, names, index, delimiter: this.#delimiter };
    this.#sink.header(this.#header);
  }

  /**
   * The header of an export read through `mapping`: its rows come out in the mapped layout. A
   * mapping given whose email column this record lacks reads on to the header row it names, or
   * else to the first that has the column (within the first 50): the rows above are a preamble.
   * A detected profile's header is this record.
   */
  #readMappedHeader(mapping: Mapping, names: string[], loc: SourceLocation): void {
    const header = MappedHeader.bind(mapping, names, this.#limits.usersOnly === true);
    const wanted = mapping.document.headerRow;
    this.#seeking++;
    // headerRow counts a sheet's rows as the spreadsheet numbers them (what its admin sees, the
    // empty ones too), and a file's records without its empty lines
    const at = this.#numbered ? this.#headerRow : this.#seeking;
    // a detected profile's header is the first row (its detect names are there)
    const search = this.#how === "detected" ? 1 : HEADER_SEARCH;
    const early = wanted !== undefined ? at < wanted : header === null && this.#seeking < search;
    this.#sought ??= { mapping, loc };
    if (early) return; // not the header yet
    // past the row named (a sheet's empty row is never told): no header there
    if (header === null || (wanted !== undefined && at !== wanted)) {
      this.#noMappedHeader(mapping, this.#sought.loc);
      return;
    }
    this.#sought = null;
    this.#mapped = header;
    this.#width = names.length;
    if (!header.keys.includes("status")) {
      // the columns that may hold what the mapping does not read are named where they are
      const candidates = statusColumnsByName(names.filter((name) => name !== ""));
      const them = candidates.map((c) => JSON.stringify(c)).join(", ");
      this.#sink.finding("mapping.status.none", {
        location: loc,
        row: this.#headerRow,
        params: { mapping: mapping.name },
        ...(candidates.length > 0
          ? {
              hint: `${candidates.length === 1 ? "column" : "columns"} ${them} may hold the users' status: map it to status in a mapping of your own (syncfile mapping suggest FILE writes one)`,
            }
          : {}),
      });
    }
    if (this.#how === "file") {
      for (const absent of header.absent) {
        this.#sink.finding("mapping.column", {
          location: loc,
          row: this.#headerRow,
          params: {
            columns: absent.columns.map((c) => JSON.stringify(c)).join(" or "),
            field: absent.field,
          },
        });
      }
    }
    const keys = [...header.keys];
    const index: Partial<Record<ColumnKey, number>> = {};
    keys.forEach((key, i) => {
      index[key] = i;
    });
    this.#header = {
      keys,
      names: [...header.names],
      index,
      delimiter: this.#delimiter,
      sourceNames: names,
      oneRowPerUser: mapping.document.rowsPerUser !== "many",
    };
    this.#sink.header(this.#header);
  }

  /** mapping.header: no row where the mapping looks names its email column; reading ends. */
  #noMappedHeader(mapping: Mapping, loc: SourceLocation): void {
    this.#stopped = true;
    const wanted = mapping.document.headerRow;
    this.#sink.finding("mapping.header", {
      location: loc,
      row: this.#headerRow,
      params: {
        mapping: mapping.name,
        columns: mapping.email.map((c) => JSON.stringify(c)).join(" or "),
        where:
          wanted !== undefined
            ? `row ${wanted}`
            : this.#how === "detected"
              ? "the first row"
              : `the first ${HEADER_SEARCH} rows`,
      },
    });
  }

  /**
   * csv.header.missing, with `hint`, or else the one that fits what the rows showed (the
   * catalog's when they showed nothing); reading ends.
   */
  #sayMissing(hint?: string): void {
    const missing = this.#missing as MissingEmail;
    this.#missing = null;
    this.#stopped = true;
    const column = missing.emailColumn();
    if (hint === undefined && column !== null) {
      hint = `column ${JSON.stringify(column)} holds email addresses: name it email`;
    }
    this.#sink.finding("csv.header.missing", {
      location: missing.loc,
      row: missing.row,
      ...(hint ? { hint } : {}),
    });
  }
}

/**
 * The profile a header is, when one of its columns is not the service's: a header of the
 * service's own columns (in any spelling it reads) is read as its layout, whatever profile it
 * could also be, so that no column of it goes unread.
 */
function detected(names: readonly string[]): MappingDocument | null {
  return names.every((name) => name === "" || matchHeader(name).key !== null) ? null : detectProfile(names);
}

/** The hint of a file that is not valid in the encoding its byte-order mark names. */
const UNDECODABLE_HINT =
  "the file is damaged here: save it again from the spreadsheet (Unicode Text or CSV UTF-8), or correct the character";

/** How many rows after a header without an email column are searched for the addresses. */
const LOOK_AHEAD = 20;

/** Something shaped like an email address (what a human would take for one). */
const EMAIL_LIKE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The rows after a header that has no email column, tallied: which column holds the addresses. */
class MissingEmail {
  rows = 0;
  readonly #emails: number[];

  constructor(
    readonly names: readonly string[],
    readonly loc: SourceLocation,
    readonly row: number,
  ) {
    this.#emails = names.map(() => 0);
  }

  look(cells: readonly string[]): void {
    this.rows++;
    const columns = Math.min(cells.length, this.#emails.length);
    for (let i = 0; i < columns; i++) {
      if (EMAIL_LIKE.test((cells[i] as string).trim())) this.#emails[i] = (this.#emails[i] as number) + 1;
    }
  }

  /** The named column where most rows hold an address (the first of equals); null when none does. */
  emailColumn(): string | null {
    let best = -1;
    this.#emails.forEach((count, i) => {
      if (count > 0 && (best < 0 || count > (this.#emails[best] as number)) && this.names[i] !== "") best = i;
    });
    return best < 0 ? null : (this.names[best] as string);
  }
}

const QUOTE_PROBLEMS: Readonly<Record<string, { detail: string; hint: string }>> = {
  CSV_QUOTE_NOT_CLOSED: {
    detail: "a quoted cell is never closed",
    hint: 'the file may be truncated, or a quote inside a quoted cell is not doubled (write "" for ")',
  },
  INVALID_OPENING_QUOTE: {
    detail: "a quote appears inside a cell that does not start with one",
    hint: 'put the whole cell in quotes and double the quotes inside it: "say ""hi"""',
  },
  CSV_INVALID_CLOSING_QUOTE: {
    detail: "characters follow the closing quote of a cell",
    hint: 'double a quote that belongs to the text: "say ""hi"" again"',
  },
};
