// The CSV reader in one thread: the start of the file (CsvStart), a CsvParser for the rest, and
// its records matched to the header (CsvRows). The parallel pass puts the parser on a worker
// and joins the same two ends.

import { CsvParser } from "./CsvParser.js";
import { CsvRows } from "./CsvRows.js";
import type { CsvReaderLimits, CsvSink } from "./CsvSink.js";
import { CsvStart } from "./CsvStart.js";

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
