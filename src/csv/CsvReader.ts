// The CSV reader in one thread: the start of the file (CsvStart), a CsvParser for the rest, and
// its records matched to the header (CsvRows). The parallel pass puts the parser on a worker
// and joins the same two ends.

import type { Utf16Decoder } from "../text/Utf16Decoder.js";
import { CsvParser } from "./CsvParser.js";
import { CsvRows } from "./CsvRows.js";
import type { CsvReaderLimits, CsvSink } from "./CsvSink.js";
import { CsvStart, textOf } from "./CsvStart.js";

/** Push-based CSV reader: `push(bytes)`, then `end()`. */
export class CsvReader {
  readonly #sink: CsvSink;
  readonly #limits: CsvReaderLimits;
  readonly #start: CsvStart;
  #parser: CsvParser | null = null;
  #rows: CsvRows | null = null;
  /** A UTF-16 file's decoder: the parser is given its UTF-8. */
  #decoder: Utf16Decoder | null = null;
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
    if (this.#parser) this.#parse(this.#parser, this.#decoder ? this.#decoder.push(chunk) : chunk);
    else this.#begin(chunk, false);
  }

  /** The end of the input. */
  end(): void {
    if (this.stopped) return;
    if (!this.#parser) this.#begin(new Uint8Array(0), true);
    else if (this.#decoder) this.#parse(this.#parser, this.#decoder.end());
    this.#parser?.end();
    this.#rows?.finish();
  }

  #begin(chunk: Uint8Array, end: boolean): void {
    const body = this.#start.push(chunk, end);
    if (body === null) return;
    const text = textOf(body);
    if (text) this.#sink.text?.(text);
    this.#decoder = body.decoder;
    this.#rows = new CsvRows(this.#sink, this.#limits, body.options.delimiter);
    this.#parser = new CsvParser(this.#rows, body.options);
    this.#parse(this.#parser, body.bytes);
  }

  /** Parses `utf8`; where a UTF-16 file stops being UTF-16, parsing fails there. */
  #parse(parser: CsvParser, utf8: Uint8Array): void {
    parser.push(utf8);
    const failure = this.#decoder?.failure;
    if (this.#decoder && failure) parser.undecodable(this.#decoder.encoding, failure);
  }
}
