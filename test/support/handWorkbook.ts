// Workbooks written by hand, part by part: what no writer produces (a shared-string index that
// points nowhere) and what is too large to hold (a cell of hundreds of MB, streamed into the
// deflater piece by piece, so the test never holds it either — the archive stays small).

import { Zip, ZipDeflate } from "fflate";

const encoder = new TextEncoder();

/** A part's text, whole or as pieces (themselves texts) produced one at a time. */
export type PartText = string | Iterable<PartText>;

/** What goes into a hand-written workbook: its one sheet "Users" and its shared strings. */
export interface HandWorkbook {
  /** The worksheet's rows: the inside of `<sheetData>`. */
  rows: PartText;
  /** The `<si>` elements of the shared strings part, or none (no such part). */
  strings?: PartText;
}

const WORKBOOK = `<?xml version="1.0" encoding="UTF-8"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Users" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_RELS = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${RELS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

/** The workbook's bytes (an .xlsx archive). */
export function handWorkbook(book: HandWorkbook): Uint8Array {
  const out: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    out.push(chunk);
  });
  const part = (name: string, ...texts: PartText[]) => {
    const file = new ZipDeflate(name, { level: 6 });
    zip.add(file);
    const write = (text: PartText): void => {
      if (typeof text === "string") file.push(encoder.encode(text));
      else for (const piece of text) write(piece);
    };
    for (const text of texts) write(text);
    file.push(new Uint8Array(0), true);
  };
  part("_rels/.rels", PACKAGE_RELS);
  part("xl/workbook.xml", WORKBOOK);
  part("xl/_rels/workbook.xml.rels", WORKBOOK_RELS);
  part(
    "xl/worksheets/sheet1.xml",
    `<worksheet xmlns="${MAIN}"><sheetData>`,
    book.rows,
    "</sheetData></worksheet>",
  );
  if (book.strings !== undefined)
    part("xl/sharedStrings.xml", `<sst xmlns="${MAIN}">`, book.strings, "</sst>");
  zip.end();
  return Buffer.concat(out);
}

/** `count` pieces of `piece`: a text of any length, never held whole. */
export function* repeated(piece: string, count: number): Generator<string> {
  for (let k = 0; k < count; k++) yield piece;
}

/** A row of inline-string cells, from column A. */
export function inlineRow(row: number, cells: readonly string[]): string {
  const c = cells.map(
    (text, k) => `<c r="${String.fromCharCode(65 + k)}${row}" t="inlineStr"><is><t>${text}</t></is></c>`,
  );
  return `<row r="${row}">${c.join("")}</row>`;
}
