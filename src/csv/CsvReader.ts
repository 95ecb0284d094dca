// The CSV reader: the start of the file (byte-order mark, UTF-16 refused, the delimiter chosen
// from the header line), then raw records from a CsvParser, matched to the header: rows come
// out with their record number, line and offset; empty lines are skipped; ragged rows and
// what ended parsing become csv.* findings naming the row and column.

import { type Code, CSV_DATA_FIRST_HINT } from "../report/catalog.js";
import type { FindingDetails, SourceLocation } from "../report/Finding.js";
import { CsvParser, type CsvParserOptions, type ParseFailure, type RawRecordSink } from "./CsvParser.js";
import { type ColumnKey, matchHeader } from "./columns.js";

/** A data row as read: cells by column index. */
export interface CsvRow {
  /** Record number: the header is row 0. */
  row: number;
  /** Where the record starts (column 1 of its first line). */
  loc: SourceLocation;
  cells: string[];
}

/** The header: which column each cell index holds (null for unknown columns), and its text. */
export interface CsvHeader {
  keys: (ColumnKey | null)[];
  names: string[];
  /** Index of each known column. */
  index: Partial<Record<ColumnKey, number>>;
  delimiter: string;
}

/** Receives the header, each row and each finding, in order. */
export interface CsvSink {
  header(header: CsvHeader): void;
  row(row: CsvRow): void;
  finding(code: Code, details: FindingDetails): void;
}

/** Limits of the reader. */
export interface CsvReaderLimits {
  maxRecordBytes: number;
}

const BOM = [0xef, 0xbb, 0xbf];
/** How long to wait for the header's line break before deciding the delimiter anyway. */
const HEAD_LIMIT = 65536;

/**
 * Push-based CSV reader: `push(bytes)`, then `end()`. The raw records come from a CsvParser
 * it runs itself, or, when the parallel reader parses on other threads, from outside
 * (`begin`, then `record` and `failure` in file order, then `finish`).
 */
export class CsvReader implements RawRecordSink {
  readonly #sink: CsvSink;
  readonly #limits: CsvReaderLimits;
  #parser: CsvParser | null = null;
  #delimiter = ",";
  #recordDelimiter = "\n";
  #bomLength = 0;
  #header: CsvHeader | null = null;
  #stopped = false;
  #bytes = 0;
  #head: Buffer | null = null;
  #row = 0;

  constructor(sink: CsvSink, limits: CsvReaderLimits) {
    this.#sink = sink;
    this.#limits = limits;
  }

  /** Bytes pushed so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /** True once a fatal problem ended reading. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** The delimiter chosen from the header line. */
  get delimiter(): string {
    return this.#delimiter;
  }

  /** Reads the next bytes. The chunk may be reused by the caller afterwards. */
  push(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    if (this.#stopped) return;
    if (this.#parser) {
      this.#parser.push(chunk);
      return;
    }
    const body = this.begin(chunk, false);
    if (body === null) return;
    this.#parser = new CsvParser(this, this.parserOptions());
    this.#parser.push(body);
  }

  /** The end of the input. */
  end(): void {
    if (this.#stopped) return;
    if (!this.#parser) {
      const body = this.begin(new Uint8Array(0), true);
      if (body === null) return;
      this.#parser = new CsvParser(this, this.parserOptions());
      this.#parser.push(body);
    }
    this.#parser.end();
    this.finish();
  }

  /**
   * The start of the file, given in pieces: held until the header's line break (or the end),
   * then the byte-order mark is skipped, UTF-16 refused and the delimiter chosen. Returns the
   * bytes after the mark to parse from (offset `bomLength`), or null while waiting or stopped.
   */
  begin(chunk: Uint8Array, end: boolean): Buffer | null {
    const data: Buffer = this.#head ? Buffer.concat([this.#head, chunk]) : Buffer.from(chunk);
    this.#head = null;
    if (!end && data.indexOf(0x0a) === -1 && data.length < HEAD_LIMIT) {
      this.#head = data;
      return null;
    }
    let body = data;
    if (BOM.every((b, k) => data[k] === b)) {
      this.#bomLength = 3;
      body = data.subarray(3);
    } else if ((data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0xfe && data[1] === 0xff)) {
      this.#stopped = true;
      this.#sink.finding("csv.encoding", {
        location: { line: 1, column: 1, offset: 0 },
        row: 0,
        params: { detail: "the file is UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8" },
        hint: "save the file as UTF-8 (in a spreadsheet: CSV UTF-8); with iconv: iconv -f utf-16 -t utf-8 in.csv > out.csv",
      });
      return null;
    }
    const lf = body.indexOf(0x0a);
    const firstLine = body.subarray(0, Math.max(0, lf)).toString("utf8");
    this.#delimiter = guessDelimiter(firstLine.length > 0 ? firstLine : body.toString("utf8"));
    this.#recordDelimiter =
      lf > 0 && body[lf - 1] === 0x0d ? "\r\n" : lf === -1 && body.includes(0x0d) ? "\r" : "\n";
    return body;
  }

  /** Options for the CsvParser of this file, known once `begin` has returned its bytes. */
  parserOptions(): CsvParserOptions {
    return {
      delimiter: this.#delimiter,
      recordDelimiter: this.#recordDelimiter,
      maxRecordBytes: this.#limits.maxRecordBytes,
      offset: this.#bomLength,
    };
  }

  /** Counts bytes read by someone else (the parallel reader). */
  countBytes(n: number): void {
    this.#bytes += n;
  }

  /** After the last record: an input without even a header is empty. */
  finish(): void {
    if (!this.#stopped && !this.#header) {
      this.#stopped = true;
      this.#sink.finding("csv.empty", { location: { line: 1, column: 1, offset: 0 }, row: 0 });
    }
  }

  /** A raw record: the header, an empty line, a ragged row, or a row. */
  record(cells: string[], loc: SourceLocation): void {
    if (this.#stopped) return;
    if (cells.length === 1 && (cells[0] as string).trim() === "") return; // an empty line
    if (!this.#header) {
      this.#readHeader(cells, loc);
      return;
    }
    const row = ++this.#row;
    const expected = this.#header.keys.length;
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
    this.#sink.row({ row, loc, cells });
  }

  /** What ended parsing, as a finding of the row being read. */
  failure(failure: ParseFailure): void {
    if (this.#stopped) return;
    this.#stopped = true;
    const row = this.#header ? this.#row + 1 : 0;
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
        params: { detail: `the file is not valid UTF-8: ${failure.reason}` },
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

  #readHeader(cells: string[], loc: SourceLocation): void {
    const names = cells.map((c) => c.trim());
    const matches = names.map(matchHeader);
    if (!matches.some((m) => m.key === "email")) {
      // without an email column nothing can be read: say that alone
      this.#stopped = true;
      const looksLikeData = cells.some((c) => c.includes("@"));
      this.#sink.finding("csv.header.missing", {
        location: loc,
        row: 0,
        ...(looksLikeData ? { hint: CSV_DATA_FIRST_HINT } : {}),
      });
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
          row: 0,
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
          row: 0,
          field: name,
          params: { name: JSON.stringify(name), other: JSON.stringify(names[previous] ?? "") },
        });
        return;
      }
      keys.push(match.key);
      index[match.key] = i;
    });
    this.#header = { keys, names, index, delimiter: this.#delimiter };
    this.#sink.header(this.#header);
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

/** `,` unless the header line has more `;` or tabs (outside quotes) than commas. */
function guessDelimiter(line: string): string {
  const count = (c: string) => line.replace(/"[^"]*"/g, "").split(c).length - 1;
  const candidates = [",", ";", "\t"].map((c) => [c, count(c)] as const);
  const best = candidates.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ",";
}
