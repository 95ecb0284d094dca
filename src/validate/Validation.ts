// The push-based core of a validation pass in one thread: bytes in, report out (the library's
// face of OnePass). What a browser validates a file with: nothing on its path needs Node.

import type { DataRecord } from "../model/DataRecord.js";
import { OnePass } from "../pass/OnePass.js";
import { normalizeValidateOptions, type ValidateOptions } from "../pass/options.js";
import type { Report } from "../report/Report.js";

/** One validation pass over one file: `push(bytes)` as they arrive, then `end()` for the report. */
export class Validation {
  readonly #pass: OnePass;

  /** `tap`: also receives each record, after the checks (what the converter writes). */
  constructor(options: ValidateOptions = {}, tap: ((record: DataRecord) => void) | null = null) {
    this.#pass = new OnePass(normalizeValidateOptions(options), tap);
  }

  /** True once a fatal problem ended reading: later bytes are not looked at. */
  get stopped(): boolean {
    return this.#pass.stopped;
  }

  /** Validates the next bytes of the file. */
  push(chunk: Uint8Array): void {
    this.#pass.push(chunk);
  }

  /** Ends the pass and returns its report (the same report on every call). */
  end(): Report {
    return this.#pass.end();
  }

  /** Releases temporary files of an abandoned pass (end() does this itself). */
  dispose(): void {
    this.#pass.dispose();
  }
}
