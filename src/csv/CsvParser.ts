// Bytes to raw CSV records, strict UTF-8 first (a bad byte is a failure at its offset, never
// U+FFFD), each record placed by its starting byte offset and line (the line breaks before it,
// counted here). A fast path scans whole blocks for what well-formed CSV holds — line ends found
// with indexOf, a record without quotes decoded once and split at its delimiters, quoted cells
// read cell by cell — and at the first thing it does not expect (a stray quote, text after a
// closing quote, a record past the size limit, a bad byte, the end of the input inside a
// record) hands the rest of the input, from the start of that record, to csv-parse, which says
// exactly what is wrong (a differential test holds the two equal). csv-parse is driven directly
// (no `columns`, no `info`: each record arrives as a plain array; its byte counter places the
// records, its line counter is not used: it counts a CR LF inside quotes as two). The core is
// the `api` of csv-parse's Parser, the object its stream wrapper drives
// (test/dependencies.test.ts pins what is used of it). One parser reads a whole file as one
// continuing parse, from the first byte after the byte-order mark: in the calling thread, or
// in the parsing thread of a parallel pass (csvParallel).

import { Buffer, isUtf8 } from "../bytes/buffer.js";
import type { SourceLocation } from "../report/Finding.js";
import { findInvalidUtf8, incompleteTail } from "../text/utf8.js";
import { Parser } from "./_csvParse.js";

/** What ends parsing: an oversized record, broken quotes, or bytes that are not UTF-8. */
export type ParseFailure =
  | { kind: "size"; opened: SourceLocation; cell: number }
  | { kind: "quote"; code: string; message: string; at: SourceLocation; opened: SourceLocation; cell: number }
  | {
      kind: "encoding";
      reason: string;
      at: SourceLocation;
      cell: number;
      /** The encoding the text was decoded from before the parser, when that is what failed (UTF-8 otherwise). */
      encoding?: string;
    };

/** Receives raw records and, at most once, the failure that ends parsing. */
export interface RawRecordSink {
  /**
   * A record; `text`, when given, is the record's text whose split at the delimiter gave `cells`,
   * and `text` is `block.slice(at, at + text.length)`: the block is the text of the bytes scanned
   * at once, the same string for the records of one block.
   */
  record(cells: string[], loc: SourceLocation, text?: string, block?: string, at?: number): void;
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
  /** Scan with the fast path while the input is regular (default true); false: csv-parse throughout. */
  fast?: boolean;
}

const QUOTE = 0x22;
// what the scanner says of a record it could not read: more bytes needed, or csv-parse's turn
const INCOMPLETE = -1;
const IRREGULAR = -2;

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
  // the first line break at or after #counted in #breaks (-1: none), found by the last count
  #nextBreak = -1;
  #breaks: Buffer | null = null;
  /** The record delimiter is the line break itself. */
  readonly #breakEnds: boolean;
  #data: Buffer | null = null;
  // csv-parse's own line count where the current record started (it counts from 1)
  #recordInfoLine = 1;
  // where the next record starts
  #nextLine = 1;
  #nextOffset: number;
  readonly #push = (cells: string[]) => this.#record(cells);
  // the fast path: on while the input is regular; the bytes of an unfinished record; where
  // csv-parse took over (relative position of its first byte); the delimiter and record
  // delimiter as bytes; the cells of the record being scanned
  #fast: boolean;
  #carry: Buffer | null = null;
  #base = 0;
  readonly #delimiter: number;
  readonly #recordEnd: Buffer;
  #cells: string[] = [];
  // the text of the record scanned last when it had no quote (its cells are its split), else
  // null; the bytes being scanned as text (each decoded once), and where the next record starts in it
  #text: string | null = null;
  #block = "";
  #blockAt = 0;

  constructor(sink: RawRecordSink, options: CsvParserOptions) {
    this.#sink = sink;
    this.#options = options;
    this.#nextOffset = options.offset;
    this.#lineBreak = options.recordDelimiter === "\r" ? 0x0d : 0x0a;
    this.#breakEnds = options.recordDelimiter.length === 1;
    this.#delimiter = options.delimiter.length === 1 ? options.delimiter.charCodeAt(0) : -1;
    this.#recordEnd = Buffer.from(options.recordDelimiter);
    this.#fast =
      options.fast !== false &&
      this.#delimiter > 0 &&
      this.#delimiter < 0x80 &&
      this.#delimiter !== QUOTE &&
      ["\n", "\r\n", "\r"].includes(options.recordDelimiter);
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

  /**
   * Nothing after the bytes given can be read: the text they were decoded from (`encoding`,
   * e.g. UTF-16LE) is not valid there, for `reason`. A failure at the first byte not parsed,
   * as for bytes that are not UTF-8.
   */
  undecodable(encoding: string, reason: string): void {
    if (this.#failed) return;
    // an unfinished record goes to csv-parse, so that the failure counts its cells as it would
    if (this.#fast) this.#handOffCarry();
    if (!this.#failed) this.#encodingFailure(reason, encoding);
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
    this.#take(data);
  }

  /** The end of the input: the last record, or the failure of an unfinished one. */
  end(): void {
    if (this.#failed) return;
    // the last record, unended: csv-parse reads it (and says what is wrong with it, if anything)
    if (this.#fast) this.#handOffCarry();
    if (this.#failed) return;
    if (this.#pending) {
      const reason = findInvalidUtf8(this.#pending)?.reason ?? "the file ends inside a character";
      this.#encodingFailure(reason);
      return;
    }
    const error = this.#api.parse(undefined, true, this.#push, () => {});
    if (error) this.#parseFailure(error as Error & { code: string });
  }

  /** New bytes, checked to be UTF-8 first (a bad byte ends parsing at its offset), to the fast path or to csv-parse. */
  #take(data: Buffer): void {
    if (data.length > 0 && !isUtf8(data)) {
      const bad = findInvalidUtf8(data);
      const at = bad?.index ?? 0;
      // read what comes before the bad byte, so that its position is known
      if (at > 0) this.#take(data.subarray(0, at));
      // an unfinished record goes to csv-parse, so that the failure counts its cells as it would
      if (!this.#failed && this.#fast) this.#handOffCarry();
      if (!this.#failed) this.#encodingFailure(bad?.reason ?? "invalid UTF-8");
      return;
    }
    if (data.length === 0) return;
    this.#parsed += data.length;
    if (!this.#fast) {
      this.#feed(data);
      return;
    }
    const carry = this.#carry;
    this.#carry = null;
    this.#scan(carry ? Buffer.concat([carry, data]) : data);
  }

  /** Gives csv-parse `data`, the bytes that end at relative position #parsed. */
  #feed(data: Buffer): void {
    this.#data = data;
    const error = this.#api.parse(data, false, this.#push, () => {});
    if (error) this.#parseFailure(error as Error & { code: string });
    else this.#linesBefore(this.#parsed); // count the rest now: the next bytes come in another buffer
  }

  /** Scans the records of `data` (the bytes that end at #parsed) while they are regular. */
  #scan(data: Buffer): void {
    this.#data = data;
    // a record is a record delimiter's byte, ASCII, so the nth in the bytes is the nth in the text
    this.#block = data.toString("utf8");
    this.#blockAt = 0;
    const start = this.#parsed - data.length;
    let p = 0;
    let quote = data.indexOf(QUOTE);
    while (p < data.length) {
      if (quote !== -1 && quote < p) quote = data.indexOf(QUOTE, p);
      const end = this.#scanRecord(data, p, quote);
      // a record that ends with the bytes waits for the next ones, as csv-parse's does (so that
      // a bad byte right after it reads the same)
      if (end === INCOMPLETE || end === data.length) break;
      if (end === IRREGULAR || end - p > this.#options.maxRecordBytes) {
        this.#handOff(data, p);
        return;
      }
      this.#emit(this.#cells, start + end, data, p);
      p = end;
    }
    if (p < data.length) {
      if (data.length - p > this.#options.maxRecordBytes) {
        this.#handOff(data, p);
        return;
      }
      this.#carry = Buffer.from(data.subarray(p)); // a copy: the caller may reuse its chunk
    }
    this.#linesBefore(this.#parsed);
  }

  /**
   * Reads the record at `p` into #cells; resolves to the position after its record delimiter,
   * INCOMPLETE when `data` ends inside it, or IRREGULAR. `quote` is the first quote at or after `p`.
   */
  #scanRecord(data: Buffer, p: number, quote: number): number {
    const recordEnd = this.#recordEnd;
    // a record ends at a line break ("\n" or "\r"): the one the last count found, when it counted up to here
    let end =
      this.#breakEnds && this.#breaks === data && this.#counted === this.#parsed - data.length + p
        ? this.#nextBreak
        : data.indexOf(recordEnd, p);
    if (quote === -1 || (end !== -1 && quote > end)) {
      // no quote in the record: one decode, one split
      if (end === -1) return INCOMPLETE;
      const at = this.#blockAt;
      const textEnd = this.#block.indexOf(this.#options.recordDelimiter, at);
      const text = this.#block.slice(at, textEnd);
      this.#text = text;
      this.#cells = text.split(this.#options.delimiter);
      return end + recordEnd.length;
    }
    // quotes: cell by cell
    this.#text = null;
    const cells: string[] = [];
    this.#cells = cells;
    const delimiter = this.#delimiter;
    let at = p;
    for (;;) {
      if (at < data.length && data[at] === QUOTE) {
        let q = at + 1;
        let close: number;
        for (;;) {
          close = data.indexOf(QUOTE, q);
          if (close === -1 || close + 1 >= data.length) return INCOMPLETE;
          if (data[close + 1] !== QUOTE) break;
          q = close + 2; // "" inside a quoted cell: one quote
        }
        const text = data.toString("utf8", at + 1, close);
        cells.push(text.includes('"') ? text.replaceAll('""', '"') : text);
        const after = close + 1;
        if (data[after] === delimiter) {
          at = after + 1;
          continue;
        }
        if (after + recordEnd.length > data.length) return INCOMPLETE;
        return data.compare(recordEnd, 0, recordEnd.length, after, after + recordEnd.length) === 0
          ? after + recordEnd.length
          : IRREGULAR;
      }
      // an unquoted cell: up to the next delimiter or the record's end, with no quote in it
      if (end !== -1 && end < at) end = data.indexOf(recordEnd, at); // that one was inside quotes
      const cellEnd = data.indexOf(delimiter, at);
      const last = cellEnd === -1 || (end !== -1 && end < cellEnd);
      if (last && end === -1) return INCOMPLETE;
      const stop = last ? end : cellEnd;
      const quoteIn = data.indexOf(QUOTE, at);
      if (quoteIn !== -1 && quoteIn < stop) return IRREGULAR;
      cells.push(data.toString("utf8", at, stop));
      if (last) return end + recordEnd.length;
      at = cellEnd + 1;
    }
  }

  /**
   * A record read by the fast path, which ends (its record delimiter included) at relative
   * position `end`, and starts at `from` in `data`, the bytes scanned.
   */
  #emit(cells: string[], end: number, data: Buffer, from: number): void {
    const loc = { line: this.#nextLine, column: 1, offset: this.#nextOffset };
    const at = this.#blockAt;
    const bytes = end - (this.#nextOffset - this.#options.offset);
    this.#nextLine = 1 + this.#linesBefore(end);
    this.#nextOffset = this.#options.offset + end;
    if (this.#text === null) {
      // a record with quotes: its length as text, to find the next one's start in the block
      this.#blockAt += charsIn(data, from, bytes);
      this.#sink.record(cells, loc);
    } else {
      this.#blockAt += this.#text.length + this.#options.recordDelimiter.length;
      this.#sink.record(cells, loc, this.#text, this.#block, at);
    }
  }

  /** csv-parse reads on from the record at `p` of `data` (the bytes that end at #parsed), to the end of the input. */
  #handOff(data: Buffer, p: number): void {
    this.#fast = false;
    this.#carry = null;
    this.#base = this.#parsed - data.length + p;
    if (p < data.length) this.#feed(Buffer.from(data.subarray(p)));
  }

  /** csv-parse reads on from the unfinished record (the bytes before #parsed that no record took). */
  #handOffCarry(): void {
    this.#handOff(this.#carry ?? Buffer.alloc(0), 0);
  }

  /** The line breaks before relative byte position `position` (at or after the last one asked, within the bytes parsed). */
  #linesBefore(position: number): number {
    const data = this.#data;
    if (position > this.#counted && data) {
      const start = this.#parsed - data.length;
      const end = position - start;
      // each record's count would otherwise search again for the break the last one found
      let i = this.#breaks === data ? this.#nextBreak : data.indexOf(this.#lineBreak, this.#counted - start);
      while (i !== -1 && i < end) {
        this.#lines++;
        i = data.indexOf(this.#lineBreak, i + 1);
      }
      this.#nextBreak = i;
      this.#breaks = data;
      this.#counted = position;
    }
    return this.#lines;
  }

  #record(cells: string[]): void {
    if (this.#failed) return;
    const api = this.#api;
    const loc = { line: this.#nextLine, column: 1, offset: this.#nextOffset };
    // the next record starts after this one's record delimiter
    this.#nextLine = 1 + this.#linesBefore(this.#base + api.info.bytes);
    this.#nextOffset = this.#options.offset + this.#base + api.info.bytes;
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
      offset: this.#options.offset + this.#base + api.info.bytes,
    };
    // csv-parse's "at line N" counts from where it took over (and CR LF in quotes twice): our place is `at`
    const message = error.message.replace(/ at line \d+/g, "");
    this.#sink.failure({ kind: "quote", code: error.code, message, at, opened, cell });
  }

  /** A failure at the first byte not yet parsed: its line is the one it is on. */
  #encodingFailure(reason: string, encoding?: string): void {
    this.#failed = true;
    const at = {
      line: 1 + this.#linesBefore(this.#parsed),
      column: 1,
      offset: this.#options.offset + this.#parsed,
    };
    const cell = this.#api.state.record.length;
    this.#sink.failure({ kind: "encoding", reason, at, cell, ...(encoding ? { encoding } : {}) });
  }
}

/** How many UTF-16 units the `length` UTF-8 bytes of `data` from `from` decode to. */
function charsIn(data: Buffer, from: number, length: number): number {
  let units = 0;
  for (let i = from; i < from + length; i++) {
    const byte = data[i] as number;
    if ((byte & 0xc0) !== 0x80) units += byte >= 0xf0 ? 2 : 1;
  }
  return units;
}
