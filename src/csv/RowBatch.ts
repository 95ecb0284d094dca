// Raw CSV records across threads: a parsing thread writes them into batches, the reading
// thread replays them into its CsvRows in the same order. A batch is one string holding
// every cell, the cells' ends and each record's numbers in typed arrays (copied: see
// pass/_posted.ts), the user each row is of (the parsing thread numbers the users), and the failure
// that ended parsing, if any. The records without quotes of one block of bytes are given as
// slices of the block's text: the batch takes the part of the block they span, once, with the
// line breaks between them, rather than a copy of each.

import type { SourceLocation } from "../report/Finding.js";
import type { UserNumbers } from "./_UserNumbers.js";
import type { ParseFailure, RawRecordSink } from "./CsvParser.js";

/** What crosses the thread boundary. */
export interface RowBatch {
  /** Every cell of every record, one after the other. */
  text: string;
  /** Where each cell ends in `text`. */
  ends: Int32Array;
  /** Per record: cell count, line, byte offset, what is between its cells in `text` (0, or 1: the delimiter), and where its first cell starts in `text`. */
  records: Float64Array;
  /** Per record: its user's number times two, plus one when the row defines the user; -1 for none. */
  users: Int32Array;
  count: number;
  /** What ended parsing after the last record, or null. */
  failure: ParseFailure | null;
}

const WIDTH = 5;

/** A raw record sink that writes what it receives into batches. */
export class RowBatchWriter implements RawRecordSink {
  #parts: string[] = [];
  #length = 0;
  #ends = new Int32Array(16384);
  #cells = 0;
  #records = new Float64Array(1024 * WIDTH);
  #users = new Int32Array(1024);
  #count = 0;
  #failure: ParseFailure | null = null;
  // the block whose part [#spanStart, #spanEnd) is the end of the batch's text, not yet in #parts
  #block: string | null = null;
  #spanStart = 0;
  #spanEnd = 0;

  /**
   * A record: its text taken whole when its cells are its split (a part, or a span of its
   * block, not a part a cell).
   */
  record(cells: string[], loc: SourceLocation, text?: string, block?: string, blockAt?: number): void {
    if (this.#cells + cells.length > this.#ends.length)
      this.#ends = grow(this.#ends, this.#cells + cells.length);
    const gap = text === undefined ? 0 : 1;
    const spanned = text !== undefined && block !== undefined && blockAt !== undefined;
    // a record of another block, or not of a block, ends the span taken so far
    if (!spanned || block !== this.#block || blockAt < this.#spanEnd) this.#endSpan();
    let start = this.#length;
    if (spanned) {
      if (this.#block === null) {
        this.#block = block;
        this.#spanStart = blockAt;
      }
      start += blockAt - this.#spanStart;
      this.#spanEnd = blockAt + text.length;
    }
    let at = start;
    for (let k = 0; k < cells.length; k++) {
      const cell = cells[k] as string;
      if (gap === 0) this.#parts.push(cell);
      at += cell.length;
      this.#ends[this.#cells++] = at;
      at += gap;
    }
    if (text === undefined) this.#length = at;
    else if (!spanned) {
      this.#parts.push(text);
      this.#length += text.length;
    }
    const o = this.#count * WIDTH;
    if (o + WIDTH > this.#records.length) this.#records = grow(this.#records, o + WIDTH);
    const r = this.#records;
    r[o] = cells.length;
    r[o + 1] = loc.line;
    r[o + 2] = loc.offset;
    r[o + 3] = gap;
    r[o + 4] = start;
    if (this.#count === this.#users.length) this.#users = grow(this.#users, this.#count + 1);
    this.#users[this.#count] = -1;
    this.#count++;
  }

  /** The user of the record written last: its number, and whether the row defines it. */
  user(user: number, isNew: boolean): void {
    this.#users[this.#count - 1] = user * 2 + (isNew ? 1 : 0);
  }

  failure(failure: ParseFailure): void {
    this.#failure = failure;
  }

  /** The batch written since the last take. */
  take(): RowBatch {
    this.#endSpan();
    const batch: RowBatch = {
      text: this.#parts.length === 1 ? (this.#parts[0] as string) : this.#parts.join(""),
      ends: this.#ends.slice(0, this.#cells),
      records: this.#records.slice(0, this.#count * WIDTH),
      users: this.#users.slice(0, this.#count),
      count: this.#count,
      failure: this.#failure,
    };
    this.#parts = [];
    this.#length = 0;
    this.#cells = 0;
    this.#count = 0;
    this.#failure = null;
    return batch;
  }

  /** The span of a block taken so far, into the parts. */
  #endSpan(): void {
    if (this.#block === null) return;
    const span = this.#block.slice(this.#spanStart, this.#spanEnd);
    this.#parts.push(span);
    this.#length += span.length;
    this.#block = null;
  }
}

/**
 * Delivers a batch to `sink`: its records, then its failure. `users` is told which record is
 * delivered, so that it answers for it.
 */
export function replayRows(batch: RowBatch, sink: RawRecordSink, users: BatchUsers): void {
  const { text, ends, records } = batch;
  let cell = 0;
  users.batch(batch);
  for (let r = 0; r < batch.count; r++) {
    users.record = r;
    const o = r * WIDTH;
    const n = records[o] as number;
    const gap = records[o + 3] as number;
    let start = records[o + 4] as number;
    const cells = new Array<string>(n);
    for (let k = 0; k < n; k++) {
      const end = ends[cell++] as number;
      cells[k] = text.slice(start, end);
      start = k < n - 1 ? end + gap : end;
    }
    sink.record(cells, { line: records[o + 1] as number, column: 1, offset: records[o + 2] as number });
  }
  if (batch.failure) sink.failure(batch.failure);
}

/** The users of replayed rows, as the parsing thread numbered them (the assembler asks about the record being replayed). */
export class BatchUsers implements UserNumbers {
  /** The record of the current batch being replayed. */
  record = -1;
  #users: Int32Array = new Int32Array(0);
  #isNew = false;

  get isNew(): boolean {
    return this.#isNew;
  }

  /** The batch whose records are replayed next. */
  batch(batch: RowBatch): void {
    this.#users = batch.users;
  }

  user(): number {
    const value = this.#users[this.record] as number;
    if (value < 0) throw new Error(`BatchUsers: no user was numbered for record ${this.record}`);
    this.#isNew = (value & 1) === 1;
    return value >>> 1;
  }

  dispose(): void {}
}

function grow<T extends Int32Array | Float64Array>(array: T, atLeast: number): T {
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(atLeast, array.length * 2));
  bigger.set(array);
  return bigger;
}
