// An Excel workbook (.xlsx) read as the CSV reader reads a file: one sheet's rows — the first
// visible sheet, or the one named — go through the same header matching and row findings
// (CsvRows), streamed from the ZIP, so a workbook of any size is read in bounded memory. Each
// finding names its cell as Excel does (`Users!E3`); what is no workbook, or a damaged one, is
// one finding saying what to do.

import type { ByteRange } from "../bytes/ByteRange.js";
import { CsvRows } from "../csv/CsvRows.js";
import type { CsvHeader, CsvReaderLimits, CsvSink } from "../csv/CsvSink.js";
import type { Code } from "../report/catalog.js";
import type { Finding, FindingDetails } from "../report/Finding.js";
import type { Report } from "../report/Report.js";
import { columnLetters, sheetReference } from "./_cells.js";
import type { CellProblem, SheetRowSink } from "./_SheetRows.js";
import { readWorkbookSheet, type WorkbookSheetSink } from "./readWorkbookSheet.js";

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
  const rows = new WorkbookRows(sink, options, file.size);
  rows.end(await readWorkbookSheet(file, rows, options));
  return rows.read;
}

/**
 * What a workbook's sheet tells (WorkbookSheetSink), told to a CsvSink as its rows: what
 * readWorkbook reads in this thread, and xlsxParallel replays from the thread that reads.
 */
export class WorkbookRows implements WorkbookSheetSink {
  readonly read: WorkbookRead;
  readonly #sink: CsvSink;
  readonly #limits: CsvReaderLimits;
  #rows: SheetRowsToCsv | null = null;

  constructor(sink: CsvSink, limits: CsvReaderLimits, bytes: number) {
    this.#sink = sink;
    this.#limits = limits;
    this.read = { stopped: true, bytes, sheet: null, columns: null };
  }

  finding(code: Code, details: FindingDetails): void {
    this.#sink.finding(code, details);
  }

  sheet(name: string, others: readonly string[]): void {
    this.read.sheet = name;
    this.#rows = new SheetRowsToCsv(this.#sink, this.#limits, name, this.read, others);
  }

  row(number: number, cells: string[], problems: ReadonlyMap<number, CellProblem> | null): void {
    this.#rows?.row(number, cells, problems);
  }

  tooLarge(number: number, column: number, what: "cell" | "row"): void {
    this.#rows?.tooLarge(number, column, what);
  }

  /** Reading ended: `whole`, the sheet was read to its end (else a finding said why not). */
  end(whole: boolean): void {
    const rows = this.#rows;
    if (!rows) return;
    if (!whole) {
      rows.release(); // the rows read before what ended reading are not lost
      return;
    }
    rows.finish();
    this.read.stopped = rows.stopped;
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

/**
 * A sheet's rows into CsvRows: the width of the row it takes as the header decides which cells
 * of the rows after it belong to a column.
 */
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
        header: (header: CsvHeader) => {
          // findings name the export's own columns, mapped or not; its width is the rows'
          read.columns = [...(header.sourceNames ?? header.names)];
          this.#width = read.columns.length;
          sink.header(header);
        },
        mapped: (mapping) => sink.mapped?.(mapping),
        row: (row) => sink.row(row),
        finding: (code, details) =>
          sink.finding(code, code === "csv.header.missing" ? this.#elsewhere(details) : details),
      },
      limits,
      "",
      (cells, row) => this.#fit(cells, row),
    );
  }

  get stopped(): boolean {
    return this.#tooLarge || this.#rows.stopped;
  }

  finish(): void {
    if (!this.#tooLarge) this.#rows.finish();
  }

  /** Reading ended early: rows CsvRows holds (while it looks for the header) are given on. */
  release(): void {
    this.#rows.release();
  }

  /** A cell too large, or a row: reading ends there, as at a CSV row too large. */
  tooLarge(number: number, column: number, what: "cell" | "row"): void {
    if (this.stopped) return;
    this.#rows.release();
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
      // before the header, a row goes as it is: CsvRows tells which one is the header (below a
      // title, or at the mapping's headerRow), and its cells, the trailing empty ones left
      // out, make the width of the rows after it
      let width = cells.length;
      while (width > 0 && (cells[width - 1] as string).trim() === "") width--;
      if (width === 0) return;
      cells.length = width;
    }
    this.#rows.numberedRecord(cells, { line: number, column: 1, offset: 0 }, number);
  }

  /** A row after the header, to its width: a value past it is xlsx.cell.unheaded, a cell short of it empty. */
  #fit(cells: string[], number: number): string[] {
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
    return cells;
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
