// CSV rows across threads: the reading thread writes the header, rows and findings into
// batches, the main thread replays them into a CsvSink in the same order. A batch is one
// string holding every cell, the cells' ends and each row's numbers in typed arrays (sent
// without copying), and the rare header and findings as plain objects.

import type { Code } from "../report/catalog.js";
import type { FindingDetails } from "../report/ReportCollector.js";
import type { CsvHeader, CsvRow, CsvSink } from "./CsvReader.js";

/** A header or a finding, delivered before row `at` of its batch. */
export type RowBatchEvent =
  | { at: number; header: CsvHeader }
  | { at: number; code: Code; details: FindingDetails };

/** What crosses the thread boundary. */
export interface RowBatch {
  /** Every cell of every row, one after the other. */
  text: string;
  /** Where each cell ends in `text`. */
  ends: Int32Array;
  /** Per row: cell count, record number, line, byte offset. */
  rows: Float64Array;
  rowCount: number;
  events: RowBatchEvent[];
}

const WIDTH = 4;

/** A CSV sink that writes what it receives into batches. */
export class RowBatchWriter implements CsvSink {
  #parts: string[] = [];
  #length = 0;
  #ends = new Int32Array(16384);
  #cells = 0;
  #rows = new Float64Array(1024 * WIDTH);
  #rowCount = 0;
  #events: RowBatchEvent[] = [];

  header(header: CsvHeader): void {
    this.#events.push({ at: this.#rowCount, header });
  }

  finding(code: Code, details: FindingDetails): void {
    this.#events.push({ at: this.#rowCount, code, details });
  }

  row(row: CsvRow): void {
    const cells = row.cells;
    if (this.#cells + cells.length > this.#ends.length)
      this.#ends = grow(this.#ends, this.#cells + cells.length);
    for (let k = 0; k < cells.length; k++) {
      const cell = cells[k] as string;
      this.#parts.push(cell);
      this.#length += cell.length;
      this.#ends[this.#cells++] = this.#length;
    }
    const o = this.#rowCount * WIDTH;
    if (o + WIDTH > this.#rows.length) this.#rows = grow(this.#rows, o + WIDTH);
    const r = this.#rows;
    r[o] = cells.length;
    r[o + 1] = row.row;
    r[o + 2] = row.loc.line;
    r[o + 3] = row.loc.offset;
    this.#rowCount++;
  }

  /** The batch written since the last take, or null when nothing was. */
  take(): RowBatch | null {
    if (this.#rowCount === 0 && this.#events.length === 0) return null;
    const batch: RowBatch = {
      text: this.#parts.join(""),
      ends: this.#ends.slice(0, this.#cells),
      rows: this.#rows.slice(0, this.#rowCount * WIDTH),
      rowCount: this.#rowCount,
      events: this.#events,
    };
    this.#parts = [];
    this.#length = 0;
    this.#cells = 0;
    this.#rowCount = 0;
    this.#events = [];
    return batch;
  }
}

/** Delivers a batch to `sink`: its header, rows and findings in their order. */
export function replayRows(batch: RowBatch, sink: CsvSink): void {
  const { text, ends, rows, events } = batch;
  let e = 0;
  let cell = 0;
  let start = 0;
  for (let r = 0; r < batch.rowCount; r++) {
    while (e < events.length && (events[e] as RowBatchEvent).at === r)
      deliver(events[e++] as RowBatchEvent, sink);
    const o = r * WIDTH;
    const n = rows[o] as number;
    const cells = new Array<string>(n);
    for (let k = 0; k < n; k++) {
      const end = ends[cell++] as number;
      cells[k] = text.slice(start, end);
      start = end;
    }
    sink.row({
      row: rows[o + 1] as number,
      loc: { line: rows[o + 2] as number, column: 1, offset: rows[o + 3] as number },
      cells,
    });
  }
  while (e < events.length) deliver(events[e++] as RowBatchEvent, sink);
}

function deliver(event: RowBatchEvent, sink: CsvSink): void {
  if ("header" in event) sink.header(event.header);
  else sink.finding(event.code, event.details);
}

function grow<T extends Int32Array | Float64Array>(array: T, atLeast: number): T {
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(atLeast, array.length * 2));
  bigger.set(array);
  return bigger;
}
