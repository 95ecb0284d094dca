// An export with a title (and a blank row) above its header, as HR reports come out of Excel,
// read as a user reads it: `mapping suggest`, then `validate` and `convert` with the mapping,
// as a CSV file and as a workbook (issue 50). The workbook was cut to its title's one column,
// and `suggest` took the title for the header and wrote `"email": ""` with exit 0.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { handWorkbook, inlineRow } from "../support/handWorkbook.js";
import { fixture } from "../support/paths.js";

const work = mkdtempSync(join(tmpdir(), "syncfile-cli-titled-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const csv = fixture("exports/titled-report.csv");
/** The fixture's lines as cells: its title, a blank line, the header and four users. */
const lines = readFileSync(csv, "utf8")
  .trimEnd()
  .split("\n")
  .map((line) => (line === "" ? [] : line.split(",")));

/** The fixture as a workbook's sheet, each line on the row of its number; `edit` changes the rows first. */
function workbook(name: string, edit: (rows: string[][]) => void = () => {}): string {
  const rows = lines.map((cells) => [...cells]);
  edit(rows);
  const path = join(work, `${name}.xlsx`);
  const xml = rows.map((cells, i) => (cells.length === 0 ? "" : inlineRow(i + 1, cells)));
  writeFileSync(path, handWorkbook({ rows: xml.join("") }));
  return path;
}

const mapping = {
  name: "titled-report",
  email: "Work Email",
  fullName: "Employee",
  status: { column: "Employment Status", values: { Active: "active", Terminated: "deleted" } },
};
const mappingFile = join(work, "titled-report.json");
writeFileSync(mappingFile, JSON.stringify(mapping));

const USERS = [
  {
    email: "ada.lovelace@example.com",
    firstName: "Ada",
    lastName: "Lovelace",
    status: "active",
    externalStatus: "Active",
  },
  {
    email: "grace.hopper@example.com",
    firstName: "Grace",
    lastName: "Hopper",
    status: "deleted",
    externalStatus: "Terminated",
  },
  {
    email: "alan.turing@example.com",
    firstName: "Alan",
    lastName: "Turing",
    status: "active",
    externalStatus: "Active",
  },
  {
    email: "katherine.johnson@example.com",
    firstName: "Katherine",
    lastName: "Johnson",
    status: "active",
    externalStatus: "Active",
  },
];

type Found = { code: string; row: number | undefined; cell: string | undefined; field: string | undefined };
const findingsOf = (stdout: string): Found[] =>
  (JSON.parse(stdout).findings as Found[]).map(({ code, row, cell, field }) => ({ code, row, cell, field }));

/** Converts `file` with `mappingPath` and gives the users written, or the run's stderr when it failed. */
async function convertedUsers(file: string, mappingPath = mappingFile): Promise<unknown> {
  const out = join(work, `${file.replace(/^.*[\\/]/, "")}.json`);
  const r = await runCli(["convert", file, out, "--mapping", mappingPath, "--force"]);
  if (r.code !== 0) return r.stdout + r.stderr;
  return JSON.parse(readFileSync(out, "utf8")).users;
}

describe("a workbook with a title above its header, read with a mapping", () => {
  it("finds the header below the title and reads every user whole", async () => {
    const book = workbook("titled");
    const r = await runCli(["validate", book, "--mapping", mappingFile, "--format", "json"]);
    expect(findingsOf(r.stdout)).toEqual([]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).stats.users).toBe(4);
    expect(await convertedUsers(book)).toEqual(USERS);
  });

  it("names the cell of a finding in a data row as Excel does", async () => {
    const book = workbook("titled-on-leave", (rows) => {
      (rows[4] as string[])[4] = "On leave"; // Grace, sheet row 5
    });
    const r = await runCli(["validate", book, "--mapping", mappingFile, "--format", "json"]);
    expect(r.code).toBe(1);
    expect(findingsOf(r.stdout)).toEqual([
      { code: "mapping.value", row: 5, cell: "Users!E5", field: "Employment Status" },
    ]);
  });

  it("takes the header at the headerRow the mapping names: the sheet's own row number", async () => {
    // a row above that also names the email column: the default search takes it, headerRow skips it
    const book = workbook("titled-decoy", (rows) => {
      rows[1] = ["Work Email", "(see below)"];
    });
    const own = join(work, "header-row-3.json");
    writeFileSync(own, JSON.stringify({ ...mapping, headerRow: 3 }));
    const r = await runCli(["validate", book, "--mapping", own, "--format", "json"]);
    expect(findingsOf(r.stdout)).toEqual([]);
    expect(JSON.parse(r.stdout).stats.users).toBe(4);
    expect(await convertedUsers(book, own)).toEqual(USERS);

    // a headerRow on an empty row, or past the rows: no header there, said once
    const blank = join(work, "header-row-2.json");
    writeFileSync(blank, JSON.stringify({ ...mapping, headerRow: 2 }));
    const none = await runCli(["validate", workbook("titled"), "--mapping", blank, "--format", "json"]);
    expect(none.code).toBe(1);
    expect(JSON.parse(none.stdout).findings.map((f: { message: string }) => f.message)).toEqual([
      'no header in row 2 has "Work Email", the email column of the mapping titled-report',
    ]);
  });

  it("reads a workbook whose header is its first row as before", async () => {
    const book = workbook("untitled", (rows) => {
      rows.splice(0, 2);
      rows.push(["Alonzo Church", "alonzo.church@example.com", "Research", "2023-02-01", "Active", "extra"]);
    });
    const r = await runCli(["validate", book, "--mapping", mappingFile, "--format", "json"]);
    expect(findingsOf(r.stdout)).toEqual([
      { code: "xlsx.cell.unheaded", row: 6, cell: "Users!F6", field: undefined },
    ]);
    expect(JSON.parse(r.stdout).stats.users).toBe(5);
  });
});

describe("the CSV file with a title above its header", () => {
  it("reads every user with the mapping, as the workbook does", async () => {
    const r = await runCli(["validate", csv, "--mapping", mappingFile, "--format", "json"]);
    expect(findingsOf(r.stdout)).toEqual([]);
    expect(await convertedUsers(csv)).toEqual(USERS);
  });
});

describe("mapping suggest of an export with a title above its header", () => {
  it.each([
    ["CSV file", () => csv, "line 3"],
    ["workbook", () => workbook("suggest-titled"), "row 3"],
  ])("finds the header of the %s and writes a mapping that reads it", async (_, file, where) => {
    const r = await runCli(["mapping", "suggest", file()]);
    expect(r.stderr).toContain(`header: ${where} (the rows above it are a title)\n`);
    expect(r.code).toBe(0);
    const document = JSON.parse(r.stdout);
    expect(document).toMatchObject({
      email: "Work Email",
      fullName: "Employee",
      status: { column: "Employment Status", values: { Active: "active", Terminated: "deleted" } },
    });
    // the default search of --mapping finds the same header: no headerRow needed
    expect(document.headerRow).toBeUndefined();
    const suggested = join(work, "suggested.json");
    writeFileSync(suggested, r.stdout);
    expect(await convertedUsers(file(), suggested)).toEqual(USERS);
  });

  it("writes headerRow when a row above the header would be taken for it", async () => {
    const book = workbook("suggest-decoy", (rows) => {
      rows[1] = ["Work Email", "(see below)"];
    });
    const r = await runCli(["mapping", "suggest", book]);
    expect(r.code).toBe(0);
    const document = JSON.parse(r.stdout);
    expect(document).toMatchObject({ email: "Work Email", headerRow: 3 });
    const suggested = join(work, "suggested-decoy.json");
    writeFileSync(suggested, r.stdout);
    expect(await convertedUsers(book, suggested)).toEqual(USERS);
  });

  it.each([
    ["CSV file", "csv"],
    ["workbook", "xlsx"],
  ])("of a %s without addresses fails, names its columns and writes nothing", async (_, format) => {
    const rows = [
      ["Headcount report"],
      [],
      ["Employee", "Department", "Hire Date"],
      ["Ada Lovelace", "Engineering", "2019-03-04"],
      ["Grace Hopper", "Operations", "2017-09-18"],
    ];
    const file = join(work, `no-addresses.${format}`);
    if (format === "csv") writeFileSync(file, `${rows.map((r) => r.join(",")).join("\n")}\n`);
    else
      writeFileSync(
        file,
        handWorkbook({
          rows: rows.map((cells, i) => (cells.length ? inlineRow(i + 1, cells) : "")).join(""),
        }),
      );
    const r = await runCli(["mapping", "suggest", file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`syncfile: no named column of ${file} holds email addresses`);
    expect(r.stderr).toContain('its columns: "Headcount report"');
  });
});
