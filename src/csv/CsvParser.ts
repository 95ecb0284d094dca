// Bytes to raw CSV records, on csv-parse's core: strict UTF-8 first (a bad byte is a failure
// at its offset, never U+FFFD), then csv-parse driven directly (no `columns`, no `info`:
// each record arrives as a plain array), each record placed by its starting byte offset
// (csv-parse's own counter) and line (the line breaks before it, counted here: csv-parse
// counts a CR LF inside quotes as two). The core is the `api` of csv-parse's Parser, the
// object its stream wrapper drives (test/dependencies.test.ts pins what is used of it). One
// parser reads a whole file as one continuing parse, from the first byte after the byte-order
// mark: in the calling thread, or in the parsing thread of a parallel pass (readCsvParallel).

import { isUtf8 } from "node:buffer";
import { Parser } from "csv-parse";
import { findInvalidUtf8, incompleteTail } from "../_internal/utf8.js";
import type { SourceLocation } from "../report/Finding.js";

/** What ends parsing: an oversized record, broken quotes, or bytes that are not UTF-8. */
export type ParseFailure =
  | { kind: "size"; opened: SourceLocation; cell: number }
  | { kind: "quote"; code: string; message: string; at: SourceLocation; opened: SourceLocation; cell: number }
  | { kind: "encoding"; reason: string; at: SourceLocation; cell: number };

/** Receives raw records and, at most once, the failure that ends parsing. */
export interface RawRecordSink {
  record(cells: string[], loc: SourceLocation): void;
  failure(failure: ParseFailure): void;
}

/** How to parse, and where the first byte given is in the file (on line 1). */
export interface CsvParserOptions {
  delimiter: string;
  /** What ends a record: "\n", "\r\n" or "\r" (the header line's line break). */
  recordDelimiter: string;
  maxRecordBytes: number;
  /** Byte offset of the first byte in the file: the length of the byte-order mark. */
  offset: number;
}

interface CsvParseApi {
  info: { lines: number; bytes: number };
  state: { record: string[] };
  parse(
    buf: Buffer | undefined,
    end: boolean,
    push: (record: string[]) => void,
    close: () => void,
  ): Error | undefined;
}

/** Push-based: `push(bytes)` as they come (cut anywhere), then `end()`. */
export class CsvParser {
  readonly #sink: RawRecordSink;
  readonly #options: CsvParserOptions;
  readonly #api: CsvParseApi;
  #failed = false;
  // bytes given to csv-parse so far, and an incomplete character held back
  #parsed = 0;
  #pending: Buffer | null = null;
  // line breaks counted in the bytes before #counted (both relative to the first byte), and
  // the bytes being parsed, which start at #parsed - #data.length
  readonly #lineBreak: number;
  #counted = 0;
  #lines = 0;
  #data: Buffer | null = null;
  // csv-parse's own line count where the current record started (it counts from 1)
  #recordInfoLine = 1;
  // where the next record starts
  #nextLine = 1;
  #nextOffset: number;
  readonly #push = (cells: string[]) => this.#record(cells);

  constructor(sink: RawRecordSink, options: CsvParserOptions) {
    this.#sink = sink;
    this.#options = options;
    this.#nextOffset = options.offset;
    this.#lineBreak = options.recordDelimiter === "\r" ? 0x0d : 0x0a;
    const parser = new Parser({
      delimiter: options.delimiter,
      record_delimiter: options.recordDelimiter,
      relax_column_count: true,
      skip_empty_lines: false,
      max_record_size: options.maxRecordBytes,
    }) as unknown as { api?: CsvParseApi };
    if (typeof parser.api?.parse !== "function")
      throw new Error("csv-parse no longer exposes its core as Parser#api");
    this.#api = parser.api;
  }

  /** True once a failure ended parsing. */
  get failed(): boolean {
    return this.#failed;
  }

  /** Parses the next bytes. The chunk may be reused by the caller afterwards. */
  push(chunk: Uint8Array): void {
    if (this.#failed || chunk.length === 0) return;
    let data = this.#pending ? Buffer.concat([this.#pending, chunk]) : Buffer.from(chunk);
    this.#pending = null;
    const tail = incompleteTail(data);
    if (tail > 0) {
      this.#pending = Buffer.from(data.subarray(data.length - tail));
      data = data.subarray(0, data.length - tail);
    }
    this.#parse(data);
  }

  /** The end of the input: the last record, or the failure of an unfinished one. */
  end(): void {
    if (this.#failed) return;
    if (this.#pending) {
      const reason = findInvalidUtf8(this.#pending)?.reason ?? "the file ends inside a character";
      this.#encodingFailure(reason);
      return;
    }
    const error = this.#api.parse(undefined, true, this.#push, () => {});
    if (error) this.#parseFailure(error as Error & { code: string });
  }

  #parse(data: Buffer): void {
    if (data.length > 0 && !isUtf8(data)) {
      const bad = findInvalidUtf8(data);
      const at = bad?.index ?? 0;
      // parse what comes before the bad byte, so that its position is known
      if (at > 0) this.#parse(data.subarray(0, at));
      if (!this.#failed) this.#encodingFailure(bad?.reason ?? "invalid UTF-8");
      return;
    }
    if (data.length === 0) return;
    this.#parsed += data.length;
    this.#data = data;
    const error = this.#api.parse(data, false, this.#push, () => {});
    if (error) this.#parseFailure(error as Error & { code: string });
    else this.#linesBefore(this.#parsed); // count the rest now: the next bytes come in another buffer
  }

  /** The line breaks before relative byte position `position` (at or after the last one asked, within the bytes parsed). */
  #linesBefore(position: number): number {
    const data = this.#data;
    if (position > this.#counted && data) {
      const start = this.#parsed - data.length;
      const end = position - start;
      let i = data.indexOf(this.#lineBreak, this.#counted - start);
      while (i !== -1 && i < end) {
        this.#lines++;
        i = data.indexOf(this.#lineBreak, i + 1);
      }
      this.#counted = position;
    }
    return this.#lines;
  }

  #record(cells: string[]): void {
    if (this.#failed) return;
    const api = this.#api;
    const loc = { line: this.#nextLine, column: 1, offset: this.#nextOffset };
    // the next record starts after this one's record delimiter
    this.#nextLine = 1 + this.#linesBefore(api.info.bytes);
    this.#nextOffset = this.#options.offset + api.info.bytes;
    this.#recordInfoLine = api.info.lines + 1; // csv-parse counts the record delimiter after this call
    this.#sink.record(cells, loc);
  }

  #parseFailure(error: Error & { code: string }): void {
    const api = this.#api;
    this.#failed = true;
    const cell = api.state.record.length;
    const opened = { line: this.#nextLine, column: 1, offset: this.#nextOffset };
    if (error.code === "CSV_MAX_RECORD_SIZE") {
      this.#sink.failure({ kind: "size", opened, cell });
      return;
    }
    // csv-parse does not say where in the record it failed, only on which of its lines
    const at = {
      line: this.#nextLine + api.info.lines - this.#recordInfoLine,
      column: 1,
      offset: this.#options.offset + api.info.bytes,
    };
    this.#sink.failure({ kind: "quote", code: error.code, message: error.message, at, opened, cell });
  }

  /** A failure at the first byte not yet parsed: its line is the one it is on. */
  #encodingFailure(reason: string): void {
    this.#failed = true;
    const at = {
      line: 1 + this.#linesBefore(this.#parsed),
      column: 1,
      offset: this.#options.offset + this.#parsed,
    };
    this.#sink.failure({ kind: "encoding", reason, at, cell: this.#api.state.record.length });
  }
}
