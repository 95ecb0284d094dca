// A pass over a data file in the calling thread, push-based: the reader of its format (JSON or
// CSV) feeding the core. Validation and Conversion are its faces, and runPass (runPass.ts)
// runs it when no worker thread is asked for; nothing here needs Node (no files, no threads), so
// a browser build runs the same pass.

import { CsvRecordReader } from "../csv/CsvRecordReader.js";
import { JsonReader } from "../json/JsonReader.js";
import type { DataRecord } from "../model/DataRecord.js";
import type { Report } from "../report/Report.js";
import type { NormalizedValidateOptions } from "./options.js";
import { ValidationCore } from "./ValidationCore.js";

/**
 * A pass in this thread: the reader of the format feeding the core. `push(bytes)` as they
 * come, then `end()` for the report (the same on every call); `dispose()` releases the
 * temporary files of an abandoned pass.
 */
export class OnePass {
  readonly #options: NormalizedValidateOptions;
  readonly #core: ValidationCore;
  readonly #reader: JsonReader | CsvRecordReader;
  #report: Report | null = null;

  constructor(options: NormalizedValidateOptions, tap: ((record: DataRecord) => void) | null = null) {
    if (options.format === "xlsx") {
      throw new RangeError(
        "a workbook is read from a file or a stream as a whole: use validateFile or validateStream in Node, validateWorkbook or convertWorkbook in a browser",
      );
    }
    this.#options = options;
    this.#core = new ValidationCore(options, tap);
    this.#reader =
      options.format === "csv"
        ? new CsvRecordReader(this.#core.sink, options)
        : new JsonReader(this.#core.sink, options);
  }

  /** True once a fatal problem ended reading: later bytes are not looked at. */
  get stopped(): boolean {
    return this.#reader.stopped;
  }

  /** Reads and checks the next bytes (reused by the caller afterwards). */
  push(chunk: Uint8Array): void {
    this.#reader.push(chunk);
    this.#options.onProgress?.(this.#reader.bytes);
  }

  /** Ends the pass and returns its report. */
  end(): Report {
    if (!this.#report) {
      this.#reader.end();
      this.#report = this.#core.end(this.#reader.stopped, this.#reader.bytes);
    }
    return this.#report;
  }

  /** Releases temporary files of an abandoned pass (end() does this itself). */
  dispose(): void {
    this.#core.dispose();
    if (this.#reader instanceof CsvRecordReader) this.#reader.dispose();
  }
}
