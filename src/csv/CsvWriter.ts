// Writes the data file in the canonical CSV layout, streaming: each user's row (user columns,
// license columns empty) as the user comes, then for each license the rows of its users
// (email and license columns) or, for a license without users, one row with an empty email.
// Users before licenses keeps both orders when the file is read back; formula cells are
// escaped unless told otherwise. CanonicalRows makes the rows (a workbook's writer uses them
// too); CsvWriter has them quoted by csv-stringify in batches.

import { ChunkedOut } from "../bytes/ChunkedOut.js";
import type { TextOut } from "../bytes/TextOut.js";
import type { DocumentWriter } from "../model/DocumentWriter.js";
import { SpillList } from "../spill/SpillList.js";
import { stringify } from "./_csvStringify.js";
import { escapeFormula, formatList, isFormula } from "./cells.js";
import { CANONICAL_COLUMNS, USER_COLUMNS } from "./columns.js";

/** Options of the CSV writer (and of any writer of the canonical rows). */
export interface CsvWriterOptions {
  /** Escape cells a spreadsheet would run as formulas (`= + - @ tab CR` first). Default true. */
  escapeFormulas?: boolean;
}

/** A row of the canonical layout: a cell for each of CANONICAL_COLUMNS. */
export type Row = string[];

const BATCH = 512;
const USER_KEYS = ["email", ...USER_COLUMNS] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A DocumentWriter that makes the rows of the canonical layout, in batches, for a subclass to
 * write (`writeRows`, then `finish` at the end). It takes values as read: what is not an object
 * gives empty cells.
 */
export abstract class CanonicalRows implements DocumentWriter {
  readonly #escape: boolean;
  #batch: Row[] = [];
  #escaped = 0;
  // license users waiting for their license (JSON gives a license after its users)
  #pending = new SpillList<[string, string]>();
  #pendingLicense = -1;
  // the license given last, for the users that follow it (CSV order)
  #license = -1;
  #licenseCells: Row = [];
  // rows held back until every user is written: licenses came before the users
  #deferred: SpillList<Row> | null = null;

  constructor(options: CsvWriterOptions = {}) {
    this.#escape = options.escapeFormulas ?? true;
  }

  /** Writes the next rows, in order. */
  protected abstract writeRows(rows: Row[]): void;

  /** After the last rows. */
  protected abstract finish(): void;

  /** How many cells were escaped as formulas so far. */
  get formulasEscaped(): number {
    return this.#escaped;
  }

  user(value: unknown): void {
    if (!isObject(value)) return;
    const row = USER_KEYS.map((key) => this.#cell(value[key], key === "roles"));
    row.push("", "", "", "");
    this.#write(row);
  }

  license(index: number, value: unknown, userCount: number): void {
    const v = isObject(value) ? value : {};
    this.#license = index;
    this.#licenseCells = [this.#cell(v.name), this.#cell(v.pricePerUser), this.#cell(v.unassignedAmount)];
    if (this.#pendingLicense === index) {
      for (const [email, status] of this.#pending) this.#licenseRow(email, status);
      this.#pending.dispose();
      this.#pendingLicense = -1;
    } else if (userCount === 0) {
      this.#licenseRow("", "");
    }
  }

  licenseUser(licenseIndex: number, value: unknown, afterUsers: boolean): void {
    if (!afterUsers && !this.#deferred) this.#deferred = new SpillList<Row>();
    const v = isObject(value) ? value : {};
    const email = this.#cell(v.email);
    const status = this.#cell(v.licenseStatus);
    if (licenseIndex === this.#license) {
      this.#licenseRow(email, status);
      return;
    }
    this.#pendingLicense = licenseIndex;
    this.#pending.push([email, status]);
  }

  end(): void {
    const deferred = this.#deferred;
    this.#deferred = null;
    if (deferred) {
      for (const row of deferred) this.#write(row);
      deferred.dispose();
    }
    this.#flushBatch();
    this.finish();
    this.#pending.dispose();
  }

  /** Deletes temporary files of an abandoned write. */
  dispose(): void {
    this.#pending.dispose();
    this.#deferred?.dispose();
  }

  #licenseRow(email: string, status: string): void {
    const [name, price, unassigned] = this.#licenseCells as [string, string, string];
    const row = [email, "", "", "", "", "", "", "", name, status, price, unassigned];
    if (this.#deferred) this.#deferred.push(row);
    else this.#write(row);
  }

  #write(row: Row): void {
    this.#batch.push(row);
    if (this.#batch.length >= BATCH) this.#flushBatch();
  }

  #flushBatch(): void {
    if (this.#batch.length === 0) return;
    this.writeRows(this.#batch);
    this.#batch = [];
  }

  /** A value as a cell: text as it is (formula-escaped), numbers in digits, roles `;`-joined. */
  #cell(value: unknown, roles = false): string {
    let text: string;
    if (value === undefined || value === null) return "";
    if (typeof value === "string") text = value;
    else if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
      text = String(value);
    else if (roles && Array.isArray(value) && value.every((r) => typeof r === "string"))
      text = formatList(value);
    else text = JSON.stringify(value);
    if (!this.#escape || !isFormula(text)) return text;
    this.#escaped++;
    return escapeFormula(text);
  }
}

/** A DocumentWriter producing CSV text in the canonical layout. */
export class CsvWriter extends CanonicalRows {
  readonly #out: ChunkedOut;

  constructor(out: TextOut, options: CsvWriterOptions = {}) {
    super(options);
    this.#out = new ChunkedOut(out);
    this.#out.write(`${CANONICAL_COLUMNS.join(",")}\n`);
  }

  protected writeRows(rows: Row[]): void {
    this.#out.write(stringify(rows));
  }

  protected finish(): void {
    this.#out.flush();
  }
}
