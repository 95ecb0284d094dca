// CSV rows into the records the checks know: each user once (from the row where its email
// first appears; later rows must agree), each license once (its columns may be given on any
// of its rows, and must agree), and each license user. Users go out as they appear; licenses
// and their users after the last row, license by license, as in the JSON document.

import type { RecordSink } from "../model/RecordSink.js";
import type { UserEmails } from "../model/UserEmails.js";
import type { Code } from "../report/catalog.js";
import { showValue } from "../report/describe.js";
import type { FindingDetails, SourceLocation } from "../report/Finding.js";
import { getValidators } from "../schema/validators.js";
import { LicenseAssignments } from "./_LicenseAssignments.js";
import { UserDefinitions } from "./_UserDefinitions.js";
import type { CsvHeader, CsvRow, CsvSink } from "./CsvReader.js";
import { CsvRecord } from "./CsvRecord.js";
import { listCell, numberCell, splitList, unescapeFormula } from "./cells.js";
import { type ColumnKey, LICENSE_COLUMNS, USER_COLUMNS } from "./columns.js";

interface LicenseDefinition {
  name: string;
  index: number;
  row: number;
  loc: SourceLocation;
  /** The first non-empty value of each license column, and the row that gave it. */
  columns: Partial<
    Record<(typeof LICENSE_COLUMNS)[number], { value: string; row: number; loc: SourceLocation }>
  >;
}

const ROW_PROBLEMS: Readonly<Record<string, Code>> = {
  anyOf: "csv.row.incomplete",
  dependentRequired: "csv.row.user",
};

/** A CSV sink that assembles records; call `end()` after the reader's end. */
export class CsvAssembler implements CsvSink {
  readonly #sink: RecordSink;
  readonly #emails: UserEmails;
  readonly #definitions = new UserDefinitions();
  readonly #licenses = new Map<string, LicenseDefinition>();
  readonly #assignments = new LicenseAssignments();
  readonly #rowSchema = getValidators().csvRow;
  #header: CsvHeader | null = null;
  #dialect = false;
  #userFields: Record<string, string> = {};
  #licenseFields: Record<string, string> = {};
  #licenseUserFields: Record<string, string> = {};
  #userCount = 0;
  // the previous row's email and user: a user's rows usually come together
  #lastEmail = "";
  #lastUser = -1;

  /**
   * `emails`: the registry of users' emails the checks use; the assembler registers each user
   * in it as it meets the user (one copy of the emails, not two).
   */
  constructor(sink: RecordSink, emails: UserEmails) {
    this.#sink = sink;
    this.#emails = emails;
  }

  header(header: CsvHeader): void {
    this.#header = header;
    this.#dialect = header.index.licenses !== undefined;
    const name = (key: ColumnKey) =>
      header.index[key] === undefined ? key : (header.names[header.index[key]] as string);
    for (const key of ["email", ...USER_COLUMNS] as const) this.#userFields[key] = name(key);
    // names that come from a Name column are found there
    if (header.index.name !== undefined) {
      if (header.index.firstName === undefined) this.#userFields.firstName = name("name");
      if (header.index.lastName === undefined) this.#userFields.lastName = name("name");
    }
    this.#licenseFields = {
      name: name(this.#dialect ? "licenses" : "licenseName"),
      pricePerUser: name("pricePerUser"),
      unassignedAmount: name("unassignedAmount"),
    };
    this.#licenseUserFields = { email: name("email"), licenseStatus: name("licenseStatus") };
  }

  finding(code: Code, details: FindingDetails): void {
    this.#sink.finding(code, details);
  }

  row(row: CsvRow): void {
    const email = this.#cell(row, "email");
    const licenseCell = this.#cell(row, this.#dialect ? "licenses" : "licenseName");
    const status = this.#cell(row, "licenseStatus");
    // csv-row.schema.json, decided without building the row object; the schema names the problems
    const ok =
      (email !== "" || licenseCell !== "") &&
      (status === "" || (email !== "" && licenseCell !== "")) &&
      (licenseCell !== "" ||
        (this.#cell(row, "pricePerUser") === "" && this.#cell(row, "unassignedAmount") === ""));
    if (!ok) {
      this.#rowProblems(row);
      return;
    }
    if (email !== "") this.#user(row, email);
    if (licenseCell === "") return;
    // `Licenses` lists names (`,` or `;`, or a JSON array); `licenseName` names one license
    const names = this.#dialect ? (listCell(licenseCell) ?? splitList(licenseCell)) : [licenseCell];
    for (const name of names) {
      const license = this.#license(row, name);
      if (email === "") continue;
      this.#assignments.add(license.index, {
        email,
        licenseStatus: this.#status(status),
        row: row.row,
        line: row.loc.line,
        offset: row.loc.offset,
      });
    }
  }

  /** The row as csv-row.schema.json sees it: its non-empty cells by column. */
  rowObject(row: CsvRow): Partial<Record<ColumnKey, string>> {
    const object: Partial<Record<ColumnKey, string>> = {};
    (this.#header as CsvHeader).keys.forEach((key, i) => {
      if (key === null) return;
      const cell = unescapeFormula(row.cells[i] as string);
      if (cell !== "") object[key] = cell;
    });
    return object;
  }

  /** After the last row: each license, then its users (unless reading stopped on a fatal problem). */
  end(stopped: boolean): void {
    try {
      if (stopped) return;
      for (const license of this.#licenses.values()) {
        const value: Record<string, unknown> = { name: license.name };
        const elsewhere: Record<string, { row: number; loc: SourceLocation }> = {};
        for (const key of LICENSE_COLUMNS) {
          const column = license.columns[key];
          if (!column) continue;
          value[key] = numberCell(column.value);
          elsewhere[key] = { row: column.row, loc: column.loc };
        }
        const count = this.#assignments.count(license.index);
        const origin = { row: license.row, loc: license.loc, fields: this.#licenseFields, elsewhere };
        this.#emit(new CsvRecord("license", license.index, -1, value, origin, count));
        let k = 0;
        for (const a of this.#assignments.of(license.index)) {
          const holder: Record<string, unknown> = { email: a.email };
          if (a.licenseStatus !== "") holder.licenseStatus = a.licenseStatus;
          const loc = { line: a.line, column: 1, offset: a.offset };
          this.#emit(
            new CsvRecord("licenseUser", k++, license.index, holder, {
              row: a.row,
              loc,
              fields: this.#licenseUserFields,
            }),
          );
        }
      }
    } finally {
      this.dispose();
    }
  }

  /** Deletes temporary files. */
  dispose(): void {
    this.#definitions.dispose();
    this.#assignments.dispose();
  }

  #user(row: CsvRow, email: string): void {
    let first = this.#lastUser;
    if (email !== this.#lastEmail) {
      first = this.#emails.add(email, this.#userCount);
      this.#lastEmail = email;
      this.#lastUser = first < 0 ? this.#userCount : first;
    }
    if (first < 0) {
      const user = this.#userCount++;
      const defined = [email];
      const value: Record<string, unknown> = { email };
      for (const key of USER_COLUMNS) {
        const cell = key === "status" ? this.#status(this.#cell(row, key)) : this.#cell(row, key);
        defined.push(cell);
        if (cell === "") continue;
        if (key !== "roles") value[key] = cell;
        else {
          const roles = listCell(cell);
          if (roles) value.roles = roles;
          else
            this.#rowFinding(
              "csv.roles.format",
              row,
              this.#userFields.roles,
              { value: showValue(cell) },
              `/users/${user}/roles`,
              cell,
            );
        }
      }
      this.#definitions.put(user, row.row, row.loc.line, defined);
      this.#emit(
        new CsvRecord("user", user, -1, value, { row: row.row, loc: row.loc, fields: this.#userFields }),
      );
      return;
    }
    // a later row of a known user: its non-empty user cells must agree with the first row
    // (not the email: it is the key, matched case-insensitively, and the license user's own)
    const definition = this.#definitions.get(first);
    USER_COLUMNS.forEach((key, k) => {
      const cell = key === "status" ? this.#status(this.#cell(row, key)) : this.#cell(row, key);
      const known = definition.cells[k + 1] as string;
      if (cell === "" || cell === known) return;
      this.#rowFinding(
        "csv.user.conflict",
        row,
        this.#userFields[key],
        {
          field: key,
          value: showValue(cell),
          other: known === "" ? "empty" : showValue(known),
          firstRow: definition.row,
          firstLine: definition.line,
        },
        `/users/${first}/${key}`,
        cell,
      );
    });
  }

  /** The cell of `key` in `row` ("" when the header has no such column), formula escape undone. */
  #cell(row: CsvRow, key: ColumnKey): string {
    const i = (this.#header as CsvHeader).index[key];
    if (i === undefined) return key === "firstName" || key === "lastName" ? this.#namePart(row, key) : "";
    const cell = row.cells[i] as string;
    return cell.charCodeAt(0) === 0x27 ? unescapeFormula(cell) : cell;
  }

  /** First or last name from a Name column: split at the first space (one word: a first name). */
  #namePart(row: CsvRow, key: "firstName" | "lastName"): string {
    const whole = this.#cell(row, "name").trim();
    const space = whole.search(/\s/);
    if (space < 0) return key === "firstName" ? whole : "";
    return key === "firstName" ? whole.slice(0, space) : whole.slice(space + 1).trim();
  }

  #license(row: CsvRow, name: string): LicenseDefinition {
    let license = this.#licenses.get(name);
    if (!license) {
      license = { name, index: this.#licenses.size, row: row.row, loc: row.loc, columns: {} };
      this.#licenses.set(name, license);
    }
    for (const key of LICENSE_COLUMNS) {
      const cell = this.#cell(row, key);
      if (cell === "") continue;
      const known = license.columns[key];
      if (!known) license.columns[key] = { value: cell, row: row.row, loc: row.loc };
      else if (known.value !== cell) {
        this.#rowFinding(
          "csv.license.conflict",
          row,
          this.#licenseFields[key],
          {
            field: key,
            value: showValue(cell),
            other: showValue(known.value),
            firstRow: known.row,
            firstLine: known.loc.line,
          },
          `/licenses/${license.index}/${key}`,
          cell,
        );
      }
    }
    return license;
  }

  /** The spreadsheet dialect writes statuses in any case. */
  #status(cell: string): string {
    if (!this.#dialect) return cell;
    const lower = cell.toLowerCase();
    return lower === "active" || lower === "deleted" || lower === "inactive" ? lower : cell;
  }

  #rowProblems(row: CsvRow): void {
    const seen = new Set<string>();
    this.#rowSchema(this.rowObject(row));
    for (const error of this.#rowSchema.errors ?? []) {
      if (error.schemaPath.includes("/anyOf/")) continue;
      const key = error.schemaPath.startsWith("#/dependentSchemas/")
        ? error.schemaPath.split("/")[2]
        : undefined;
      const code: Code = key ? "csv.row.license" : (ROW_PROBLEMS[error.keyword] ?? "csv.row.incomplete");
      const column = (key ?? (error.params as { property?: string }).property) as ColumnKey | undefined;
      const field = column ? (this.#header?.names[this.#header.index[column] ?? -1] ?? column) : undefined;
      if (seen.has(`${code} ${field}`)) continue;
      seen.add(`${code} ${field}`);
      this.#rowFinding(code, row, field, field ? { field } : {});
    }
  }

  #rowFinding(
    code: Code,
    row: CsvRow,
    field: string | undefined,
    params: Record<string, string | number>,
    pointer?: string,
    value?: string,
  ): void {
    this.#sink.finding(code, {
      location: row.loc,
      row: row.row,
      params,
      ...(field !== undefined ? { field } : {}),
      ...(pointer !== undefined ? { pointer } : {}),
      ...(value !== undefined ? { value } : {}),
    });
  }

  #emit(record: CsvRecord): void {
    this.#sink.record(record);
  }
}
