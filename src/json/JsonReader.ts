// The push-based core of the JSON reader: fed bytes, it decodes strict UTF-8 and drives the
// scanner; a RecordBuilder turns what the scanner captures into records, in the same thread.

import type { RecordSink } from "../model/RecordSink.js";
import { JsonDecoder } from "./JsonDecoder.js";
import { JsonScanner } from "./JsonScanner.js";
import { RecordBuilder } from "./RecordBuilder.js";
import type { ScanLimits } from "./ScanSink.js";

/** Limits of the reader (already normalised). */
export type JsonReaderLimits = ScanLimits;

/** Push-based JSON reader: `push(bytes)` as they arrive, then `end()`. */
export class JsonReader {
  readonly #decoder: JsonDecoder;
  readonly #builder: RecordBuilder;

  constructor(sink: RecordSink, limits: JsonReaderLimits) {
    let scanner: JsonScanner | null = null;
    this.#builder = new RecordBuilder(sink, () => scanner?.stop());
    scanner = new JsonScanner(this.#builder, limits);
    this.#decoder = new JsonDecoder(scanner, (code, details) => this.#builder.finding(code, details));
  }

  /** Bytes pushed so far. */
  get bytes(): number {
    return this.#decoder.bytes;
  }

  /** True once a fatal problem (syntax, encoding, depth) has ended reading: later input is ignored. */
  get stopped(): boolean {
    return this.#decoder.stopped || this.#builder.stopped;
  }

  /** Reads the next bytes of the file. */
  push(chunk: Uint8Array): void {
    this.#decoder.push(chunk);
  }

  /** The end of the file. */
  end(): void {
    this.#decoder.end();
  }
}
