// The rows of one sheet of a workbook, and what is wrong with the workbook as a whole: the ZIP
// opened, the sheet chosen (the first visible one, or the one named), the shared strings and
// date styles read, then the sheet's rows streamed from its part. What they become (CSV rows,
// with their findings) is XlsxReader's; this part runs in the thread that reads the file, which
// may be a worker (pass/_xlsxWorker.ts).

import type { ByteRange } from "../bytes/ByteRange.js";
import type { Code } from "../report/catalog.js";
import type { FindingDetails } from "../report/Finding.js";
import { notWorkbook } from "./_container.js";
import type { SharedStrings } from "./_SharedStrings.js";
import { readSheet, type SheetRowSink } from "./_SheetRows.js";
import {
  readDateStyles,
  readSharedStrings,
  readWorkbookPart,
  type SheetEntry,
  workbookPart,
} from "./_workbook.js";
import type { ZipArchive } from "./_ZipArchive.js";
import { ZipParts } from "./_zip.js";

/** What reading a workbook's sheet tells, in order: the workbook's own problems, the sheet, its rows. */
export interface WorkbookSheetSink extends SheetRowSink {
  /** A problem of the workbook as a whole: not a workbook, damaged, no such sheet. */
  finding(code: Code, details: FindingDetails): void;
  /** The sheet whose rows follow, and the names of the workbook's other worksheets. */
  sheet(name: string, others: readonly string[]): void;
}

/** What to read of a workbook, and who hears how far it got. */
export interface SheetReadOptions {
  /** The most UTF-8 bytes a cell, and a row, may hold. */
  maxRecordBytes: number;
  /** The sheet to read, by name. Default: the first visible one. */
  sheet?: string | null | undefined;
  /** Told how many bytes of the file are read so far (by the part being read). */
  onProgress?: ((bytes: number) => void) | null | undefined;
}

/**
 * Reads the sheet of the workbook in `file` into `sink`. Resolves true when its rows were read
 * to the end; false when a finding said why not (what was read until then was told).
 */
export async function readWorkbookSheet(
  file: ByteRange,
  sink: WorkbookSheetSink,
  options: SheetReadOptions,
): Promise<boolean> {
  const notOne = await notWorkbook(file);
  if (notOne) {
    sink.finding("file.type", { params: { what: notOne.what }, hint: notOne.hint });
    return false;
  }
  let zip: ZipArchive;
  try {
    zip = await ZipParts.open(file);
  } catch (error) {
    sink.finding("xlsx.corrupt", { params: { detail: `its ZIP structure is damaged (${reason(error)})` } });
    return false;
  }
  let strings: SharedStrings | null = null;
  try {
    const main = await workbookPart(zip);
    if (!main) {
      sink.finding("file.type", { params: { what: archiveKind(zip) }, hint: ARCHIVE_HINT });
      return false;
    }
    const workbook = await readWorkbookPart(zip, main);
    const sheet = chooseSheet(workbook.sheets, options.sheet ?? null);
    if (typeof sheet === "string") {
      sink.finding("xlsx.sheet.missing", sheetMissing(workbook.sheets, options.sheet ?? null, sheet));
      return false;
    }
    sink.sheet(
      sheet.name,
      workbook.sheets.filter((s) => s !== sheet && s.part).map((s) => s.name),
    );
    const part = sheet.part;
    if (!part) {
      sink.finding("xlsx.corrupt", { params: { detail: `the part of sheet "${sheet.name}" is missing` } });
      return false;
    }
    const dateStyles = await readDateStyles(zip, workbook.stylesPart);
    strings = await readSharedStrings(zip, workbook.stringsPart, options.maxRecordBytes);
    let inflated = 0;
    const share = part.uncompressedSize > 0 ? part.compressedSize / part.uncompressedSize : 0;
    const context = { strings, dateStyles, date1904: workbook.date1904, maxBytes: options.maxRecordBytes };
    const { onProgress } = options;
    await readSheet(
      () => zip.read(part),
      sink,
      context,
      (n) => {
        inflated += n;
        onProgress?.(Math.min(file.size, Math.round(inflated * share)));
      },
    );
    return true;
  } catch (error) {
    sink.finding("xlsx.corrupt", { params: { detail: reason(error) } });
    return false;
  } finally {
    strings?.dispose();
    zip.close();
  }
}

function chooseSheet(sheets: readonly SheetEntry[], name: string | null): SheetEntry | string {
  if (name === null) {
    const first = sheets.find((s) => !s.hidden && s.part);
    return (
      first ?? (sheets.some((s) => s.part) ? "no visible worksheet: every one is hidden" : "no worksheet")
    );
  }
  const exact = sheets.find((s) => s.name === name);
  if (exact) return exact;
  const folded = sheets.filter((s) => s.name.toLowerCase() === name.toLowerCase());
  return folded.length === 1 ? (folded[0] as SheetEntry) : `no sheet named "${name}"`;
}

function sheetMissing(sheets: readonly SheetEntry[], wanted: string | null, why: string): FindingDetails {
  const names = sheets.filter((s) => s.part).map((s) => JSON.stringify(s.name));
  return {
    params: { detail: why },
    hint:
      names.length === 0
        ? "the workbook holds no worksheet (only charts?): put the data on a worksheet"
        : `${wanted === null ? "its sheets are hidden; name one with --sheet" : "name one with --sheet"}: ${names.join(", ")}`,
  };
}

const ARCHIVE_HINT = "save the data as an Excel workbook (.xlsx) or as CSV UTF-8";

function archiveKind(zip: ZipArchive): string {
  if (zip.entry("word/document.xml")) return "a Word document (.docx), not an Excel workbook";
  if (zip.entry("ppt/presentation.xml")) return "a PowerPoint presentation (.pptx), not an Excel workbook";
  if (zip.entry("content.xml")) return "an OpenDocument file (.ods?), not an Excel workbook";
  return "a ZIP archive that holds no Excel workbook";
}

function reason(error: unknown): string {
  return error instanceof Error ? (error.message.split("\n")[0] as string) : String(error);
}
