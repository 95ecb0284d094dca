// Excel workbooks: the layouts the service documents, written by two different writers
// (exceljs and LibreOffice) read to the same document; each finding placed in its cell; what is
// no workbook said plainly; and JSON → xlsx → JSON giving the same document.

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import fc from "fast-check";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import {
  convertFile,
  JsonWriter,
  pipeDocument,
  type Report,
  validateFile,
  validateStream,
  XlsxWriter,
} from "../../src/index.js";
import {
  columnIndex,
  columnLetters,
  escapeText,
  isDateFormat,
  numberText,
  serialDate,
  unescapeText,
} from "../../src/xlsx/_cells.js";
import { canonical } from "../support/canonical.js";
import { chunked, stream, utf8 } from "../support/chunks.js";
import { serialize } from "../support/jsonAst.js";
import { fixture } from "../support/paths.js";
import { modelAst, validModelArb } from "../support/validDocument.js";
import { byteChangesArb, centralDirectoryOffset, changed } from "../support/zipArchives.js";

const dir = mkdtempSync(join(tmpdir(), "syncfile-xlsx-test-"));
let files = 0;
const temp = (name: string) => join(dir, `${files++}-${name}`);

/** The findings as [code, cell, pointer, field]. */
const where = (report: Report) => report.findings.map((f) => [f.code, f.cell, f.pointer, f.field]);

/** The workbook at `path` converted to JSON: the document and the report. */
async function toDocument(path: string, options = {}): Promise<{ document: unknown; report: Report }> {
  const out = temp("out.json");
  const report = await convertFile(path, out, { force: true, ...options });
  return { document: JSON.parse(readFileSync(out, "utf8")), report };
}

/** A document written as a workbook by XlsxWriter, in a file. */
async function toWorkbook(json: string, chunk = 1 << 16): Promise<string> {
  const parts: Uint8Array[] = [];
  const report = await pipeDocument(
    stream(chunked(utf8(json), chunk)),
    new XlsxWriter((b) => parts.push(b.slice())),
    {
      format: "json",
    },
  );
  expect(report.counts.error, JSON.stringify(report.findings)).toBe(0);
  const path = temp("doc.xlsx");
  writeFileSync(path, Buffer.concat(parts));
  return path;
}

const GOOGLE_SHEETS_DOCUMENT = {
  users: [
    {
      email: "ada@example.com",
      id: "1001",
      firstName: "Ada",
      lastName: "Lovelace",
      status: "active",
      externalStatus: "Active",
      roles: ["Admin", "Billing"],
      lastUsedDate: "2024-07-05",
    },
    {
      email: "zoe@example.com",
      id: "1002",
      firstName: "Zoë",
      lastName: "Ærøskøbing-Núñez",
      status: "deleted",
      externalStatus: "Gone",
      lastUsedDate: "2023-12-31",
    },
    {
      email: "grace@example.com",
      id: "1003",
      firstName: "Grace",
      lastName: "Hopper",
      status: "active",
      roles: ["Editor"],
      lastUsedDate: "2023-03-15",
    },
    { email: "alan@example.com", id: "1004", firstName: "Alan", status: "active" },
  ],
  licenses: [
    { name: "Pro", users: [{ email: "ada@example.com" }, { email: "grace@example.com" }] },
    { name: "Viewer", users: [{ email: "ada@example.com" }, { email: "zoe@example.com" }] },
  ],
};

describe("the service's layouts", () => {
  it("its Google Sheets template as CSV gives the document the workbooks give", async () => {
    const { document, report } = await toDocument(fixture("valid/google-sheets.csv"));
    expect(report).toMatchObject({ valid: true, format: "csv", findings: [] });
    expect(document).toEqual(GOOGLE_SHEETS_DOCUMENT);
  });

  it("its manual import (Email, Licenses, Last used date): licenses split at , and ;", async () => {
    const { document, report } = await toDocument(fixture("valid/manual-import.csv"));
    expect(report).toMatchObject({ valid: true, findings: [] });
    expect(document).toEqual({
      users: [
        { email: "ada@example.com", lastUsedDate: "2024-07-05" },
        { email: "zoe@example.com" },
        { email: "grace@example.com", lastUsedDate: "2023-03-15" },
      ],
      licenses: [
        {
          name: "Pro",
          users: [{ email: "ada@example.com" }, { email: "zoe@example.com" }, { email: "grace@example.com" }],
        },
        { name: "Viewer", users: [{ email: "ada@example.com" }, { email: "zoe@example.com" }] },
      ],
    });
  });
});

describe("the service's Google Sheets layout as a workbook", () => {
  it.each(["google-sheets.xlsx", "google-sheets-libreoffice.xlsx"])(
    "%s: ids as digits, date cells as YYYY-MM-DD, names split, lists, rich text, a formula's result",
    async (name) => {
      const { document, report } = await toDocument(fixture(`valid/${name}`));
      expect(report).toMatchObject({ valid: true, format: "xlsx", sheet: "Users", findings: [] });
      expect(document).toEqual(GOOGLE_SHEETS_DOCUMENT);
    },
  );

  it.each(["bad-status.xlsx", "bad-status-libreoffice.xlsx"])(
    "%s: a bad status is one finding, in its cell as Excel names it",
    async (name) => {
      const report = await validateFile(fixture(`workbooks/${name}`));
      expect(where(report)).toEqual([["user.status.enum", "Users!D3", "/users/1/status", "Status"]]);
      expect(report.findings[0]).toMatchObject({ row: 3, value: "Suspended" });
      expect(report.findings[0]?.line).toBeUndefined();
    },
  );
});

describe("sheets", () => {
  const workbook = fixture("workbooks/second-sheet.xlsx");

  it("reads the first visible sheet, and says where the data may be when it has no header", async () => {
    const report = await validateFile(workbook);
    expect(where(report)).toEqual([["csv.header.missing", "'Read me'!1:1", undefined, undefined]]);
    expect(report.findings[0]?.hint).toBe('if the data is on another sheet, name it with --sheet: "Users"');
  });

  it("keeps what the sheet's rows showed beside where else the data may be", async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet("Export").addRows([
      ["Primary mail", "Name"],
      ["ada@example.com", "Ada"],
    ]);
    book.addWorksheet("Users").addRow(["email"]);
    const path = temp("two-sheets.xlsx");
    await book.xlsx.writeFile(path);
    const report = await validateFile(path);
    expect(report.findings.map((f) => [f.code, f.hint])).toEqual([
      [
        "csv.header.missing",
        'column "Primary mail" holds email addresses: name it email; or, if the data is on another sheet, name it with --sheet: "Users"',
      ],
    ]);
  });

  it("reads the sheet named, in any case", async () => {
    for (const sheet of ["Users", "users"]) {
      const { document, report } = await toDocument(workbook, { sheet });
      expect(report).toMatchObject({ valid: true, sheet: "Users" });
      expect(document).toEqual(GOOGLE_SHEETS_DOCUMENT);
    }
  });

  it("an empty sheet is an empty file, at no row", async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet("Users");
    const path = temp("empty-sheet.xlsx");
    await book.xlsx.writeFile(path);
    const report = await validateFile(path);
    expect(report.findings.map((f) => [f.code, f.row, f.cell])).toEqual([
      ["csv.empty", undefined, undefined],
    ]);
  });

  it("names the sheets there are when the one asked for is not", async () => {
    const report = await validateFile(workbook, { sheet: "Staff" });
    expect(report.findings.map((f) => [f.code, f.message, f.hint])).toEqual([
      [
        "xlsx.sheet.missing",
        'the workbook has no sheet named "Staff"',
        'name one with --sheet: "Read me", "Users"',
      ],
    ]);
  });

  it("refuses a sheet for what is not a workbook", async () => {
    await expect(validateFile(fixture("valid/example.csv"), { sheet: "Users" })).rejects.toThrow(
      "sheet names a workbook's sheet",
    );
  });
});

describe("what is not a workbook", () => {
  const fileType = async (path: string, options = {}) => {
    const report = await validateFile(path, { format: "xlsx", ...options });
    expect(report.findings.map((f) => f.code)).toEqual(["file.type"]);
    return report.findings[0];
  };

  it("a password-protected workbook", async () => {
    const finding = await fileType(fixture("workbooks/protected.xlsx"));
    expect(finding?.message).toBe("the file is a password-protected (encrypted) Excel workbook");
    expect(finding?.hint).toContain("remove the password");
  });

  it("an old binary .xls workbook (saved by LibreOffice), read as a workbook or by its extension", async () => {
    const xls = fixture("workbooks/old-format.xls");
    expect((await fileType(xls))?.message).toBe(
      "the file is an old binary Excel workbook (.xls), not an .xlsx workbook",
    );
    const byExtension = await validateFile(xls);
    expect(byExtension.findings.map((f) => [f.code, f.hint])).toEqual([
      [
        "file.type",
        "open it in Excel or LibreOffice and save it as Excel Workbook (.xlsx) without a password, or as CSV UTF-8",
      ],
    ]);
  });

  it("JSON or CSV text, an empty file, a PDF, a ZIP of something else", async () => {
    expect((await fileType(fixture("valid/example.json")))?.hint).toBe(
      "name it .json, or give --input-format json",
    );
    expect((await fileType(fixture("valid/example.csv")))?.hint).toBe(
      "name it .csv, or give --input-format csv",
    );
    const empty = temp("empty.xlsx");
    writeFileSync(empty, "");
    expect((await fileType(empty))?.message).toBe("the file is empty, not an Excel workbook");
    const pdf = temp("scan.xlsx");
    writeFileSync(pdf, "%PDF-1.7\n");
    expect((await fileType(pdf))?.message).toBe("the file is a PDF document, not an Excel workbook");
    const docx = temp("letter.xlsx");
    writeFileSync(docx, zipSync({ "word/document.xml": utf8("<w:document/>") }));
    expect((await fileType(docx))?.message).toBe(
      "the file is a Word document (.docx), not an Excel workbook",
    );
    const zip = temp("archive.xlsx");
    writeFileSync(zip, zipSync({ "users.csv": utf8("email\na@x.io\n") }));
    expect((await fileType(zip))?.message).toBe("the file is a ZIP archive that holds no Excel workbook");
  });

  it("a workbook read as CSV or JSON is said to be one", async () => {
    for (const format of ["csv", "json"] as const) {
      const report = await validateFile(fixture("valid/google-sheets.xlsx"), { format });
      expect(report.findings.map((f) => [f.code, f.hint])).toEqual([
        [
          "file.type",
          "if it is an Excel workbook, name it .xlsx or add --input-format xlsx; otherwise unzip it and validate the file inside",
        ],
      ]);
    }
  });

  it("a workbook with any bytes changed gives a report, never an exception", async () => {
    const whole = readFileSync(fixture("workbooks/bad-status.xlsx"));
    await fc.assert(
      fc.asyncProperty(byteChangesArb(whole.length), async (changes) => {
        const bytes = changed(whole, changes);
        const path = temp("mutated.xlsx");
        writeFileSync(path, bytes);
        const report = await validateFile(path);
        for (const finding of report.findings) expect(finding.message).not.toMatch(/\{\w+\}/);
      }),
      { numRuns: 150 },
    );
  });

  it("damaged XML inside the ZIP is one finding", async () => {
    const path = temp("broken.xlsx");
    const good = await toWorkbook(readFileSync(fixture("valid/example.json"), "utf8"));
    const { unzipSync } = await import("fflate");
    const parts = unzipSync(readFileSync(good));
    parts["xl/worksheets/sheet1.xml"] = new TextEncoder().encode(
      '<worksheet><sheetData><row r="1"><c r="A1"',
    );
    writeFileSync(path, zipSync(parts));
    const report = await validateFile(path);
    expect(report.findings.map((f) => f.code)).toEqual(["xlsx.corrupt"]);
    expect(report.findings[0]?.message).toMatch(/^the workbook cannot be read: /);
  });

  it.each([
    [1, "not enough bytes in the stream. expected"],
    [-1, "too many bytes in the stream. expected"],
  ])(
    "a sheet whose inflated size is not the one its directory gives (%i) is damage, saying so",
    async (by, words) => {
      const good = readFileSync(await toWorkbook(readFileSync(fixture("valid/example.json"), "utf8")));
      const archive = Uint8Array.from(good);
      const view = new DataView(archive.buffer);
      const name = new TextEncoder().encode("xl/worksheets/sheet1.xml");
      // the sheet's record in the central directory: its uncompressed size, at 24
      let at = centralDirectoryOffset(archive);
      while (view.getUint32(at, true) === 0x02014b50) {
        const nameLength = view.getUint16(at + 28, true);
        const entry = archive.subarray(at + 46, at + 46 + nameLength);
        if (entry.length === name.length && entry.every((b, k) => b === name[k])) break;
        at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
      }
      expect(view.getUint32(at, true)).toBe(0x02014b50);
      view.setUint32(at + 24, view.getUint32(at + 24, true) + by, true);
      const path = temp("sized.xlsx");
      writeFileSync(path, archive);
      const report = await validateFile(path);
      expect(report.findings.map((f) => f.code)).toEqual(["xlsx.corrupt"]);
      expect(report.findings[0]?.message).toContain(words);
    },
  );

  it("a cell past column XFD is damage, found without building a row that long", async () => {
    // a damaged reference once grew a row's array to 169 M cells and ended the process
    const good = await toWorkbook(readFileSync(fixture("valid/example.json"), "utf8"));
    const { unzipSync } = await import("fflate");
    const parts = unzipSync(readFileSync(good));
    const sheet = (at: string) =>
      new TextEncoder().encode(
        `<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>email</t></is></c><c r="${at}" t="inlineStr"><is><t>x</t></is></c></row></sheetData></worksheet>`,
      );
    const path = temp("wide.xlsx");
    parts["xl/worksheets/sheet1.xml"] = sheet("ZZZZZZ1");
    writeFileSync(path, zipSync(parts));
    const past = await validateFile(path);
    expect(past.findings.map((f) => [f.code, f.message])).toEqual([
      ["xlsx.corrupt", 'the workbook cannot be read: a cell ("ZZZZZZ1") is past the last column, XFD'],
    ]);
    parts["xl/worksheets/sheet1.xml"] = sheet("XFD1");
    writeFileSync(path, zipSync(parts));
    const last = await validateFile(path);
    expect(last.findings.map((f) => f.code)).not.toContain("xlsx.corrupt");
  });
});

describe("cells", () => {
  it("dates: built-in and custom date formats, not numbers, 1900 and 1904 systems", () => {
    expect([14, 22, 45, 0, 2, 49].map((id) => isDateFormat(id, undefined))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(isDateFormat(164, "dd/mm/yyyy")).toBe(true);
    expect(isDateFormat(165, "[$-409]mmmm d, yyyy;@")).toBe(true);
    expect(isDateFormat(166, '0.00" days"')).toBe(false);
    expect(isDateFormat(167, "#,##0.00 [$EUR]")).toBe(false);
    expect(serialDate(45000, false)).toBe("2023-03-15");
    expect(serialDate(45000.75, false)).toBe("2023-03-15");
    expect(serialDate(1, false)).toBe("1900-01-01");
    expect(serialDate(0, true)).toBe("1904-01-01");
    expect(serialDate(-1, false)).toBeNull();
  });

  it("a workbook in the 1904 date system, named .xlsm, gives its dates as Excel shows them", async () => {
    const book = new ExcelJS.Workbook();
    book.properties.date1904 = true;
    const sheet = book.addWorksheet("Users");
    sheet.addRow(["Email", "Last used date"]);
    sheet.addRow(["ada@example.com", new Date(Date.UTC(2024, 6, 5))]);
    sheet.getColumn(2).numFmt = "yyyy-mm-dd";
    const path = temp("dates.xlsm");
    await book.xlsx.writeFile(path);
    const { unzipSync } = await import("fflate");
    const workbook = new TextDecoder().decode(unzipSync(readFileSync(path))["xl/workbook.xml"]);
    expect(workbook).toMatch(/date1904="(1|true)"/);
    const { document, report } = await toDocument(path);
    expect(report.format).toBe("xlsx");
    expect(document).toEqual({ users: [{ email: "ada@example.com", lastUsedDate: "2024-07-05" }] });
  });

  it("numbers as General shows them: whole numbers as digits", () => {
    expect(["1001", "1.5E3", "0.1", "0.30000000000000004", "12345678901234", "-3"].map(numberText)).toEqual([
      "1001",
      "1500",
      "0.1",
      "0.3",
      "12345678901234",
      "-3",
    ]);
  });

  it("column letters both ways", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 16383 }), (i) => columnIndex(`${columnLetters(i)}7`) === i),
    );
    expect([columnLetters(0), columnLetters(25), columnLetters(26), columnLetters(701)]).toEqual([
      "A",
      "Z",
      "AA",
      "ZZ",
    ]);
  });

  it("text XML cannot hold is escaped as _xHHHH_ and read back as written", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }),
        (text) => unescapeText(decodeEntities(escapeText(text))) === text,
      ),
    );
    expect(escapeText("a\rb_x0041_<")).toBe("a_x000D_b_x005F_x0041_&lt;");
  });
});

function decodeEntities(xml: string): string {
  return xml.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

describe("JSON → xlsx → JSON", () => {
  it('gives the same document, for documents whose texts hold , " newlines ; = and non-ASCII', async () => {
    await fc.assert(
      fc.asyncProperty(validModelArb, async (model) => {
        const json = serialize(modelAst(model), ["", " ", "\n"]);
        const path = await toWorkbook(json);
        const parts: string[] = [];
        const back = await validateFile(path);
        expect(back.counts, JSON.stringify(back.findings)).toMatchObject({ error: 0, warning: 0 });
        const report = await convertFile(path, temp("back.json"));
        expect(report.valid).toBe(true);
        parts.push(readFileSync(report.output?.file as string, "utf8"));
        expect(canonical(JSON.parse(parts[0] as string))).toEqual(canonical(JSON.parse(json)));
      }),
      { numRuns: 60 },
    );
  });

  it("is a workbook another reader opens: bold frozen header, sized columns, prices as numbers, formulas escaped", async () => {
    const json = JSON.stringify({
      users: [{ email: "ada@example.com", firstName: '=HYPERLINK("x")' }],
      licenses: [{ name: "Pro", pricePerUser: 1250, users: [{ email: "ada@example.com" }] }],
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await toWorkbook(json));
    const sheet = book.getWorksheet("Users");
    expect(sheet?.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet?.getRow(1).getCell(1)).toMatchObject({ value: "email", font: { bold: true } });
    expect(sheet?.getColumn(1).width).toBe("ada@example.com".length + 2);
    expect(sheet?.getCell("C2").value).toBe('\'=HYPERLINK("x")');
    expect(sheet?.getCell("K3").value).toBe(1250);
  });

  it("reads a stream (kept in a temporary file) as it reads a file", async () => {
    const path = fixture("workbooks/bad-status.xlsx");
    const report = await validateStream(stream(chunked(readFileSync(path), 1000)), { format: "xlsx" });
    expect(where(report)).toEqual(where(await validateFile(path)));
  });
});

describe("JsonWriter from a workbook", () => {
  it("writes as the workbook is read", async () => {
    let text = "";
    const report = await pipeDocument(
      stream([readFileSync(fixture("valid/google-sheets.xlsx"))]),
      new JsonWriter((s) => {
        text += s;
      }),
      { format: "xlsx" },
    );
    expect(report.valid).toBe(true);
    expect(JSON.parse(text)).toEqual(GOOGLE_SHEETS_DOCUMENT);
  });
});
