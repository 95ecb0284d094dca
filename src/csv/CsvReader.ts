// The CSV reader in one thread: the start of the file (CsvStart), a CsvParser for the rest, and
// its records matched to the header (CsvRows). The parallel pass puts the parser on a worker
// and joins the same two ends.

import type { Code } from "../report/catalog.js";
import type { FindingDetails, SourceLocation } from "../report/Finding.js";
import { CsvParser } from "./CsvParser.js";
import { CsvRows } from "./CsvRows.js";
import { CsvStart } from "./CsvStart.js";
import type { ColumnKey } from "./columns.js";

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

/** Push-based CSV reader: `push(bytes)`, then `end()`. */
export class CsvReader {
  readonly #sink: CsvSink;
  readonly #limits: CsvReaderLimits;
  readonly #start: CsvStart;
  #parser: CsvParser | null = null;
  #rows: CsvRows | null = null;
  #bytes = 0;

  constructor(sink: CsvSink, limits: CsvReaderLimits) {
    this.#sink = sink;
    this.#limits = limits;
    this.#start = new CsvStart((code, details) => sink.finding(code, details), limits.maxRecordBytes);
  }

  /** Bytes pushed so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /** True once a fatal problem ended reading. */
  get stopped(): boolean {
    return this.#start.stopped || (this.#rows?.stopped ?? false);
  }

  /** Reads the next bytes. The chunk may be reused by the caller afterwards. */
  push(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    if (this.stopped) return;
    if (this.#parser) this.#parser.push(chunk);
    else this.#begin(chunk, false);
  }

  /** The end of the input. */
  end(): void {
    if (this.stopped) return;
    if (!this.#parser) this.#begin(new Uint8Array(0), true);
    this.#parser?.end();
    this.#rows?.finish();
  }

  #begin(chunk: Uint8Array, end: boolean): void {
    const body = this.#start.push(chunk, end);
    if (body === null) return;
    this.#rows = new CsvRows(this.#sink, this.#limits, body.options.delimiter);
    this.#parser = new CsvParser(this.#rows, body.options);
    this.#parser.push(body.bytes);
  }
}
