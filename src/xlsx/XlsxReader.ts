// An Excel workbook (.xlsx) read as the CSV reader reads a file: one sheet's rows — the first
// visible sheet, or the one named — go through the same header matching and row findings
// (CsvRows), streamed from the ZIP, so a workbook of any size is read in bounded memory. Each
// finding names its cell as Excel does (`Users!E3`); what is no workbook, or a damaged one, is
// one finding saying what to do.

import type { ByteRange } from "../bytes/ByteRange.js";
import { CsvRows } from "../csv/CsvRows.js";
import type { CsvHeader, CsvReaderLimits, CsvSink } from "../csv/CsvSink.js";
import type { Finding, FindingDetails } from "../report/Finding.js";
import type { Report } from "../report/Report.js";
import { columnLetters, sheetReference } from "./_cells.js";
import { notWorkbook } from "./_container.js";
import type { SharedStrings } from "./_SharedStrings.js";
import { type CellProblem, readSheet, type SheetRowSink } from "./_SheetRows.js";
import {
  readDateStyles,
  readSharedStrings,
  readWorkbookPart,
  type SheetEntry,
  workbookPart,
} from "./_workbook.js";
import type { ZipArchive } from "./_ZipArchive.js";
import { ZipParts } from "./_zip.js";

/** What to read from a workbook. */
export interface WorkbookOptions extends CsvReaderLimits {
  /** The sheet to read, by name. Default: the first visible one. */
  sheet?: string | null;
  /** Told how many bytes of the file are read so far (by the part being read). */
  onProgress?: ((bytes: number) => void) | null;
}

/** What reading a workbook found besides its rows. */
export interface WorkbookRead {
  /** True when a fatal problem ended reading. */
  stopped: boolean;
  /** The file's size. */
  bytes: number;
  /** The sheet read, when one was. */
  sheet: string | null;
  /** The header row's cells by column (A first), once read. */
  columns: readonly string[] | null;
}

/**
 * Reads the sheet of the workbook in `file` (a file's bytes in Node, a Blob's in a browser) into
 * `sink` (a CsvAssembler, as for CSV).
 */
export async function readWorkbook(
  file: ByteRange,
  sink: CsvSink,
  options: WorkbookOptions,
): Promise<WorkbookRead> {
  const bytes = file.size;
  const read: WorkbookRead = { stopped: true, bytes, sheet: null, columns: null };
  const notOne = await notWorkbook(file);
  if (notOne) {
    sink.finding("file.type", { params: { what: notOne.what }, hint: notOne.hint });
    return read;
  }
  let zip: ZipArchive;
  try {
    zip = await ZipParts.open(file);
  } catch (error) {
    sink.finding("xlsx.corrupt", { params: { detail: `its ZIP structure is damaged (${reason(error)})` } });
    return read;
  }
  let strings: SharedStrings | null = null;
  try {
    const main = await workbookPart(zip);
    if (!main) {
      sink.finding("file.type", { params: { what: archiveKind(zip) }, hint: ARCHIVE_HINT });
      return read;
    }
    const workbook = await readWorkbookPart(zip, main);
    const sheet = chooseSheet(workbook.sheets, options.sheet ?? null);
    if (typeof sheet === "string") {
      sink.finding("xlsx.sheet.missing", sheetMissing(workbook.sheets, options.sheet ?? null, sheet));
      return read;
    }
    read.sheet = sheet.name;
    const part = sheet.part;
    if (!part) {
      sink.finding("xlsx.corrupt", { params: { detail: `the part of sheet "${sheet.name}" is missing` } });
      return read;
    }
    const dateStyles = await readDateStyles(zip, workbook.stylesPart);
    strings = await readSharedStrings(zip, workbook.stringsPart, options.maxRecordBytes);
    const others = workbook.sheets.filter((s) => s !== sheet && s.part).map((s) => s.name);
    const rows = new SheetRowsToCsv(sink, options, sheet.name, read, others);
    let inflated = 0;
    const share = part.uncompressedSize > 0 ? part.compressedSize / part.uncompressedSize : 0;
    const context = { strings, dateStyles, date1904: workbook.date1904, maxBytes: options.maxRecordBytes };
    await readSheet(
      () => zip.read(part),
      rows,
      context,
      (n) => {
        inflated += n;
        options.onProgress?.(Math.min(bytes, Math.round(inflated * share)));
      },
    );
    rows.finish();
    read.stopped = rows.stopped;
    return read;
  } catch (error) {
    sink.finding("xlsx.corrupt", { params: { detail: reason(error) } });
    read.stopped = true;
    return read;
  } finally {
    strings?.dispose();
    zip.close();
  }
}

/**
 * The findings of a workbook's report located as Excel shows them: each finding of a row gets
 * its cell (`Users!E3`, the column by its header) or its row (`Users!3:3`); lines, columns and
 * offsets of the XML mean nothing to a reader and go.
 */
export function locateInSheet(report: Report, read: WorkbookRead): void {
  const sheet = read.sheet === null ? null : sheetReference(read.sheet);
  for (const finding of report.findings as Finding[]) {
    delete finding.line;
    delete finding.column;
    delete finding.offset;
    if (finding.row === 0) delete finding.row; // no header at all: no row to name
    if (finding.cell !== undefined || finding.row === undefined || sheet === null) continue;
    const column = finding.field === undefined ? -1 : (read.columns?.indexOf(finding.field) ?? -1);
    finding.cell =
      column >= 0
        ? `${sheet}!${columnLetters(column)}${finding.row}`
        : `${sheet}!${finding.row}:${finding.row}`;
  }
}

/** A sheet's rows into CsvRows: the header's width decides which cells belong to a column. */
class SheetRowsToCsv implements SheetRowSink {
  readonly #sink: CsvSink;
  readonly #rows: CsvRows;
  readonly #sheet: string;
  readonly #read: WorkbookRead;
  readonly #others: readonly string[];
  readonly #limits: CsvReaderLimits;
  #width = -1;
  #tooLarge = false;

  constructor(
    sink: CsvSink,
    limits: CsvReaderLimits,
    sheet: string,
    read: WorkbookRead,
    others: readonly string[],
  ) {
    this.#sink = sink;
    this.#others = others;
    this.#sheet = sheetReference(sheet);
    this.#read = read;
    this.#limits = limits;
    // what CsvRows makes of the rows goes on to the sink, the header noted on the way
    this.#rows = new CsvRows(
      {
        header(header: CsvHeader) {
          // findings name the export's own columns, mapped or not
          read.columns = [...(header.sourceNames ?? header.names)];
          sink.header(header);
        },
        mapped: (mapping) => sink.mapped?.(mapping),
        row: (row) => sink.row(row),
        finding: (code, details) =>
          sink.finding(code, code === "csv.header.missing" ? this.#elsewhere(details) : details),
      },
      limits,
      "",
    );
  }

  get stopped(): boolean {
    return this.#tooLarge || this.#rows.stopped;
  }

  finish(): void {
    if (!this.#tooLarge) this.#rows.finish();
  }

  /** A cell too large, or a row: reading ends there, as at a CSV row too large. */
  tooLarge(number: number, column: number, what: "cell" | "row"): void {
    if (this.stopped) return;
    this.#tooLarge = true;
    const field = this.#read.columns?.[column];
    this.#sink.finding(what === "cell" ? "xlsx.cell.size" : "xlsx.row.size", {
      row: number,
      cell: this.#cell(column, number),
      ...(field ? { field } : {}),
      params: { limit: this.#limits.maxRecordBytes },
    });
  }

  row(number: number, cells: string[], problems: ReadonlyMap<number, CellProblem> | null): void {
    if (this.#rows.stopped) return;
    if (problems) this.#problems(number, problems);
    if (this.#width < 0) {
      let width = cells.length;
      while (width > 0 && (cells[width - 1] as string).trim() === "") width--;
      if (width === 0) return;
      this.#width = width;
      cells.length = width;
    } else {
      for (let column = this.#width; column < cells.length; column++) {
        const text = cells[column] as string;
        if (text.trim() === "") continue;
        this.#sink.finding("xlsx.cell.unheaded", {
          row: number,
          cell: this.#cell(column, number),
          params: { column: columnLetters(column) },
          value: text,
        });
      }
      if (cells.length > this.#width) cells.length = this.#width;
      while (cells.length < this.#width) cells.push("");
    }
    this.#rows.numberedRecord(cells, { line: number, column: 1, offset: 0 }, number);
  }

  #problems(number: number, problems: ReadonlyMap<number, CellProblem>): void {
    for (const [column, problem] of problems) {
      const field = this.#read.columns?.[column];
      const at = { row: number, cell: this.#cell(column, number), ...(field ? { field } : {}) };
      if (problem.kind === "formula") {
        this.#sink.finding("xlsx.formula.value", { ...at, params: { formula: `=${problem.formula}` } });
      } else if (problem.kind === "string") {
        this.#sink.finding("xlsx.string.index", {
          ...at,
          params: { index: problem.index === "" ? '""' : problem.index },
          value: problem.index,
        });
      } else {
        this.#sink.finding("xlsx.cell.error", {
          ...at,
          params: { value: problem.value },
          value: problem.value,
        });
      }
    }
  }

  /** A missing header on this sheet: the data may be on another one. */
  #elsewhere(details: FindingDetails): FindingDetails {
    if (this.#others.length === 0) return details;
    const names = this.#others.map((n) => JSON.stringify(n)).join(", ");
    const elsewhere = `if the data is on another sheet, name it with --sheet: ${names}`;
    // what the rows of this sheet showed (a column of addresses, data in the first row) stays
    return { ...details, hint: details.hint ? `${details.hint}; or, ${elsewhere}` : elsewhere };
  }

  #cell(column: number, row: number): string {
    return `${this.#sheet}!${columnLetters(column)}${row}`;
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
