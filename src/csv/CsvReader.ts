// The push-based core of the CSV reader: fed bytes, it checks them as strict UTF-8 and drives
// csv-parse's core (no `columns`, no `info`: each record arrives as a plain array), keeping
// each record's starting line and byte offset from csv-parse's own state. The core is the
// `api` of csv-parse's Parser, the object its stream wrapper drives. The header row is matched
// to columns; rows come out with their record number, line and offset.

import { isUtf8 } from "node:buffer";
import { Parser } from "csv-parse";
import { findInvalidUtf8, incompleteTail } from "../json/_utf8.js";
import type { Code } from "../report/catalog.js";
import type { SourceLocation } from "../report/Finding.js";
import type { FindingDetails } from "../report/ReportCollector.js";
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

interface CsvParseApi {
  info: { lines: number; bytes: number; records: number };
  state: { record: string[] };
  parse(
    buf: Buffer | undefined,
    end: boolean,
    push: (record: string[]) => void,
    close: () => void,
  ): Error | undefined;
}

interface CsvParseError extends Error {
  code: string;
}

const BOM = [0xef, 0xbb, 0xbf];

/** Push-based CSV reader: `push(bytes)`, then `end()`. */
export class CsvReader {
  readonly #sink: CsvSink;
  readonly #limits: CsvReaderLimits;
  #api: CsvParseApi | null = null;
  #delimiter = ",";
  #header: CsvHeader | null = null;
  #stopped = false;
  #bytes = 0;
  #pending: Buffer | null = null;
  #bomLength = 0;
  // where the next record starts
  #nextLine = 1;
  #nextOffset = 0;
  #row = 0;
  readonly #push = (record: string[]) => this.#record(record);

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

  /** Reads the next bytes. The chunk may be reused by the caller afterwards. */
  push(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    if (this.#stopped) return;
    let data: Buffer = this.#pending ? Buffer.concat([this.#pending, chunk]) : Buffer.from(chunk);
    this.#pending = null;
    if (!this.#api) {
      // the header decides the delimiter: wait for its first line (or the end)
      if (data.indexOf(0x0a) === -1 && data.length < 65536) {
        this.#pending = data;
        return;
      }
      data = this.#start(data);
      if (this.#stopped) return;
    }
    const tail = incompleteTail(data);
    if (tail > 0) {
      this.#pending = Buffer.from(data.subarray(data.length - tail));
      data = data.subarray(0, data.length - tail);
    }
    this.#parse(data, false);
  }

  /** The end of the input. */
  end(): void {
    if (this.#stopped) return;
    if (!this.#api) {
      const rest = this.#pending ?? Buffer.alloc(0);
      this.#pending = null;
      const data = this.#start(rest);
      if (this.#stopped) return;
      this.#parse(data, false);
    } else if (this.#pending) {
      const reason = findInvalidUtf8(this.#pending)?.reason ?? "the file ends inside a character";
      this.#encodingError(this.#pending.length, reason);
      return;
    }
    if (!this.#stopped) this.#parse(undefined, true);
    if (!this.#stopped && !this.#header) {
      this.#stopped = true;
      this.#sink.finding("csv.empty", { location: { line: 1, column: 1, offset: 0 }, row: 0 });
    }
  }

  /** Skips a byte-order mark, refuses UTF-16, picks the delimiter, creates the parser. */
  #start(data: Buffer): Buffer {
    let body = data;
    if (BOM.every((b, k) => data[k] === b)) {
      this.#bomLength = 3;
      this.#nextOffset = 3;
      body = data.subarray(3);
    } else if ((data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0xfe && data[1] === 0xff)) {
      this.#stopped = true;
      this.#sink.finding("csv.encoding", {
        location: { line: 1, column: 1, offset: 0 },
        row: 0,
        params: { detail: "the file is UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8" },
        hint: "save the file as UTF-8 (in a spreadsheet: CSV UTF-8); with iconv: iconv -f utf-16 -t utf-8 in.csv > out.csv",
      });
      return body;
    }
    const firstLine = body.subarray(0, Math.max(0, body.indexOf(0x0a))).toString("utf8");
    this.#delimiter = guessDelimiter(firstLine.length > 0 ? firstLine : body.toString("utf8"));
    const parser = new Parser({
      delimiter: this.#delimiter,
      relax_column_count: true,
      skip_empty_lines: false,
      max_record_size: this.#limits.maxRecordBytes,
    }) as unknown as { api?: CsvParseApi };
    if (typeof parser.api?.parse !== "function")
      throw new Error("csv-parse no longer exposes its core as Parser#api");
    this.#api = parser.api;
    return body;
  }

  #parse(data: Buffer | undefined, end: boolean): void {
    const api = this.#api as CsvParseApi;
    if (data && data.length > 0 && !isUtf8(data)) {
      const bad = findInvalidUtf8(data);
      const at = bad?.index ?? 0;
      // read what comes before the bad byte, so that the position is known
      if (at > 0) this.#parse(data.subarray(0, at), false);
      if (!this.#stopped) this.#encodingError(data.length - at, bad?.reason ?? "invalid UTF-8");
      return;
    }
    if (data?.length === 0 && !end) return;
    const error = api.parse(data, end, this.#push, () => {});
    if (error) this.#parseError(error as CsvParseError);
  }

  #record(cells: string[]): void {
    if (this.#stopped) return;
    const api = this.#api as CsvParseApi;
    const loc = { line: this.#nextLine, column: 1, offset: this.#nextOffset + this.#bomLength };
    // the record ends on api.info.lines; the next one starts on the line after
    this.#nextLine = api.info.lines + 1;
    this.#nextOffset = api.info.bytes;
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
        hint:
          cells.length > expected
            ? "a cell holding the delimiter must be in double quotes"
            : "every row needs a cell for each header column, empty or not",
      });
      return;
    }
    this.#sink.row({ row, loc, cells });
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
        ...(looksLikeData
          ? { hint: `the first row looks like data: add a header row, e.g. ${CANONICAL_HINT}` }
          : {}),
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

  #parseError(error: CsvParseError): void {
    const api = this.#api as CsvParseApi;
    const row = this.#header ? this.#row + 1 : 0;
    const field = this.#header?.names[api.state.record.length];
    const at = { line: api.info.lines, column: 1, offset: api.info.bytes };
    const opened = { line: this.#nextLine, column: 1, offset: this.#nextOffset + this.#bomLength };
    this.#stopped = true;
    if (error.code === "CSV_MAX_RECORD_SIZE") {
      this.#sink.finding("csv.record.size", {
        location: opened,
        row,
        params: { limit: this.#limits.maxRecordBytes },
        ...(field ? { field } : {}),
      });
      return;
    }
    const details = QUOTE_PROBLEMS[error.code] ?? {
      detail: error.message,
      hint: "check the quotes of this row",
    };
    this.#sink.finding("csv.quote", {
      location: error.code === "CSV_QUOTE_NOT_CLOSED" ? opened : at,
      row,
      params: { detail: details.detail },
      hint: details.hint,
      ...(field ? { field } : {}),
    });
  }

  #encodingError(restLength: number, reason: string): void {
    const api = this.#api as CsvParseApi;
    this.#stopped = true;
    const offset = this.#bytes - restLength - (this.#pending?.length ?? 0);
    const field = this.#header?.names[api.state.record.length];
    this.#sink.finding("csv.encoding", {
      location: { line: api.info.lines, column: 1, offset },
      row: this.#header ? this.#row + 1 : 0,
      params: { detail: `the file is not valid UTF-8: ${reason}` },
      ...(field ? { field } : {}),
    });
  }
}

const CANONICAL_HINT = "email,firstName,lastName,status,licenseName";

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
