// CSV rows into the records the checks know: each user once (from the row where its email
// first appears; later rows must agree), each license once (its columns may be given on any
// of its rows, and must agree), and each license user. Users go out as they appear; licenses
// and their users after the last row, license by license, as in the JSON document.

import type { RecordSink } from "../model/RecordSink.js";
import type { Code } from "../report/catalog.js";
import { showValue } from "../report/describe.js";
import type { FindingDetails, SourceLocation } from "../report/Finding.js";
import type { ReportMapping, ReportText } from "../report/Report.js";
import { getValidators } from "../schema/validators.js";
import { HeaderCells } from "./_HeaderCells.js";
import { LicenseAssignments } from "./_LicenseAssignments.js";
import { UserDefinitions } from "./_UserDefinitions.js";
import { EmailNumbers, type UserNumbers } from "./_UserNumbers.js";
import { CsvRecord } from "./CsvRecord.js";
import type { CsvHeader, CsvRow, CsvSink } from "./CsvSink.js";
import { listCell, numberCell, unescapeFormula } from "./cells.js";
import { type ColumnKey, LICENSE_COLUMNS, USER_COLUMNS } from "./columns.js";
import { checkedByParser, checkOrKeep, type LicenseUserCheck } from "./RowUsers.js";

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
  readonly #users: UserNumbers;
  readonly #definitions = new UserDefinitions();
  readonly #licenses = new Map<string, LicenseDefinition>();
  readonly #assignments = new LicenseAssignments();
  readonly #rowSchema = getValidators().csvRow;
  /** Where license users are checked, when they are split with the parsing thread. */
  readonly #checks: LicenseUserCheck | null;
  /** Whether license users are kept here (not when the parsing thread renders them all). */
  readonly #keeps: boolean;
  #cells: HeaderCells | null = null;

  /**
   * `users`: which user each row is of, when the thread that parses works that out
   * (csvParallel); by default the assembler keeps the users' emails itself.
   * `checks`: when only a report is wanted, the license users are checked apart, on two
   * threads: the parsing thread checks the users of every other license (`checkedByParser`),
   * which are only counted here, and `checks` this thread's (as their rows come, or, kept,
   * after the last row: `checkLicenseUsers`); `end` is told where each license's go.
   * `keeps`: false when the parsing thread checks and renders every license user (a
   * conversion to JSON): they are only counted here.
   */
  constructor(
    sink: RecordSink,
    users: UserNumbers = new EmailNumbers(),
    checks: LicenseUserCheck | null = null,
    keeps = true,
  ) {
    this.#sink = sink;
    this.#users = users;
    this.#checks = checks;
    this.#keeps = keeps;
  }

  header(header: CsvHeader): void {
    this.#cells = new HeaderCells(header);
  }

  finding(code: Code, details: FindingDetails): void {
    this.#sink.finding(code, details);
  }

  mapped(mapping: ReportMapping): void {
    this.#sink.mapped?.(mapping);
  }

  text(text: ReportText): void {
    this.#sink.text?.(text);
  }

  row(row: CsvRow): void {
    const cells = this.#cells as HeaderCells;
    const email = cells.cell(row, "email");
    const licenseCell = cells.licenseCell(row);
    const status = cells.cell(row, "licenseStatus");
    if (!cells.isRow(row, email, licenseCell, status)) {
      this.#rowProblems(row);
      return;
    }
    if (email !== "" && !this.#user(row, email, cells)) return;
    if (licenseCell === "") return;
    for (const name of cells.licenseNames(licenseCell)) {
      const license = this.#license(row, name, cells);
      if (email === "") continue;
      if (!this.#keeps) {
        this.#assignments.skip(license.index);
        continue;
      }
      if (this.#checks) {
        if (checkedByParser(license.index)) this.#assignments.skip(license.index);
        else
          checkOrKeep(
            this.#checks,
            this.#assignments,
            license.index,
            email,
            cells.status(status),
            row,
            cells,
          );
        continue;
      }
      this.#assignments.add(license.index, {
        email,
        licenseStatus: cells.status(status),
        row: row.row,
        line: row.loc.line,
        offset: row.loc.offset,
      });
    }
  }

  /** The row as csv-row.schema.json sees it: its non-empty cells by column. */
  rowObject(row: CsvRow): Partial<Record<ColumnKey, string>> {
    const object: Partial<Record<ColumnKey, string>> = {};
    (this.#cells as HeaderCells).header.keys.forEach((key, i) => {
      if (key === null) return;
      const cell = unescapeFormula(row.cells[i] as string);
      if (cell !== "") object[key] = cell;
    });
    return object;
  }

  /** In a split pass, after the last row: this thread's kept license users, license by license. */
  checkLicenseUsers(check: (record: CsvRecord) => void): void {
    if (!this.#cells) return;
    for (const record of this.#assignments.allRecords(this.#cells.licenseUserFields)) check(record);
  }

  /**
   * After the last row: each license, then its users (unless reading stopped on a fatal
   * problem). `checked` (in a split pass) is told of each license's users, in their place,
   * instead; when they were all checked on the parsing thread (the assembler has no `checks`
   * then), they go on to `handOn` after that, unchecked here: the `count` users of
   * `license`, `records` those kept here (none when it `keeps` none).
   */
  end(
    stopped: boolean,
    checked?: (license: number, count: number) => void,
    handOn?: (license: number, count: number, records: Iterable<CsvRecord>) => void,
  ): void {
    try {
      if (stopped || !this.#cells) return;
      const { licenseFields, licenseUserFields } = this.#cells;
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
        const origin = { row: license.row, loc: license.loc, fields: licenseFields, elsewhere };
        this.#emit(new CsvRecord("license", license.index, -1, value, origin, count));
        if (this.#checks || handOn) {
          if (!checked) throw new Error("CsvAssembler: where the checked license users go is not given");
          checked(license.index, count);
          handOn?.(license.index, count, this.#assignments.records(license.index, licenseUserFields));
          continue;
        }
        for (const record of this.#assignments.records(license.index, licenseUserFields)) this.#emit(record);
      }
    } finally {
      this.dispose();
    }
  }

  /** Deletes temporary files. */
  dispose(): void {
    this.#users.dispose();
    this.#definitions.dispose();
    this.#assignments.dispose();
  }

  /**
   * A row's user: a new one goes out as a record, its first row kept; a later row of a known
   * user must agree with the first on its non-empty user cells (not the email: it is the key,
   * matched case-insensitively, and the license user's own). False when the row is no row of
   * that user after all (a duplicate): its licenses are not the user's either.
   */
  #user(row: CsvRow, email: string, cells: HeaderCells): boolean {
    const user = this.#users.user(email);
    if (!this.#users.isNew) {
      if (cells.header.oneRowPerUser) {
        // an export has a row a user: a second is a duplicate, whatever its spelling; with a
        // Licenses column its licenses still count, as the parsing thread counts them
        this.#duplicate(row, user, email, cells);
        return cells.laterRowsHoldLicenses;
      }
      if (!this.#sameSpelling(row, user, email, cells)) return false;
      this.#conflicts(row, user, cells);
      return true;
    }
    const defined = [email];
    const value: Record<string, unknown> = { email };
    for (const key of USER_COLUMNS) {
      const cell = cells.userCell(row, key);
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
            cells.userFields.roles,
            { value: showValue(cell) },
            `/users/${user}/roles`,
            cell,
          );
      }
    }
    this.#definitions.put(user, row.row, row.loc.line, defined);
    this.#emit(
      new CsvRecord("user", user, -1, value, { row: row.row, loc: row.loc, fields: cells.userFields }),
    );
    return true;
  }

  /**
   * Whether a later row of a known user spells its email as the first did, where that matters:
   * without a license column a user has one row, and two emails that differ only in case are
   * two rows of an export, one of them lost if merged (user.email.duplicate). (With the
   * dialect's Licenses column, the parsing thread checks license users without the spellings:
   * such rows are still merged there.)
   */
  #sameSpelling(row: CsvRow, user: number, email: string, cells: HeaderCells): boolean {
    const { index } = cells.header;
    if (index.licenseName !== undefined || index.licenses !== undefined) return true;
    if (this.#definitions.get(user).cells[0] === email) return true;
    this.#duplicate(row, user, email, cells);
    return false;
  }

  /** user.email.duplicate at a later row of a known user. */
  #duplicate(row: CsvRow, user: number, email: string, cells: HeaderCells): void {
    const definition = this.#definitions.get(user);
    this.#rowFinding(
      "user.email.duplicate",
      row,
      cells.userFields.email,
      { value: showValue(email), first: `row ${definition.row} (line ${definition.line})` },
      undefined, // the row makes no user of the document
      email,
    );
  }

  #conflicts(row: CsvRow, user: number, cells: HeaderCells): void {
    const definition = this.#definitions.get(user);
    USER_COLUMNS.forEach((key, k) => {
      const cell = cells.userCell(row, key);
      const known = definition.cells[k + 1] as string;
      if (cell === "" || cell === known) return;
      this.#rowFinding(
        "csv.user.conflict",
        row,
        cells.userFields[key],
        {
          field: key,
          value: showValue(cell),
          other: known === "" ? "empty" : showValue(known),
          firstRow: definition.row,
          firstLine: definition.line,
        },
        `/users/${user}/${key}`,
        cell,
      );
    });
  }

  #license(row: CsvRow, name: string, cells: HeaderCells): LicenseDefinition {
    let license = this.#licenses.get(name);
    if (!license) {
      license = { name, index: this.#licenses.size, row: row.row, loc: row.loc, columns: {} };
      this.#licenses.set(name, license);
    }
    for (const key of LICENSE_COLUMNS) {
      const cell = cells.cell(row, key);
      if (cell === "") continue;
      const known = license.columns[key];
      if (!known) license.columns[key] = { value: cell, row: row.row, loc: row.loc };
      else if (known.value !== cell) {
        this.#rowFinding(
          "csv.license.conflict",
          row,
          cells.licenseFields[key],
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

  #rowProblems(row: CsvRow): void {
    const header = (this.#cells as HeaderCells).header;
    const problems: { code: Code; column: number; field: string | undefined }[] = [];
    this.#rowSchema(this.rowObject(row));
    for (const error of this.#rowSchema.errors ?? []) {
      if (error.schemaPath.includes("/anyOf/")) continue;
      const key = error.schemaPath.startsWith("#/dependentSchemas/")
        ? error.schemaPath.split("/")[2]
        : undefined;
      const code: Code = key ? "csv.row.license" : (ROW_PROBLEMS[error.keyword] ?? "csv.row.incomplete");
      const column = (key ?? (error.params as { property?: string }).property) as ColumnKey | undefined;
      const index = column ? (header.index[column] ?? -1) : -1;
      const field = column ? (header.names[index] ?? column) : undefined;
      if (problems.some((p) => p.code === code && p.field === field)) continue;
      problems.push({ code, column: index, field });
    }
    // a row of a user without its email is said once, at its first user column; that it names
    // no license either is then no news
    const users = problems.filter((p) => p.code === "csv.row.user").sort((a, b) => a.column - b.column);
    for (const problem of problems) {
      if (users.length > 0 && problem.code === "csv.row.incomplete") continue;
      if (problem.code === "csv.row.user" && problem !== users[0]) continue;
      this.#rowFinding(problem.code, row, problem.field, problem.field ? { field: problem.field } : {});
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
