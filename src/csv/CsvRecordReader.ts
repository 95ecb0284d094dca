// The CSV counterpart of JsonReader: fed bytes, yields the records rows assemble into.

import type { RecordSink } from "../model/RecordSink.js";
import { CsvAssembler } from "./CsvAssembler.js";
import { CsvReader } from "./CsvReader.js";
import type { CsvReaderLimits } from "./CsvSink.js";

/** Push-based CSV record reader: `push(bytes)`, then `end()`. */
export class CsvRecordReader {
  readonly #assembler: CsvAssembler;
  readonly #reader: CsvReader;

  constructor(sink: RecordSink, limits: CsvReaderLimits) {
    this.#assembler = new CsvAssembler(sink);
    this.#reader = new CsvReader(this.#assembler, limits);
  }

  get bytes(): number {
    return this.#reader.bytes;
  }

  get stopped(): boolean {
    return this.#reader.stopped;
  }

  push(chunk: Uint8Array): void {
    this.#reader.push(chunk);
  }

  end(): void {
    this.#reader.end();
    this.#assembler.end(this.#reader.stopped);
  }

  /** Releases temporary files of an abandoned read. */
  dispose(): void {
    this.#assembler.dispose();
  }
}
