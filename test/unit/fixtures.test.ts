// Every fixture: its complete list of findings, each with the right code, pointer and line.
// One invalid fixture per catalog code, named after it; the codes emitted are the catalog.

import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { catalog, type ValidateOptions, validateFile } from "../../src/index.js";
import { expectRendered } from "../support/expectFinding.js";
import { fixture } from "../support/paths.js";

type Expected = [code: string, pointer: string, line: number][];

// what each invalid fixture must report, in order: nothing more, nothing less
const EXPECTED: Record<string, Expected> = {
  "file.type": [["file.type", "", 1]],
  "json.empty": [["json.empty", "", 1]],
  "json.encoding": [["json.encoding", "/users/0", 3]],
  "json.syntax": [["json.syntax", "/users", 4]],
  "json.depth": [["json.depth", "/users/0", 3]],
  "json.trailing": [["json.trailing", "", 6]],
  "json.key.duplicate": [["json.key.duplicate", "/users/0/firstName", 6]],
  "json.record.size": [["json.record.size", "/users/1", 4]],
  "document.type": [["document.type", "", 1]],
  "document.users.required": [["document.users.required", "", 1]],
  "document.users.type": [["document.users.type", "/users", 2]],
  "document.users.empty": [["document.users.empty", "/users", 2]],
  "document.users.noneValid": [
    ["user.email.format", "/users/0/email", 3],
    ["user.email.required", "/users/1", 4],
    ["document.users.noneValid", "/users", 3],
  ],
  "document.licenses.type": [["document.licenses.type", "/licenses", 3]],
  "document.property.unknown": [["document.property.unknown", "/license", 3]],
  "user.type": [["user.type", "/users/1", 4]],
  "user.email.required": [["user.email.required", "/users/1", 4]],
  "user.email.type": [["user.email.type", "/users/1/email", 4]],
  "user.email.format": [["user.email.format", "/users/1/email", 4]],
  "user.email.duplicate": [["user.email.duplicate", "/users/2/email", 5]],
  "user.id.type": [["user.id.type", "/users/1/id", 4]],
  "user.id.number": [["user.id.number", "/users/1/id", 4]],
  "user.firstName.type": [["user.firstName.type", "/users/1/firstName", 4]],
  "user.lastName.type": [["user.lastName.type", "/users/1/lastName", 4]],
  "user.externalStatus.type": [["user.externalStatus.type", "/users/1/externalStatus", 4]],
  "user.status.enum": [["user.status.enum", "/users/1/status", 4]],
  "user.roles.type": [["user.roles.type", "/users/1/roles", 4]],
  "user.roles.item": [["user.roles.item", "/users/1/roles/1", 4]],
  "user.lastUsedDate.type": [["user.lastUsedDate.type", "/users/1/lastUsedDate", 4]],
  "user.lastUsedDate.format": [["user.lastUsedDate.format", "/users/1/lastUsedDate", 4]],
  "user.lastUsedDate.datetime": [["user.lastUsedDate.datetime", "/users/1/lastUsedDate", 4]],
  "user.lastUsedDate.empty": [["user.lastUsedDate.empty", "/users/1/lastUsedDate", 4]],
  "user.lastUsedDate.range": [["user.lastUsedDate.range", "/users/1/lastUsedDate", 4]],
  "user.text.nul": [["user.text.nul", "/users/1/firstName", 4]],
  "user.text.surrogate": [["user.text.surrogate", "/users/1/roles/1", 4]],
  "user.property.unknown": [["user.property.unknown", "/users/1/first_name", 4]],
  "license.type": [["license.type", "/licenses/0", 6]],
  "license.name.required": [["license.name.required", "/licenses/0", 6]],
  "license.name.type": [["license.name.type", "/licenses/0/name", 6]],
  "license.name.empty": [["license.name.empty", "/licenses/0/name", 6]],
  "license.name.duplicate": [["license.name.duplicate", "/licenses/2/name", 8]],
  "license.pricePerUser.type": [["license.pricePerUser.type", "/licenses/0/pricePerUser", 6]],
  "license.pricePerUser.fraction": [["license.pricePerUser.fraction", "/licenses/0/pricePerUser", 6]],
  "license.pricePerUser.negative": [["license.pricePerUser.negative", "/licenses/0/pricePerUser", 6]],
  "license.pricePerUser.range": [["license.pricePerUser.range", "/licenses/0/pricePerUser", 6]],
  "license.unassignedAmount.type": [["license.unassignedAmount.type", "/licenses/0/unassignedAmount", 6]],
  "license.unassignedAmount.fraction": [
    ["license.unassignedAmount.fraction", "/licenses/0/unassignedAmount", 6],
  ],
  "license.unassignedAmount.negative": [
    ["license.unassignedAmount.negative", "/licenses/0/unassignedAmount", 6],
  ],
  "license.unassignedAmount.range": [["license.unassignedAmount.range", "/licenses/0/unassignedAmount", 6]],
  "license.users.type": [["license.users.type", "/licenses/0/users", 6]],
  "license.property.unknown": [["license.property.unknown", "/licenses/0/price", 6]],
  "license.text.nul": [["license.text.nul", "/licenses/0/name", 6]],
  "license.text.surrogate": [["license.text.surrogate", "/licenses/0/name", 6]],
  "license.user.type": [["license.user.type", "/licenses/0/users/0", 9]],
  "license.user.email.required": [["license.user.email.required", "/licenses/0/users/0", 9]],
  "license.user.email.type": [["license.user.email.type", "/licenses/0/users/0/email", 9]],
  "license.user.email.format": [["license.user.email.format", "/licenses/0/users/0/email", 9]],
  "license.user.email.unknown": [["license.user.email.unknown", "/licenses/0/users/1/email", 10]],
  "license.user.duplicate": [["license.user.duplicate", "/licenses/0/users/1/email", 10]],
  "license.user.licenseStatus.enum": [
    ["license.user.licenseStatus.enum", "/licenses/0/users/0/licenseStatus", 9],
  ],
  "license.user.property.unknown": [["license.user.property.unknown", "/licenses/0/users/0/status", 9]],
};

// what each invalid CSV fixture must report: code, row, line, column name
const EXPECTED_CSV: Record<
  string,
  [code: string, row: number | undefined, line: number, field: string | undefined][]
> = {
  "csv.empty": [["csv.empty", 0, 1, undefined]],
  "csv.encoding": [["csv.encoding", 1, 2, "firstName"]],
  "csv.quote": [["csv.quote", 1, 2, "firstName"]],
  "csv.record.size": [["csv.record.size", 2, 3, "firstName"]],
  "csv.header.missing": [["csv.header.missing", 0, 1, undefined]],
  "csv.header.unknown": [["csv.header.unknown", 0, 1, "nickname"]],
  "csv.header.duplicate": [["csv.header.duplicate", 0, 1, "First Name"]],
  "csv.header.name": [["csv.header.name", 0, 1, "Name"]],
  "csv.ragged": [["csv.ragged", 2, 3, undefined]],
  "csv.row.short": [["csv.row.short", 2, 3, undefined]],
  "csv.row.incomplete": [["csv.row.incomplete", 2, 3, undefined]],
  "csv.row.license": [["csv.row.license", 2, 3, "pricePerUser"]],
  "csv.row.user": [["csv.row.user", 2, 3, "licenseStatus"]],
  "csv.roles.format": [["csv.roles.format", 2, 3, "roles"]],
  "csv.user.conflict": [["csv.user.conflict", 3, 4, "firstName"]],
  "csv.license.conflict": [["csv.license.conflict", 2, 3, "pricePerUser"]],
  "mapping.header": [["mapping.header", 0, 1, undefined]],
  "mapping.column": [["mapping.column", 0, 1, undefined]],
  "mapping.status.none": [["mapping.status.none", 0, 1, undefined]],
  "mapping.value": [["mapping.value", 2, 3, "Status"]],
  "mapping.date": [["mapping.date", 2, 3, "Last seen in Jira - acme"]],
  "mapping.name": [["mapping.name", 2, 3, "Employee"]],
};

// what each invalid workbook fixture must report: code, cell, column name
const EXPECTED_XLSX: Record<string, [code: string, cell: string | undefined, field: string | undefined][]> = {
  "xlsx.corrupt": [["xlsx.corrupt", undefined, undefined]],
  "xlsx.sheet.missing": [["xlsx.sheet.missing", undefined, undefined]],
  "xlsx.formula.value": [["xlsx.formula.value", "Users!C3", "Status"]],
  "xlsx.cell.error": [["xlsx.cell.error", "Users!B3", "First name"]],
  "xlsx.cell.unheaded": [["xlsx.cell.unheaded", "Users!E2", undefined]],
  "xlsx.cell.size": [["xlsx.cell.size", "Users!B3", "First name"]],
  "xlsx.row.size": [["xlsx.row.size", "Users!C3", "Status"]],
  "xlsx.string.index": [["xlsx.string.index", "Users!B3", "First name"]],
};

// limits lowered so that a small fixture can reach them
const OPTIONS: Record<string, ValidateOptions> = {
  "json.record.size": { maxRecordBytes: 100 },
  "csv.record.size": { maxRecordBytes: 100 },
  "xlsx.cell.size": { maxRecordBytes: 100 },
  "xlsx.row.size": { maxRecordBytes: 100 },
  // a mapping of one's own that reads a column the export lacks
  "mapping.column": {
    mapping: {
      name: "hr",
      email: "Work email",
      status: { column: "State", values: { Active: "active" } },
      roles: "Teams",
    },
  },
  // names written "Last, First", and one that is not
  "mapping.name": {
    mapping: {
      name: "hr",
      email: "Work email",
      fullName: { column: "Employee", order: "last, first" },
      status: { column: "State", values: { Active: "active" } },
    },
  },
};

const files = readdirSync(fixture("invalid"));
const invalid = files.filter((f) => f.endsWith(".json")).map((f) => f.replace(/\.json$/, ""));
const invalidCsv = files.filter((f) => f.endsWith(".csv")).map((f) => f.replace(/\.csv$/, ""));
const invalidXlsx = files.filter((f) => f.endsWith(".xlsx")).map((f) => f.replace(/\.xlsx$/, ""));
const valid = readdirSync(fixture("valid"));

describe("invalid fixtures", () => {
  it.each(invalid)("%s reports exactly its findings", async (name) => {
    const report = await validateFile(fixture(`invalid/${name}.json`), OPTIONS[name] ?? {});
    const got = report.findings.map((f) => [f.code, f.pointer, f.line]);
    expect(got).toEqual(EXPECTED[name]);
    for (const finding of report.findings) {
      expectRendered(finding);
      expect(finding.column).toBeGreaterThanOrEqual(1);
      expect(finding.offset).toBeGreaterThanOrEqual(0);
    }
    expect(report.valid).toBe(catalog[name as keyof typeof catalog].severity === "warning");
  });

  it.each(invalidCsv)(
    "%s.csv reports exactly its findings, each with row, line and column name",
    async (name) => {
      const report = await validateFile(fixture(`invalid/${name}.csv`), OPTIONS[name] ?? {});
      expect(report.format).toBe("csv");
      expect(report.findings.map((f) => [f.code, f.row, f.line, f.field])).toEqual(EXPECTED_CSV[name]);
      for (const finding of report.findings) {
        expectRendered(finding);
        expect(finding.column).toBeUndefined();
        expect(finding.offset).toBeGreaterThanOrEqual(0);
      }
    },
  );

  it.each(invalidXlsx)("%s.xlsx reports exactly its findings, each in its cell", async (name) => {
    const report = await validateFile(fixture(`invalid/${name}.xlsx`), OPTIONS[name] ?? {});
    expect(report.format).toBe("xlsx");
    expect(report.findings.map((f) => [f.code, f.cell, f.field])).toEqual(EXPECTED_XLSX[name]);
    for (const finding of report.findings) {
      expectRendered(finding);
      expect([finding.line, finding.column, finding.offset]).toEqual([undefined, undefined, undefined]);
    }
  });

  it("has one fixture per catalog code, named after it, and no other", () => {
    expect([...invalid, ...invalidCsv, ...invalidXlsx].sort()).toEqual(Object.keys(catalog).sort());
  });

  it("emits exactly the catalog's codes across all fixtures", () => {
    const emitted = new Set(
      [...Object.values(EXPECTED), ...Object.values(EXPECTED_CSV), ...Object.values(EXPECTED_XLSX)].flatMap(
        (list) => list.map(([code]) => code),
      ),
    );
    expect([...emitted].sort()).toEqual(Object.keys(catalog).sort());
  });
});

describe("valid fixtures", () => {
  it.each(valid)("%s is valid without warnings", async (name) => {
    const report = await validateFile(fixture(`valid/${name}`));
    expect(report.findings).toEqual([]);
    expect(report.valid).toBe(true);
  });

  it.each(["example.json", "example.csv"])("counts the records of %s", async (name) => {
    const report = await validateFile(fixture(`valid/${name}`));
    expect(report.stats).toMatchObject({ users: 3, licenses: 2, licenseUsers: 3, records: 8 });
  });
});
