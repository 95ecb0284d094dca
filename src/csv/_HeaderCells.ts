// A row's cells by column, as the header places them: the formula escape undone, a Name column
// split into first and last name, statuses in lower case. Shared by
// the assembler and by the worker thread that tells rows' users apart (csvParallel).

import type { CsvHeader, CsvRow } from "./CsvSink.js";
import { listCell, splitList, unescapeFormula } from "./cells.js";
import { type ColumnKey, USER_COLUMNS } from "./columns.js";

/** The columns that make a row one of a user, which then needs its email. */
const USER_CELLS: readonly ColumnKey[] = [...USER_COLUMNS, "name"];

/** The cells of rows under one header, and the header names of the record fields they give. */
export class HeaderCells {
  readonly header: CsvHeader;
  /** The spreadsheet dialect: a `Licenses` column listing names. */
  readonly dialect: boolean;
  /** The header name behind each user field. */
  readonly userFields: Record<string, string> = {};
  readonly licenseFields: Record<string, string>;
  readonly licenseUserFields: Record<string, string>;
  /** The dialect's license lists already read, by cell. */
  readonly #lists = new Map<string, readonly string[]>();

  constructor(header: CsvHeader) {
    this.header = header;
    this.dialect = header.index.licenses !== undefined;
    const name = (key: ColumnKey) =>
      header.index[key] === undefined ? key : (header.names[header.index[key]] as string);
    for (const key of ["email", ...USER_COLUMNS] as const) this.userFields[key] = name(key);
    // names that come from a Name column are found there
    if (header.index.name !== undefined) {
      if (header.index.firstName === undefined) this.userFields.firstName = name("name");
      if (header.index.lastName === undefined) this.userFields.lastName = name("name");
    }
    this.licenseFields = {
      name: name(this.dialect ? "licenses" : "licenseName"),
      pricePerUser: name("pricePerUser"),
      unassignedAmount: name("unassignedAmount"),
    };
    this.licenseUserFields = { email: name("email"), licenseStatus: name("licenseStatus") };
  }

  /**
   * Whether a later row of a known user names licenses of the user: not in an export of a row a
   * user (`oneRowPerUser`), where such a row is a duplicate, unless its Licenses column (the
   * dialect) lists them.
   */
  get laterRowsHoldLicenses(): boolean {
    return !this.header.oneRowPerUser || this.dialect;
  }

  /** The cell of `key` in `row` ("" when the header has no such column), formula escape undone. */
  cell(row: CsvRow, key: ColumnKey): string {
    const i = this.header.index[key];
    if (i === undefined) return key === "firstName" || key === "lastName" ? this.#namePart(row, key) : "";
    const cell = row.cells[i] as string;
    return cell.charCodeAt(0) === 0x27 ? unescapeFormula(cell) : cell;
  }

  /** The license cell: `Licenses` in the dialect, else `licenseName`. */
  licenseCell(row: CsvRow): string {
    return this.cell(row, this.dialect ? "licenses" : "licenseName");
  }

  /** The licenses a license cell names: `Licenses` lists names (`,` or `;`, or a JSON array); `licenseName` names one. */
  licenseNames(licenseCell: string): readonly string[] {
    if (!this.dialect) return [licenseCell];
    // a file repeats the same few lists of licenses: each read once (up to a number of them)
    let names = this.#lists.get(licenseCell);
    if (names === undefined) {
      names = listCell(licenseCell) ?? splitList(licenseCell);
      if (this.#lists.size < 4096) this.#lists.set(licenseCell, names);
    }
    return names;
  }

  /** The cell of a user column, a status as the dialect reads it. */
  userCell(row: CsvRow, key: (typeof USER_COLUMNS)[number]): string {
    return key === "status" ? this.status(this.cell(row, key)) : this.cell(row, key);
  }

  /**
   * Whether the row is one csv-row.schema.json accepts, decided without building the row object
   * (the schema names the problems of one that is not).
   */
  isRow(row: CsvRow, email: string, licenseCell: string, status: string): boolean {
    if (email === "") {
      // a license no user holds: its name, and nothing of a user (whose export left the email
      // empty: never read as a license row)
      return !this.dialect && licenseCell !== "" && status === "" && !this.#hasUserCell(row);
    }
    return (
      (status === "" || licenseCell !== "") &&
      (licenseCell !== "" ||
        (this.cell(row, "pricePerUser") === "" && this.cell(row, "unassignedAmount") === ""))
    );
  }

  /** Whether a cell of one of a user's columns (or a Name column) holds anything. */
  #hasUserCell(row: CsvRow): boolean {
    for (const key of USER_CELLS) {
      if (this.header.index[key] !== undefined && this.cell(row, key) !== "") return true;
    }
    return false;
  }

  /** A status as CSV files and workbooks write it: in any case (`Active`, `DELETED`). */
  status(cell: string): string {
    if (cell === "active" || cell === "" || cell === "deleted" || cell === "inactive") return cell;
    const lower = cell.toLowerCase();
    return lower === "active" || lower === "deleted" || lower === "inactive" ? lower : cell;
  }

  /** First or last name from a Name column: split at the first space (one word: a first name). */
  #namePart(row: CsvRow, key: "firstName" | "lastName"): string {
    const whole = this.cell(row, "name").trim();
    const space = whole.search(/\s/);
    if (space < 0) return key === "firstName" ? whole : "";
    return key === "firstName" ? whole.slice(0, space) : whole.slice(space + 1).trim();
  }
}
