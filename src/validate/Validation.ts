// The push-based core of a validation pass: bytes in, report out. Every adapter
// (path, Node stream, web stream) and the server feed this.

import type { Check, CheckContext, FindingSpec } from "../checks/Check.js";
import { defaultChecks } from "../checks/defaultChecks.js";
import { JsonReader, type RecordSink } from "../json/JsonReader.js";
import type { DataRecord } from "../model/DataRecord.js";
import type { Report } from "../report/Report.js";
import { type FindingDetails, ReportCollector } from "../report/ReportCollector.js";
import { type NormalizedValidateOptions, normalizeValidateOptions, type ValidateOptions } from "./options.js";

/** One validation pass over one file: `push(bytes)` as they arrive, then `end()` for the report. */
export class Validation {
  readonly #options: NormalizedValidateOptions;
  readonly #collector: ReportCollector;
  readonly #checks: Check[];
  readonly #reader: JsonReader;
  readonly #started = performance.now();
  #recordErrorsBase = 0;
  #users = 0;
  #licenses = 0;
  #licenseUsers = 0;
  #report: Report | null = null;

  constructor(options: ValidateOptions = {}) {
    this.#options = normalizeValidateOptions(options);
    this.#collector = new ReportCollector(this.#options);
    this.#checks = defaultChecks();
    this.#reader = new JsonReader(this.#sink(), this.#options);
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
    if (this.#report) return this.#report;
    try {
      this.#reader.end();
      if (!this.#reader.stopped) {
        const context = this.#context();
        this.#recordErrorsBase = this.#collector.errorCount;
        for (const check of this.#checks) check.end?.(context);
      }
    } finally {
      this.dispose();
    }
    this.#report = this.#collector.toReport({
      file: this.#options.file,
      format: "json",
      stats: {
        bytes: this.#reader.bytes,
        records: this.#users + this.#licenses + this.#licenseUsers,
        users: this.#users,
        licenses: this.#licenses,
        licenseUsers: this.#licenseUsers,
        durationMs: Math.round(performance.now() - this.#started),
      },
    });
    return this.#report;
  }

  /** Releases temporary files of an abandoned pass (end() does this itself). */
  dispose(): void {
    for (const check of this.#checks) check.dispose?.();
  }

  #sink(): RecordSink {
    const collector = this.#collector;
    const checks = this.#checks;
    const context = this.#context();
    return {
      finding: (code, details) => collector.add(code, details),
      record: (record) => {
        if (record.kind === "user") this.#users++;
        else if (record.kind === "license") this.#licenses++;
        else this.#licenseUsers++;
        this.#recordErrorsBase = collector.errorCount;
        for (const check of checks) check.record?.(record, context);
      },
    };
  }

  #context(): CheckContext {
    const collector = this.#collector;
    const self = this;
    return {
      report: (code, record, spec = {}) => collector.add(code, () => details(record, spec)),
      get recordErrors() {
        return collector.errorCount - self.#recordErrorsBase;
      },
    };
  }
}

function details(record: DataRecord | null, spec: FindingSpec): FindingDetails {
  const place = spec.place ?? record?.place(spec.path ?? [], spec.at) ?? { pointer: "" };
  const d: FindingDetails = { pointer: place.pointer };
  if (place.location) d.location = place.location;
  if (place.row !== undefined) d.row = place.row;
  const field = spec.field ?? place.field;
  if (field !== undefined) d.field = field;
  if (spec.params) d.params = spec.params;
  if (spec.hint !== undefined) d.hint = spec.hint;
  if (spec.value !== undefined) d.value = spec.value;
  return d;
}
