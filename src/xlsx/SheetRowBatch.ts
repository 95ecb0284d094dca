// A sheet's rows across threads: the thread that reads the workbook writes them into batches,
// the thread that checks them replays them into its sink in the same order. A batch is one
// string holding every cell, the cells' ends and each row's number and width in typed arrays
// (copied: see pass/_posted.ts), the rare cell problems by row, the cell or row too large that ended the
// sheet, and how far reading got.

import type { CellProblem, SheetRowSink } from "./_SheetRows.js";

/** What crosses the thread boundary. */
export interface SheetRowBatch {
  /** Every cell of every row, one after the other. */
  text: string;
  /** Where each cell ends in `text`. */
  ends: Int32Array;
  /** Per row: its number, then its count of cells. */
  rows: Float64Array;
  count: number;
  /** The problems of the batch's rows: [row of the batch, column, problem]. */
  problems: [number, number, CellProblem][];
  /** The call that ended the sheet, after the rows. */
  tooLarge: { number: number; column: number; what: "cell" | "row" } | null;
  /** The bytes of the file read when the batch was taken (what the progress bar shows). */
  progress: number;
}

/** Rows this many, or cells of this many characters, make a batch worth sending. */
const FULL_ROWS = 512;
const FULL_TEXT = 256 * 1024;

/** A sheet's row sink that writes what it is told into batches. */
export class SheetRowBatchWriter implements SheetRowSink {
  #text = "";
  #ends = new Int32Array(8192);
  #cells = 0;
  #rows = new Float64Array(2 * FULL_ROWS);
  #count = 0;
  #problems: [number, number, CellProblem][] = [];
  #tooLarge: SheetRowBatch["tooLarge"] = null;
  /** How far reading got. */
  progress = 0;

  /** Whether the batch is worth sending now. */
  get full(): boolean {
    return this.#count >= FULL_ROWS || this.#text.length >= FULL_TEXT;
  }

  /** Whether anything was written since the last take. */
  get empty(): boolean {
    return this.#count === 0 && this.#tooLarge === null;
  }

  row(number: number, cells: string[], problems: ReadonlyMap<number, CellProblem> | null): void {
    if (this.#cells + cells.length > this.#ends.length) {
      const grown = new Int32Array(Math.max(this.#ends.length * 2, this.#cells + cells.length));
      grown.set(this.#ends);
      this.#ends = grown;
    }
    let text = this.#text;
    for (let k = 0; k < cells.length; k++) {
      text += cells[k] as string;
      this.#ends[this.#cells++] = text.length;
    }
    this.#text = text;
    if (2 * this.#count + 2 > this.#rows.length) {
      const grown = new Float64Array(this.#rows.length * 2);
      grown.set(this.#rows);
      this.#rows = grown;
    }
    this.#rows[2 * this.#count] = number;
    this.#rows[2 * this.#count + 1] = cells.length;
    if (problems)
      for (const [column, problem] of problems) this.#problems.push([this.#count, column, problem]);
    this.#count++;
  }

  tooLarge(number: number, column: number, what: "cell" | "row"): void {
    this.#tooLarge = { number, column, what };
  }

  /** The batch written since the last take. */
  take(): SheetRowBatch {
    const batch: SheetRowBatch = {
      text: this.#text,
      ends: this.#ends.slice(0, this.#cells),
      rows: this.#rows.slice(0, 2 * this.#count),
      count: this.#count,
      problems: this.#problems,
      tooLarge: this.#tooLarge,
      progress: this.progress,
    };
    this.#text = "";
    this.#cells = 0;
    this.#count = 0;
    this.#problems = [];
    this.#tooLarge = null;
    return batch;
  }
}

/** Tells `sink` the rows of `batch`, then the cell or row too large that ended the sheet. */
export function replaySheetRows(batch: SheetRowBatch, sink: SheetRowSink): void {
  const { text, ends, rows, problems } = batch;
  let cell = 0;
  let start = 0;
  let p = 0;
  for (let r = 0; r < batch.count; r++) {
    const n = rows[2 * r + 1] as number;
    const cells = new Array<string>(n);
    for (let k = 0; k < n; k++) {
      const end = ends[cell++] as number;
      cells[k] = text.slice(start, end);
      start = end;
    }
    let found: Map<number, CellProblem> | null = null;
    for (; p < problems.length && (problems[p] as [number, number, CellProblem])[0] === r; p++) {
      const [, column, problem] = problems[p] as [number, number, CellProblem];
      found ??= new Map();
      found.set(column, problem);
    }
    sink.row(rows[2 * r] as number, cells, found);
  }
  const { tooLarge } = batch;
  if (tooLarge) sink.tooLarge(tooLarge.number, tooLarge.column, tooLarge.what);
}
