// The push-based core of a conversion in one thread: bytes in, output bytes to a sink as the
// records come, report out (Validation with a writer). What a browser converts a file with: it
// writes, byte for byte, what `syncfile convert` writes into its file.

import type { BytesOut } from "../bytes/TextOut.js";
import { OnePass } from "../pass/OnePass.js";
import { normalizeValidateOptions } from "../pass/options.js";
import type { Report } from "../report/Report.js";
import { DocumentOutput } from "./DocumentOutput.js";
import { type ConvertOptions, outputFormat, priceConverter } from "./options.js";

/**
 * One conversion of one file: `push(bytes)` as they arrive, then `end()` for the report. The
 * output goes to `out` as it is written, whatever the input holds: whether to keep it is the
 * report's `output.written` (the input is valid, or `force`). Bad options throw a RangeError.
 */
export class Conversion {
  readonly #pass: OnePass;
  readonly #output: DocumentOutput;
  readonly #force: boolean;
  #report: Report | null = null;

  /** `options.to`: the output format; default the other one than the input's (JSON for CSV). */
  constructor(options: ConvertOptions, out: BytesOut) {
    const normalized = normalizeValidateOptions(options);
    const prices = priceConverter(options);
    this.#output = new DocumentOutput(
      outputFormat(options.to, null, normalized.format),
      out,
      options,
      prices,
    );
    const router = this.#output.router;
    this.#pass = new OnePass(normalized, (record) => router.record(record));
    this.#force = options.force === true;
  }

  /** True once a fatal problem ended reading: later bytes are not looked at. */
  get stopped(): boolean {
    return this.#pass.stopped;
  }

  /** Reads, checks and writes the next bytes of the file. */
  push(chunk: Uint8Array): void {
    this.#pass.push(chunk);
  }

  /** Ends the pass and the output; returns the report (the same report on every call). */
  end(): Report {
    if (!this.#report) {
      try {
        const report = this.#pass.end();
        this.#output.router.end();
        report.output = this.#output.describe(null, report.valid || this.#force);
        this.#report = report;
      } finally {
        this.dispose();
      }
    }
    return this.#report;
  }

  /** Releases temporary files of an abandoned conversion (end() does this itself). */
  dispose(): void {
    this.#pass.dispose();
    this.#output.router.dispose();
  }
}
