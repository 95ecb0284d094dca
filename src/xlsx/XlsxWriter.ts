// Writes the data file as an Excel workbook in the canonical layout — the rows CsvWriter
// writes, on one sheet "Users" — streaming: the sheet's XML is deflated into the ZIP as the
// rows come (fflate). The header row is bold and frozen; columns are as wide as the header
// and the first rows need; formula-like text is escaped as in CSV. Cells are text, but for
// the prices, whole numbers written as numbers.

import { Zip, ZipDeflate } from "fflate";
import { CanonicalRows, type CsvWriterOptions, type Row } from "../csv/CsvWriter.js";
import { CANONICAL_COLUMNS } from "../csv/columns.js";
import { columnLetters, escapeText } from "./_cells.js";

/** Where written bytes go. */
export type ByteOut = (bytes: Uint8Array) => void;

/** The name of the sheet written. */
export const SHEET_NAME = "Users";

const NUMERIC = new Set(
  ["pricePerUser", "unassignedAmount"].map((c) => CANONICAL_COLUMNS.indexOf(c as never)),
);
// rows looked at to size the columns before the sheet starts
const SIZING_ROWS = 1000;
const MIN_WIDTH = 8;
const MAX_WIDTH = 60;

const encoder = new TextEncoder();

/** A DocumentWriter producing an .xlsx workbook. */
export class XlsxWriter extends CanonicalRows {
  readonly #zip: Zip;
  readonly #sheet: ZipDeflate;
  #held: Row[] | null = [];
  #row = 1;
  #text = "";

  constructor(out: ByteOut, options: CsvWriterOptions = {}) {
    super(options);
    this.#zip = new Zip((error, data) => {
      if (error) throw error;
      out(data);
    });
    for (const [name, xml] of PARTS) this.#part(name, xml);
    this.#sheet = new ZipDeflate("xl/worksheets/sheet1.xml", { level: 6 });
    this.#zip.add(this.#sheet);
  }

  protected writeRows(rows: Row[]): void {
    if (this.#held) {
      this.#held.push(...rows);
      if (this.#held.length >= SIZING_ROWS) this.#start();
      return;
    }
    for (const row of rows) this.#writeRow(row);
    this.#flush(false);
  }

  protected finish(): void {
    if (this.#held) this.#start();
    this.#text += "</sheetData></worksheet>";
    this.#flush(true);
    this.#zip.end();
  }

  /** The sheet's start, its columns sized by the rows held so far, then those rows. */
  #start(): void {
    const held = this.#held ?? [];
    this.#held = null;
    const widths = CANONICAL_COLUMNS.map((name) => name.length + 2);
    for (const row of held) {
      row.forEach((cell, i) => {
        widths[i] = Math.max(widths[i] as number, cell.length + 2);
      });
    }
    const cols = widths
      .map(
        (w, i) =>
          `<col min="${i + 1}" max="${i + 1}" width="${Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, w))}" customWidth="1"/>`,
      )
      .join("");
    this.#text +=
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
      `<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>` +
      `<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>` +
      `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>`;
    this.#writeRow(CANONICAL_COLUMNS as unknown as Row, 1);
    for (const row of held) this.#writeRow(row);
    this.#flush(false);
  }

  #writeRow(row: Row, style = 0): void {
    const r = this.#row++;
    let xml = `<row r="${r}">`;
    for (let i = 0; i < row.length; i++) {
      const cell = row[i] as string;
      if (cell === "") continue;
      const ref = `${columnLetters(i)}${r}`;
      const s = style ? ` s="${style}"` : "";
      xml +=
        NUMERIC.has(i) && /^-?\d{1,15}$/.test(cell)
          ? `<c r="${ref}"${s}><v>${cell}</v></c>`
          : `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${escapeText(cell)}</t></is></c>`;
    }
    this.#text += `${xml}</row>`;
  }

  #flush(final: boolean): void {
    if (this.#text === "" && !final) return;
    this.#sheet.push(encoder.encode(this.#text), final);
    this.#text = "";
  }

  #part(name: string, xml: string): void {
    const part = new ZipDeflate(name, { level: 6 });
    this.#zip.add(part);
    part.push(encoder.encode(xml), true);
  }
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";
const DOC_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

const PARTS: readonly (readonly [string, string])[] = [
  [
    "[Content_Types].xml",
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
      `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
      `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
      `</Types>`,
  ],
  [
    "_rels/.rels",
    `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
      `<Relationship Id="rId1" Type="${DOC_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ],
  [
    "xl/workbook.xml",
    `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
      `<bookViews><workbookView/></bookViews><sheets><sheet name="${SHEET_NAME}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ],
  [
    "xl/_rels/workbook.xml.rels",
    `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
      `<Relationship Id="rId1" Type="${DOC_REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${DOC_REL}/styles" Target="styles.xml"/></Relationships>`,
  ],
  [
    "xl/styles.xml",
    `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
      `<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>` +
      `<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>` +
      `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
      `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
      `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
      `<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
      `<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>` +
      `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
  ],
];
