// Makes the workbook fixtures (committed; run again only to change them): each is written by
// exceljs, and the layouts a second time by LibreOffice (soffice --headless, which reads the
// exceljs file and writes its own), because readers differ on what writers produce. The
// password-protected one is encrypted by officecrypto-tool (an npm package, not a dependency).
// A few are written by hand, part by part, for what no writer produces (an index into the shared
// strings that points nowhere); `--hand-written` makes only those.
//
//   npm install --no-save officecrypto-tool && node scripts/make-workbook-fixtures.mjs
//   node scripts/make-workbook-fixtures.mjs --hand-written

import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { strToU8, zipSync } from "fflate";

const root = new URL("../fixtures/", import.meta.url).pathname;
const GOOGLE_SHEETS = [
  "Id",
  "Email",
  "Name",
  "Status",
  "External status",
  "Roles",
  "Licenses",
  "Last used date",
];
const day = (y, m, d) => new Date(Date.UTC(y, m - 1, d));

/** A workbook of `sheets`: [name, rows, how to touch the sheet][]. */
async function workbook(path, sheets) {
  const book = new ExcelJS.Workbook();
  book.creator = "syncfile fixtures";
  book.created = book.modified = new Date(Date.UTC(2026, 0, 1));
  for (const [name, rows, touch] of sheets) {
    const sheet = book.addWorksheet(name);
    for (const row of rows) sheet.addRow(row);
    touch?.(sheet);
  }
  await book.xlsx.writeFile(path);
}

const dates = (sheet) => {
  sheet.getColumn(8).numFmt = "dd/mm/yyyy";
};

// the service's Google Sheets template, as an admin fills it in Excel: numeric ids, dates as
// date cells, a name with accents, rich text, a formula with its result, lists with , and ;
const layout = [
  GOOGLE_SHEETS,
  [
    1001,
    "ada@example.com",
    "Ada Lovelace",
    "Active",
    "Active",
    "Admin, Billing",
    "Pro; Viewer",
    day(2024, 7, 5),
  ],
  [1002, "zoe@example.com", "Zoë Ærøskøbing-Núñez", "Deleted", "Gone", "", "Viewer", day(2023, 12, 31)],
  [
    1003,
    "grace@example.com",
    { richText: [{ text: "Grace " }, { font: { bold: true }, text: "Hopper" }] },
    { formula: 'PROPER("ACTIVE")', result: "Active" },
    "",
    "Editor",
    "Pro",
    45000,
  ],
  [1004, "alan@example.com", "Alan", "Active", "", "", "", ""],
];
const notes = [["These users are synced by syncfile."], ["Updated weekly."]];

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE = "http://schemas.openxmlformats.org/package/2006";
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/**
 * A workbook written part by part: one sheet "Users" of `rows` (each a list of texts, kept as
 * shared strings as Excel keeps them, or of XML `<c>` elements given as { xml }).
 */
function handWorkbook(path, rows, extraStrings = []) {
  const strings = [];
  const index = (text) => {
    const at = strings.indexOf(text);
    return at >= 0 ? at : strings.push(text) - 1;
  };
  const sheetRows = rows.map((cells, r) => {
    const xml = cells.map((cell, c) => {
      const ref = `${String.fromCharCode(65 + c)}${r + 1}`;
      return typeof cell === "string"
        ? `<c r="${ref}" t="s"><v>${index(cell)}</v></c>`
        : cell.xml.replace("REF", ref);
    });
    return `<row r="${r + 1}">${xml.join("")}</row>`;
  });
  for (const text of extraStrings) index(text);
  const si = strings.map((t) => `<si><t>${t}</t></si>`).join("");
  const parts = {
    "[Content_Types].xml": `${XML}<Types xmlns="${PACKAGE}/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    "_rels/.rels": `${XML}<Relationships xmlns="${PACKAGE}/relationships"><Relationship Id="rId1" Type="${RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml": `${XML}<workbook xmlns="${MAIN}" xmlns:r="${RELS}"><sheets><sheet name="Users" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": `${XML}<Relationships xmlns="${PACKAGE}/relationships"><Relationship Id="rId1" Type="${RELS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${RELS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    "xl/worksheets/sheet1.xml": `${XML}<worksheet xmlns="${MAIN}"><sheetData>${sheetRows.join("")}</sheetData></worksheet>`,
    "xl/sharedStrings.xml": `${XML}<sst xmlns="${MAIN}" count="${strings.length}" uniqueCount="${strings.length}">${si}</sst>`,
  };
  const files = Object.fromEntries(Object.entries(parts).map(([name, text]) => [name, strToU8(text)]));
  // a fixed time, so that making them again gives the same bytes
  writeFileSync(path, zipSync(files, { mtime: new Date(Date.UTC(2026, 0, 1)) }));
}

// what the readers' limits and damaged workbooks give; the fixtures test reads the size ones
// with a limit of 100 bytes (maxRecordBytes)
function handWritten() {
  const header = ["Email", "First name", "Status"];
  const ada = ["ada@example.com", "Ada", "active"];
  handWorkbook(join(root, "invalid/xlsx.cell.size.xlsx"), [
    header,
    ada,
    ["bob@example.com", "B".repeat(150), "active"],
  ]);
  handWorkbook(join(root, "invalid/xlsx.row.size.xlsx"), [
    header,
    ada,
    ["bob@example.com", "Bob ".repeat(12), "active ".repeat(6)],
  ]);
  handWorkbook(join(root, "invalid/xlsx.string.index.xlsx"), [
    header,
    ada,
    ["bob@example.com", { xml: '<c r="REF" t="s"><v>7</v></c>' }, "active"],
  ]);
}

async function main() {
  handWritten();
  const dir = mkdtempSync(join(tmpdir(), "syncfile-fixtures-"));
  try {
    await workbook(join(root, "valid/google-sheets.xlsx"), [
      ["Users", layout, dates],
      ["Notes", notes],
    ]);
    await workbook(join(root, "workbooks/second-sheet.xlsx"), [
      ["Read me", notes],
      ["Users", layout, dates],
    ]);
    const bad = layout.map((row) => [...row]);
    bad[2][3] = "Suspended";
    await workbook(join(root, "workbooks/bad-status.xlsx"), [["Users", bad, dates]]);

    // one per finding of the workbook reader
    const header = ["Email", "First name", "Status"];
    await workbook(join(root, "invalid/xlsx.formula.value.xlsx"), [
      [
        "Users",
        [
          header,
          ["ada@example.com", "Ada", "active"],
          ["bob@example.com", "Bob", { formula: 'LOWER("ACTIVE")' }],
        ],
      ],
    ]);
    await workbook(join(root, "invalid/xlsx.cell.error.xlsx"), [
      [
        "Users",
        [header, ["ada@example.com", "Ada", "active"], ["bob@example.com", { error: "#N/A" }, "active"]],
      ],
    ]);
    await workbook(join(root, "invalid/xlsx.cell.unheaded.xlsx"), [
      [
        "Users",
        [header, ["ada@example.com", "Ada", "active", "", "call back"], ["bob@example.com", "Bob", "active"]],
      ],
    ]);
    await workbook(join(root, "invalid/xlsx.sheet.missing.xlsx"), [
      [
        "Users",
        [header, ["ada@example.com", "Ada", "active"]],
        (sheet) => {
          sheet.state = "hidden";
        },
      ],
    ]);
    // a workbook cut short: its ZIP has no central directory
    const whole = readFileSync(join(root, "valid/google-sheets.xlsx"));
    writeFileSync(join(root, "invalid/xlsx.corrupt.xlsx"), whole.subarray(0, Math.floor(whole.length / 2)));

    // the second writer: LibreOffice reads each layout and writes it again
    for (const [from, to] of [
      ["valid/google-sheets.xlsx", "valid/google-sheets-libreoffice.xlsx"],
      ["workbooks/bad-status.xlsx", "workbooks/bad-status-libreoffice.xlsx"],
    ]) {
      const input = join(dir, "input.xlsx");
      copyFileSync(join(root, from), input);
      execFileSync(
        "soffice",
        ["--headless", "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", join(dir, "out"), input],
        {
          stdio: "ignore",
          env: { ...process.env, HOME: dir },
        },
      );
      copyFileSync(join(dir, "out/input.xlsx"), join(root, to));
    }
    // the old binary format, by LibreOffice
    execFileSync(
      "soffice",
      [
        "--headless",
        "--convert-to",
        "xls",
        "--outdir",
        join(dir, "xls"),
        join(root, "valid/google-sheets.xlsx"),
      ],
      {
        stdio: "ignore",
        env: { ...process.env, HOME: dir },
      },
    );
    copyFileSync(join(dir, "xls/google-sheets.xls"), join(root, "workbooks/old-format.xls"));
    // password-protected: "secret"
    const { encrypt } = (await import("officecrypto-tool")).default;
    writeFileSync(join(root, "workbooks/protected.xlsx"), await encrypt(whole, { password: "secret" }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes("--hand-written")) handWritten();
else await main();
