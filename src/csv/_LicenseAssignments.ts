// Who holds which license, as the rows say it, kept per license so that each license's users
// can be read back together, in row order, after the last row. Binary records, one log per
// license (IndexedLogs): past a memory budget the license holding the most goes to a
// temporary file.

import { writeText, writeU32 } from "../spill/ByteLog.js";
import { IndexedLogs } from "../spill/IndexedLogs.js";
import { type CsvRecord, licenseUserRecord } from "./CsvRecord.js";

/** One license user as its row gives it. */
export interface Assignment {
  email: string;
  licenseStatus: string;
  row: number;
  line: number;
  offset: number;
}

/** Assignments grouped by license index. */
export class LicenseAssignments {
  readonly #logs: IndexedLogs;
  readonly #counts: number[] = [];
  readonly #kept: number[] = [];

  /** `budget`: bytes of assignments kept in memory before some go to temporary files. */
  constructor(budget = 4 * 1024 * 1024) {
    this.#logs = new IndexedLogs(budget);
  }

  add(license: number, a: Assignment): void {
    const { page, at } = this.#logs.reserve(license, 18 + (a.licenseStatus.length + a.email.length) * 3);
    writeU32(page, at, a.row);
    writeU32(page, at + 4, a.line);
    page.writeDoubleLE(a.offset, at + 8);
    const s = writeText(page, at + 18, a.licenseStatus);
    page.writeUInt16LE(s, at + 16);
    const e = writeText(page, at + 18 + s, a.email);
    this.#logs.commit(license, 18 + s + e);
    this.skip(license);
    this.#kept[license] = (this.#kept[license] ?? 0) + 1;
  }

  /** Counts a user of `license` (`add` does, for one it keeps); one not kept comes before every kept one. */
  skip(license: number): void {
    this.#counts[license] = (this.#counts[license] ?? 0) + 1;
  }

  /** How many users hold `license`. */
  count(license: number): number {
    return this.#counts[license] ?? 0;
  }

  /** The users of `license`, in row order. */
  *of(license: number): Generator<Assignment> {
    for (const { page, at, length } of this.#logs.log(license)?.records() ?? []) {
      const s = page.readUInt16LE(at + 16);
      yield {
        row: page.readUInt32LE(at),
        line: page.readUInt32LE(at + 4),
        offset: page.readDoubleLE(at + 8),
        licenseStatus: s === 0 ? "" : page.toString("utf8", at + 18, at + 18 + s),
        email: page.toString("utf8", at + 18 + s, at + length),
      };
    }
  }

  /**
   * The kept users of `license` as records, in row order, numbered after the ones only
   * counted (`fields`: the header names of their columns).
   */
  *records(license: number, fields: Readonly<Record<string, string>>): Generator<CsvRecord> {
    let k = this.count(license) - (this.#kept[license] ?? 0);
    for (const a of this.of(license))
      yield licenseUserRecord(license, k++, a.email, a.licenseStatus, a, fields);
  }

  /** The kept users of every license, license by license (see `records`). */
  *allRecords(fields: Readonly<Record<string, string>>): Generator<CsvRecord> {
    for (let license = 0; license < this.#logs.length; license++)
      if (this.#logs.log(license)) yield* this.records(license, fields);
  }

  /** Deletes the temporary files. */
  dispose(): void {
    this.#logs.dispose();
  }
}
