// The parts of a workbook a sheet's values depend on: which sheets there are and where
// (workbook.xml and its relationships), the shared strings and which cell styles are dates.

import { BoundedText } from "./_BoundedText.js";
import { isDateFormat, unescapeText } from "./_cells.js";
import { relationshipsPart, targetPart } from "./_partNames.js";
import { SharedStrings } from "./_SharedStrings.js";
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
  const strings = new SharedStrings();
  if (!part) return strings;
  const text = new BoundedText(maxBytes);
  let inText = false;
  let phonetic = false;
  try {
    await partText(zip, part, {
      open(name) {
        if (name === "si") text.reset();
        else if (name === "t") inText = !phonetic;
        else if (name === "rPh") phonetic = true;
      },
      text(t) {
        if (inText) text.add(t);
      },
      close(name) {
        if (name === "t") inText = false;
        else if (name === "rPh") phonetic = false;
        else if (name === "si") strings.add(text.over ? null : unescapeText(text.text));
      },
    });
  } catch (error) {
    strings.dispose();
    throw error;
  }
  return strings;
}
