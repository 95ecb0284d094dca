// The push-based core of a validation pass in one thread: bytes in, report out.

import { CsvRecordReader } from "../csv/CsvRecordReader.js";
import type { JsonReader } from "../json/JsonReader.js";
import type { DataRecord } from "../model/DataRecord.js";
import type { Report } from "../report/Report.js";
import { normalizeValidateOptions, type ValidateOptions } from "./options.js";
import { createReader } from "./pass.js";
import { ValidationCore } from "./ValidationCore.js";

/** One validation pass over one file: `push(bytes)` as they arrive, then `end()` for the report. */
export class Validation {
  readonly #options: ReturnType<typeof normalizeValidateOptions>;
  readonly #core: ValidationCore;
  readonly #reader: JsonReader | CsvRecordReader;
  #report: Report | null = null;

  /** `tap`: also receives each record, after the checks (what the converter writes). */
  constructor(options: ValidateOptions = {}, tap: ((record: DataRecord) => void) | null = null) {
    this.#options = normalizeValidateOptions(options);
    this.#core = new ValidationCore(this.#options, tap);
    this.#reader = createReader(this.#core, this.#options);
  }

  /** True once a fatal problem ended reading: later bytes are not looked at. */
  get stopped(): boolean {
    return this.#reader.stopped;
  }

  /** Validates the next bytes of the file. */
  push(chunk: Uint8Array): void {
    this.#reader.push(chunk);
    this.#options.onProgress?.(this.#reader.bytes);
  }

  /** Ends the pass and returns its report (the same report on every call). */
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
