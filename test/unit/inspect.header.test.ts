// The raw layout's header, found below a title (issue 50): what `mapping suggest` and the page's
// mapping step read. The first rows are held until one looks like a user's; the row above it is
// the header, and every row held after it is read once — in files of no row, one row, only a
// header, no address at all, and one whose reading ends while rows are held.

import { describe, expect, it } from "vitest";
import { blobRange } from "../../src/bytes/ByteRange.js";
import { type ExportInspection, inspectExport } from "../../src/validate/inspectExport.js";
import { handWorkbook, inlineRow } from "../support/handWorkbook.js";

function inspectCsv(text: string): Promise<ExportInspection> {
  const bytes = new TextEncoder().encode(text);
  const chunks = (async function* () {
    yield bytes;
  })();
  return inspectExport({ format: "csv", chunks }, "export");
}

/** Each of a column's values as often as it was read, in order of first reading. */
const read = (inspection: ExportInspection, column: number): string[] =>
  (inspection.values[column] ?? []).flatMap(([value, count]) => Array<string>(count).fill(value));

const TITLED =
  "Headcount report - exported by admin@example.com\n\nEmployee,Work Email,Status\n" +
  "Ada Lovelace,ada@example.com,Active\nGrace Hopper,grace@example.com,Terminated\nAlan Turing,alan@example.com,Active\n";

describe("the header of an export read raw", () => {
  it("is the row above the first row of a user, below a title and a blank line", async () => {
    const found = await inspectCsv(TITLED);
    expect(found.header).toEqual(["Employee", "Work Email", "Status"]);
    expect(read(found, 1)).toEqual(["ada@example.com", "grace@example.com", "alan@example.com"]);
    expect(found.rows).toHaveLength(3);
    expect(found.suggestion.notes[0]).toBe("header: line 3 (the rows above it are a title)");
    expect(found.suggestion.document).toMatchObject({ email: "Work Email", fullName: "Employee" });
    expect(found.suggestion.document.headerRow).toBeUndefined();
  });

  it("is the first row, as always, when it is the header, with nothing said about it", async () => {
    const found = await inspectCsv(TITLED.slice(TITLED.indexOf("Employee")));
    expect(found.header).toEqual(["Employee", "Work Email", "Status"]);
    expect(found.rows).toHaveLength(3);
    expect(found.suggestion.notes.join("\n")).not.toContain("header:");
  });

  it("is found under many lines of preamble", async () => {
    const preamble = Array.from({ length: 40 }, (_, i) => `note ${i}`).join("\n");
    const found = await inspectCsv(`${preamble}\n${TITLED}`);
    expect(found.header).toEqual(["Employee", "Work Email", "Status"]);
    expect(found.rows).toHaveLength(3);
    expect(found.suggestion.notes[0]).toBe("header: line 43 (the rows above it are a title)");
  });

  it("is not a first user without an address, nor a title of two cells", async () => {
    const bot = "Name,Email,Department\nBuild Bot,,Engineering\nAda Lovelace,ada@example.com,Engineering\n";
    const first = await inspectCsv(bot);
    expect(first.header).toEqual(["Name", "Email", "Department"]);
    expect(read(first, 0)).toEqual(["Build Bot", "Ada Lovelace"]);
    const titled = await inspectCsv(`Headcount report,July 2024\n\n${bot}`);
    expect(titled.header).toEqual(["Name", "Email", "Department"]);
    expect(titled.suggestion.notes[0]).toBe("header: line 3 (the rows above it are a title)");
    // a header naming fewer cells than a user's row fills is still the row above it
    const unnamed = await inspectCsv("Report\n,Name,Email\n1,Ada Lovelace,ada@example.com\n");
    expect(unnamed.header).toEqual(["", "Name", "Email"]);
  });

  it("is the first row when no row holds an address, and no row is lost or read twice", async () => {
    const rows = Array.from({ length: 80 }, (_, i) => `r${i + 1},x`);
    const found = await inspectCsv(`${rows.join("\n")}\n`);
    expect(found.header).toEqual(["r1", "x"]);
    expect(read(found, 0)).toEqual(rows.slice(1).map((r) => r.split(",")[0]));
  });

  it("is the row itself in a file of one row, of only a header, or of one user; none in an empty file", async () => {
    expect((await inspectCsv("Employee,Work Email\n")).header).toEqual(["Employee", "Work Email"]);
    expect((await inspectCsv("Title\n\nEmployee,Work Email\n")).header).toEqual(["Title"]);
    const user = await inspectCsv("Ada Lovelace,ada@example.com\n");
    expect(user.header).toEqual(["Ada Lovelace", "ada@example.com"]);
    expect(user.rows).toEqual([]);
    const empty = await inspectCsv("");
    expect(empty.header).toBeNull();
    expect(empty.rows).toEqual([]);
  });

  it("and the rows held are read when reading ends early, before a row showed which it is", async () => {
    const found = await inspectCsv('Name,Team\nAda,Engineering\nGrace,"Operations\n');
    expect(found.header).toEqual(["Name", "Team"]);
    expect(read(found, 0)).toEqual(["Ada"]);
    expect(found.problem).toMatch(/^csv\.quote/);
  });

  it("is found in a workbook, its rows fitted to the header's width as always", async () => {
    const book = handWorkbook({
      rows: [
        inlineRow(1, ["Headcount report"]),
        inlineRow(3, ["Employee", "Work Email", "Status"]),
        inlineRow(4, ["Ada Lovelace", "ada@example.com", "Active"]),
        inlineRow(5, ["Grace Hopper", "grace@example.com"]), // no status: the cell is empty
        inlineRow(6, ["Alan Turing", "alan@example.com", "Active"]),
      ].join(""),
    });
    const found = await inspectExport({ format: "xlsx", range: blobRange(new Blob([book])) }, "book");
    expect(found.header).toEqual(["Employee", "Work Email", "Status"]);
    expect(found.rows).toEqual([
      ["Ada Lovelace", "ada@example.com", "Active"],
      ["Grace Hopper", "grace@example.com", ""],
      ["Alan Turing", "alan@example.com", "Active"],
    ]);
    expect(found.suggestion.notes[0]).toBe("header: row 3 (the rows above it are a title)");
  });
});
