// A workbook's cells and rows get the limit of a CSV row (maxRecordBytes): a cell or a row past it
// is a finding at its cell that ends reading, as an oversized CSV row does, whether the text is a
// shared string, an inline string or a plain value — and it is found in bounded memory, the text
// past the limit never held. A shared-string index that points nowhere is a finding at its cell.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { type Report, type ValidateOptions, validateFile } from "../../src/index.js";
import { expectRendered } from "../support/expectFinding.js";
import { type HandWorkbook, handWorkbook, inlineRow, repeated } from "../support/handWorkbook.js";

const dir = mkdtempSync(join(tmpdir(), "syncfile-xlsx-limits-"));
let files = 0;

async function validate(book: HandWorkbook, options: ValidateOptions = {}): Promise<Report> {
  const path = join(dir, `${files++}.xlsx`);
  writeFileSync(path, handWorkbook(book));
  const report = await validateFile(path, options);
  for (const finding of report.findings) expectRendered(finding);
  return report;
}

/** The findings as [code, cell, field]. */
const where = (report: Report) => report.findings.map((f) => [f.code, f.cell, f.field]);

const HEADER = inlineRow(1, ["Email", "First name", "Status"]);
const LIMIT = { maxRecordBytes: 100 };
const LONG = "x".repeat(101);
/** A second data row whose status is wrong: read only when reading went on past row 2. */
const BAD_ROW_3 = inlineRow(3, ["bob@example.com", "Bob", "Suspended"]);

/** Row 2 with `cell` (a `<c>` element, at B2) as the first name. */
const row2 = (cell: string) =>
  `<row r="2"><c r="A2" t="inlineStr"><is><t>ada@example.com</t></is></c>${cell}<c r="C2" t="inlineStr"><is><t>active</t></is></c></row>`;

describe("a cell larger than the limit", () => {
  it("as a shared string: a finding at the cell that uses it, and reading ends there", async () => {
    const strings = `<si><t>${LONG}</t></si><si><t>ok</t></si>`;
    const report = await validate(
      { rows: [HEADER, row2('<c r="B2" t="s"><v>0</v></c>'), BAD_ROW_3], strings },
      LIMIT,
    );
    expect(where(report)).toEqual([["xlsx.cell.size", "Users!B2", "First name"]]);
    expect(report.valid).toBe(false);
    expect(report.findings[0]?.message).toBe("this cell is larger than the limit of 100 bytes");
  });

  it("as a shared string no cell uses: nothing to say", async () => {
    const strings = `<si><t>${LONG}</t></si><si><t>Ada</t></si>`;
    const report = await validate({ rows: [HEADER, row2('<c r="B2" t="s"><v>1</v></c>')], strings }, LIMIT);
    expect(where(report)).toEqual([]);
  });

  it("as a shared string of rich-text runs, each under the limit", async () => {
    const runs = repeated("<r><t>xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx</t></r>", 3);
    const report = await validate(
      { rows: [HEADER, row2('<c r="B2" t="s"><v>0</v></c>')], strings: ["<si>", ...runs, "</si>"] },
      LIMIT,
    );
    expect(where(report)).toEqual([["xlsx.cell.size", "Users!B2", "First name"]]);
  });

  it("as an inline string", async () => {
    const cell = `<c r="B2" t="inlineStr"><is><t>${LONG}</t></is></c>`;
    const report = await validate({ rows: [HEADER, row2(cell), BAD_ROW_3] }, LIMIT);
    expect(where(report)).toEqual([["xlsx.cell.size", "Users!B2", "First name"]]);
  });

  it("as a plain value, a formula's text result, or in CDATA", async () => {
    for (const cell of [
      `<c r="B2"><v>${LONG}</v></c>`,
      `<c r="B2" t="str"><f>A1</f><v>${LONG}</v></c>`,
      `<c r="B2"><v><![CDATA[${LONG}]]></v></c>`,
    ]) {
      const report = await validate({ rows: [HEADER, row2(cell), BAD_ROW_3] }, LIMIT);
      expect(where(report), cell).toEqual([["xlsx.cell.size", "Users!B2", "First name"]]);
    }
  });

  it("counts bytes as UTF-8, as a CSV row's limit does", async () => {
    // 51 characters, 102 bytes
    const cell = `<c r="B2" t="inlineStr"><is><t>${"é".repeat(51)}</t></is></c>`;
    const report = await validate({ rows: [HEADER, row2(cell)] }, LIMIT);
    expect(where(report)).toEqual([["xlsx.cell.size", "Users!B2", "First name"]]);
  });

  it("in the header row, and in a column without a header", async () => {
    const header = await validate({ rows: [inlineRow(1, ["Email", LONG, "Status"])] }, LIMIT);
    expect(where(header)).toEqual([["xlsx.cell.size", "Users!B1", undefined]]);
    const unheaded = await validate(
      { rows: [HEADER, inlineRow(2, ["ada@example.com", "Ada", "active", LONG]), BAD_ROW_3] },
      LIMIT,
    );
    expect(where(unheaded)).toEqual([["xlsx.cell.size", "Users!D2", undefined]]);
  });
});

describe("a row larger than the limit", () => {
  it("is a finding at the cell that takes it past the limit, and reading ends there", async () => {
    const forty = "y".repeat(40);
    const report = await validate(
      { rows: [HEADER, inlineRow(2, ["ada@example.com", forty, forty, forty]), BAD_ROW_3] },
      LIMIT,
    );
    expect(where(report)).toEqual([["xlsx.row.size", "Users!D2", undefined]]);
    expect(report.findings[0]?.message).toBe("this row is larger than the limit of 100 bytes");
  });

  it("as shared strings each under the limit", async () => {
    const strings = `<si><t>${"z".repeat(60)}</t></si>`;
    const cells = '<c r="B2" t="s"><v>0</v></c><c r="C2" t="s"><v>0</v></c>';
    const report = await validate(
      {
        rows: [HEADER, `<row r="2"><c r="A2" t="inlineStr"><is><t>a@b.co</t></is></c>${cells}</row>`],
        strings,
      },
      LIMIT,
    );
    expect(where(report)).toEqual([["xlsx.row.size", "Users!C2", "Status"]]);
  });

  it("a row at the limit is read", async () => {
    // 15 + 79 + 6 bytes: exactly 100
    const report = await validate(
      { rows: [HEADER, inlineRow(2, ["ada@example.com", "n".repeat(79), "active"])] },
      LIMIT,
    );
    expect(where(report)).toEqual([]);
  });
});

describe("a shared-string index that points nowhere", () => {
  it("is a finding at its cell, read as empty, and reading goes on", async () => {
    const strings = "<si><t>Ada</t></si>";
    for (const index of ["-1", "0.5", "one", "", "1", "99"]) {
      const report = await validate({
        rows: [HEADER, row2(`<c r="B2" t="s"><v>${index}</v></c>`), BAD_ROW_3],
        strings,
      });
      expect(where(report), JSON.stringify(index)).toEqual([
        ["xlsx.string.index", "Users!B2", "First name"],
        ["user.status.enum", "Users!C3", "Status"],
      ]);
      expect(report.findings[0]?.value, JSON.stringify(index)).toBe(index);
    }
  });

  it("in a workbook without shared strings", async () => {
    const report = await validate({ rows: [HEADER, row2('<c r="B2" t="s"><v>0</v></c>')] });
    expect(where(report)).toEqual([["xlsx.string.index", "Users!B2", "First name"]]);
    expect(report.findings[0]?.message).toBe(
      "this cell refers to shared string 0, which the workbook does not have; it is read as empty",
    );
  });
});

describe("markup that grows without end", () => {
  it("an attribute, a comment or a name of millions of characters: a damaged workbook", async () => {
    const piece = "1".repeat(1 << 16);
    for (const [open, close] of [
      ['<row r="2"><c r="A2" s="', '"/></row>'],
      ["<!--", "-->"],
      ["<row", "/>"],
    ] as const) {
      const report = await validate({ rows: [HEADER, open, repeated(piece, 40), close] });
      expect(where(report), open).toEqual([["xlsx.corrupt", undefined, undefined]]);
      expect(report.findings[0]?.message, open).toMatch(/is longer than 1048576 characters$/);
    }
  });
});

// V8's own collector, so that what is measured is what is held, not what is not yet collected
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** How much more heap and buffer memory validating `book` held at most than before it. */
async function memoryGrowth(book: HandWorkbook): Promise<{ report: Report; growth: number }> {
  const path = join(dir, `${files++}.xlsx`);
  const archive = handWorkbook(book);
  expect(archive.length).toBeLessThan(2 << 20); // a small file
  writeFileSync(path, archive);
  gc();
  const held = () => {
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const before = held();
  let peak = before;
  const sample = () => {
    peak = Math.max(peak, held());
  };
  // sampled after each piece of the sheet (while a cell's text is read), and whenever the event
  // loop turns (between the pieces the ZIP inflates, the shared strings' too)
  let reading = true;
  const turn = () => {
    sample();
    if (reading) setImmediate(turn);
  };
  setImmediate(turn);
  const report = await validateFile(path, { onProgress: sample }).finally(() => {
    reading = false;
  });
  sample();
  return { report, growth: peak - before };
}

const MB = 1 << 20;
/** ~200 MB of text, produced in pieces of 1 MB. */
const huge = () => repeated("x".repeat(MB), 200);

describe("a cell of 200 MB in a small workbook", () => {
  it("as an inline string: refused at its cell, holding at most tens of MB", async () => {
    const rows = [HEADER, '<row r="2"><c r="A2" t="inlineStr"><is><t>', huge(), "</t></is></c></row>"];
    const { report, growth } = await memoryGrowth({ rows });
    expect(where(report)).toEqual([["xlsx.cell.size", "Users!A2", "Email"]]);
    expect(growth / MB).toBeLessThan(48);
  });

  it("as a shared string: refused at its cell, holding at most tens of MB", async () => {
    const strings = ["<si><t>", huge(), "</t></si>"];
    const { report, growth } = await memoryGrowth({
      rows: [HEADER, row2('<c r="B2" t="s"><v>0</v></c>')],
      strings,
    });
    expect(where(report)).toEqual([["xlsx.cell.size", "Users!B2", "First name"]]);
    expect(growth / MB).toBeLessThan(48);
  });
});
