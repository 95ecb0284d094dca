// The parts of a workbook a sheet's values depend on: which sheets there are and where
// (workbook.xml and its relationships), the shared strings and which cell styles are dates.

import type { Buffer } from "../bytes/buffer.js";
import { BoundedText } from "./_BoundedText.js";
import { isDateFormat, unescapeText } from "./_cells.js";
import { relationshipsPart, targetPart } from "./_partNames.js";
import { readPart } from "./_readPart.js";
import { SharedStrings } from "./_SharedStrings.js";
import type { ScanHandler, ScannedTag } from "./_scanXml.js";
import { parseXml, type XmlHandler } from "./_xml.js";
import type { ZipArchive, ZipEntry } from "./_ZipArchive.js";

/** A sheet as the workbook lists it, in tab order. */
export interface SheetEntry {
  name: string;
  hidden: boolean;
  /** The worksheet part, or null when the sheet is a chart or its part is missing. */
  part: ZipEntry | null;
}

/** A workbook's sheets and the settings their values need. */
export interface WorkbookParts {
  sheets: SheetEntry[];
  date1904: boolean;
  stylesPart: ZipEntry | null;
  stringsPart: ZipEntry | null;
}

const OFFICE_DOCUMENT = /\/officeDocument$/;

async function partText(zip: ZipArchive, entry: ZipEntry, handler: XmlHandler): Promise<void> {
  await parseXml(await zip.read(entry), handler);
}

/** The relationships of `part`: id → target part name and type. */
async function relationships(
  zip: ZipArchive,
  part: string,
): Promise<Map<string, { target: string; type: string }>> {
  const rels = zip.entry(relationshipsPart(part));
  const found = new Map<string, { target: string; type: string }>();
  if (!rels) return found;
  await partText(zip, rels, {
    open(name, a) {
      if (name !== "Relationship" || !a.Id || !a.Target || a.TargetMode === "External") return;
      found.set(a.Id, { target: targetPart(part, a.Target), type: a.Type ?? "" });
    },
  });
  return found;
}

/** The workbook part's name (by the package's relationships), or null when there is none. */
export async function workbookPart(zip: ZipArchive): Promise<string | null> {
  for (const rel of (await relationships(zip, "")).values()) {
    if (OFFICE_DOCUMENT.test(rel.type) && zip.entry(rel.target)) return rel.target;
  }
  return zip.entry("xl/workbook.xml") ? "xl/workbook.xml" : null;
}

/** The sheets of the workbook part `part`, and where its strings and styles are. */
export async function readWorkbookPart(zip: ZipArchive, part: string): Promise<WorkbookParts> {
  const rels = await relationships(zip, part);
  const listed: { name: string; hidden: boolean; id: string }[] = [];
  let date1904 = false;
  await partText(zip, zip.entry(part) as ZipEntry, {
    open(name, a) {
      if (name === "workbookPr") date1904 = a.date1904 === "1" || a.date1904 === "true";
      else if (name === "sheet") {
        const id = a["r:id"] ?? Object.entries(a).find(([k]) => k.endsWith(":id"))?.[1] ?? "";
        listed.push({ name: a.name ?? "", hidden: a.state === "hidden" || a.state === "veryHidden", id });
      }
    },
  });
  const byType = (suffix: string) => {
    for (const rel of rels.values()) if (rel.type.endsWith(suffix)) return zip.entry(rel.target) ?? null;
    return null;
  };
  const sheets = listed.map(({ name, hidden, id }) => {
    const rel = rels.get(id);
    if (!rel?.type.endsWith("/worksheet")) return { name, hidden, part: null };
    return { name, hidden, part: zip.entry(rel.target) ?? null };
  });
  return { sheets, date1904, stylesPart: byType("/styles"), stringsPart: byType("/sharedStrings") };
}

/** Whether each cell style (index into cellXfs) shows a date. */
export async function readDateStyles(zip: ZipArchive, part: ZipEntry | null): Promise<boolean[]> {
  const styles: boolean[] = [];
  if (!part) return styles;
  const formats = new Map<number, string>();
  let inCellXfs = false;
  await partText(zip, part, {
    open(name, a) {
      if (name === "numFmt") formats.set(Number(a.numFmtId), a.formatCode ?? "");
      else if (name === "cellXfs") inCellXfs = true;
      else if (name === "xf" && inCellXfs) {
        const id = Number(a.numFmtId ?? 0);
        styles.push(isDateFormat(id, formats.get(id)));
      }
    },
    close(name) {
      if (name === "cellXfs") inCellXfs = false;
    },
  });
  return styles;
}

/**
 * The shared strings table: each `<si>`'s text, its runs joined, phonetic runs left out; a text
 * of more than `maxBytes` UTF-8 bytes (as written, before `_xHHHH_` escapes are decoded) as null.
 */
export async function readSharedStrings(
  zip: ZipArchive,
  part: ZipEntry | null,
  maxBytes: number,
): Promise<SharedStrings> {
  if (!part) return new SharedStrings();
  return readStringsPart(() => zip.read(part), maxBytes);
}

/** The shared strings of the part `open` gives (afresh each time), as readSharedStrings reads them. */
export async function readStringsPart(
  open: () => Promise<AsyncIterable<Uint8Array>>,
  maxBytes: number,
): Promise<SharedStrings> {
  let items: SharedStringItems | null = null;
  const fresh = () => {
    // what the scanner left to saxes is read again from the start
    items?.strings.dispose();
    items = new SharedStringItems(maxBytes);
    return items;
  };
  try {
    return (await readPart(open, fresh)).handler.strings;
  } catch (error) {
    (items as SharedStringItems | null)?.strings.dispose();
    throw error;
  }
}

const UNDERSCORE = 0x5f;

/** The handler of the shared strings part, for saxes and for the scanner. */
export class SharedStringItems implements XmlHandler, ScanHandler {
  readonly elements = ["si", "t", "rPh"];
  readonly attributes = [];
  readonly done = false;
  readonly strings = new SharedStrings();
  readonly #maxBytes: number;
  readonly #text: BoundedText;
  #inText = false;
  #phonetic = false;
  /** The items opened and not closed: one, unless the part is damaged. */
  #openItems = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
    this.#text = new BoundedText(maxBytes);
  }

  get wantsText(): boolean {
    return this.#inText;
  }

  open(name: string): void {
    this.openElement(this.elements.indexOf(name));
  }

  /**
   * The usual item, read whole by the scanner — `<si><t>Ada</t></si>`, ASCII without an escape
   * (`_x000D_`) — added at once; anything else is told call by call (returns false).
   */
  leaf(outer: number, inner: number, _tag: ScannedTag, bytes: Buffer, from: number, to: number): boolean {
    // inside another item, or a phonetic run, the calls decide what it adds
    if (outer !== 0 || inner !== 1 || this.#openItems > 0 || this.#phonetic || to - from > this.#maxBytes)
      return false;
    for (let k = from; k < to; k++) if (bytes[k] === UNDERSCORE) return false;
    this.strings.addAscii(bytes, from, to);
    this.#inText = false;
    return true;
  }

  openElement(element: number): void {
    if (element === 0) {
      this.#openItems++;
      this.#text.reset();
    } else if (element === 1) this.#inText = !this.#phonetic;
    else if (element === 2) this.#phonetic = true;
  }

  text(text: string): void {
    if (this.#inText) this.#text.add(text);
  }

  textBytes(bytes: Buffer, from: number, to: number): void {
    if (this.#inText) this.#text.addBytes(bytes, from, to);
  }

  close(name: string): void {
    this.closeElement(this.elements.indexOf(name));
  }

  closeElement(element: number): void {
    if (element === 1) this.#inText = false;
    else if (element === 2) this.#phonetic = false;
    else if (element === 0) {
      this.#openItems--;
      const text = this.#text;
      this.strings.add(text.over ? null : unescapeText(text.text));
    }
  }
}
