// The users of rows, numbered where the rows are parsed (the worker of csvParallel): the
// rows as the assembler will see them (CsvAssembler.row), each one it takes a user from told
// its user's number, and whether the row defines that user. The emails are kept here. When
// asked, the users of every other license too (checkedByParser), numbered as the assembler
// numbers them (licenses in the order their names first appear): checked here as their rows
// come, or kept and checked after the last row, while the assembler's thread checks the rest;
// or of every license, and then each may also be told to whoever renders them (a conversion
// to JSON: see runPass).

import { HeaderCells } from "./_HeaderCells.js";
import { LicenseAssignments } from "./_LicenseAssignments.js";
import { EmailNumbers } from "./_UserNumbers.js";
import { type CsvRecord, licenseUserRecord } from "./CsvRecord.js";
import type { CsvHeader, CsvRow, CsvSink } from "./CsvSink.js";

/**
 * Whether the parsing thread checks the users of license `license` (every other license; the
 * assembler's thread checks the rest): the two threads share the work.
 */
export function checkedByParser(license: number): boolean {
  return license % 2 === 1;
}

/** Where license users are checked (LicenseUserChecks). */
export interface LicenseUserCheck {
  /**
   * Whether it takes license users as their rows come, licenses interleaved; once not, the
   * rest are kept and given to it after the last row, license by license.
   */
  readonly takesAnyOrder: boolean;
  check(record: CsvRecord): void;
}

/** Told of a license user (`license`: its index) as its row gives it. */
export type LicenseUserEach = (license: number, email: string, licenseStatus: string) => void;

/** A CSV sink (behind a CsvRows) that numbers each row's user; call `dispose()` at the end. */
export class RowUsers implements CsvSink {
  // this thread allocates little, so its garbage waits: the emails' runs reuse their arrays
  /** The users' emails, let go after the last row (checkLicenseUsers). */
  #numbers: EmailNumbers | null = new EmailNumbers();
  readonly #told: (user: number, isNew: boolean) => void;
  /** Where the users of this thread's licenses are checked, and those kept meanwhile. */
  #checks: LicenseUserCheck | null;
  #assignments: LicenseAssignments | null;
  /** Whether this thread checks the users of every license, not of every other one. */
  readonly #all: boolean;
  /** With `all`: told of every license user as its row comes. */
  readonly #each: LicenseUserEach | null;
  #gaveUp = false;
  readonly #licenses = new Map<string, number>();
  #cells: HeaderCells | null = null;

  /**
   * `told`: receives the user of each row the assembler takes a user from, in row order.
   * `checks`: where the users of this thread's licenses are checked, when they are: those of
   * every other license (`checkedByParser`), or with `all`, of every license, as long as the
   * checks take them as their rows come (see `gaveUp`).
   * `each`: with `all`, told of every license user as its row comes; the checks then never give
   * up: those they do not take as their rows come are kept, and checked after the last row.
   */
  constructor(
    told: (user: number, isNew: boolean) => void,
    checks: LicenseUserCheck | null = null,
    all = false,
    each: LicenseUserEach | null = null,
  ) {
    this.#told = told;
    this.#checks = checks;
    this.#all = all;
    this.#each = all ? each : null;
    this.#assignments = checks ? new LicenseAssignments() : null;
  }

  header(header: CsvHeader): void {
    this.#cells = new HeaderCells(header);
  }

  row(row: CsvRow): void {
    const cells = this.#cells as HeaderCells;
    const email = cells.cell(row, "email");
    const licenseCell = cells.licenseCell(row);
    const status = cells.cell(row, "licenseStatus");
    if (!cells.isRow(row, email, licenseCell, status)) return;
    if (email !== "") {
      const numbers = this.#numbers as EmailNumbers;
      this.#told(numbers.user(email), numbers.isNew);
      // the assembler takes no licenses from such a row (and numbers none it names)
      if (!numbers.isNew && !cells.laterRowsHoldLicenses) return;
    }
    const assignments = this.#assignments;
    if (licenseCell === "" || !assignments) return;
    for (const name of cells.licenseNames(licenseCell)) {
      let license = this.#licenses.get(name);
      if (license === undefined) {
        license = this.#licenses.size;
        this.#licenses.set(name, license);
      }
      if (email === "" || !(this.#all || checkedByParser(license))) continue;
      const checks = this.#checks as LicenseUserCheck;
      if (this.#all && !this.#each && !checks.takesAnyOrder) {
        this.#giveUp();
        return;
      }
      const licenseStatus = cells.status(status);
      this.#each?.(license, email, licenseStatus);
      checkOrKeep(checks, assignments, license, email, licenseStatus, row, cells);
    }
  }

  /**
   * With `all`: true once the license users outnumber what the checks take as their rows come.
   * None are checked here then: the assembler's thread checks them all, as it does alone.
   */
  get gaveUp(): boolean {
    return this.#gaveUp;
  }

  #giveUp(): void {
    this.#gaveUp = true;
    this.#checks = null;
    this.#assignments?.dispose();
    this.#assignments = null;
  }

  /**
   * After the last row: the kept users of this thread's licenses, license by license. The
   * users' emails are let go first (on a large file, the most this thread holds).
   */
  checkLicenseUsers(check: (record: CsvRecord) => void): void {
    this.#numbers?.dispose();
    this.#numbers = null;
    if (!this.#assignments || !this.#cells) return;
    for (const record of this.#assignments.allRecords(this.#cells.licenseUserFields)) check(record);
  }

  finding(): void {} // the assembler's thread reports the header's and the rows' problems itself

  /** Deletes temporary files. */
  dispose(): void {
    this.#numbers?.dispose();
    this.#assignments?.dispose();
  }
}

/**
 * A license user of this thread's: checked now while `checks` takes any order (counted, not
 * kept), else kept, to be checked after the last row.
 */
export function checkOrKeep(
  checks: LicenseUserCheck,
  assignments: LicenseAssignments,
  license: number,
  email: string,
  licenseStatus: string,
  row: CsvRow,
  cells: HeaderCells,
): void {
  const at = { row: row.row, line: row.loc.line, offset: row.loc.offset };
  if (!checks.takesAnyOrder) {
    assignments.add(license, { email, licenseStatus, ...at });
    return;
  }
  const k = assignments.count(license);
  assignments.skip(license);
  checks.check(licenseUserRecord(license, k, email, licenseStatus, at, cells.licenseUserFields));
}
