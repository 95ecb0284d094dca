// Records read in one batch (JsonScanner parses a run of plain records with one JSON.parse):
// where each one lies — its text and its location — is found only when something asks, a
// finding mostly, by scanning the batch's text once with the capture's own loop.

import type { SourceLocation } from "../report/Finding.js";
import { locationIn } from "./_position.js";
import { type Cursor, scanValue, ValueScan } from "./_scanValue.js";

/** A record's source text and where it starts. */
export interface RecordSource {
  readonly text: string;
  readonly loc: SourceLocation;
}

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const COMMA = 0x2c;

/** `count` records, separated by commas and whitespace, in `text`, which starts at `loc`. */
export class RecordBatch {
  readonly #text: string;
  readonly #loc: SourceLocation;
  readonly #count: number;
  readonly #maxDepth: number;
  #starts: Int32Array | null = null;
  #ends: Int32Array | null = null;
  #locs: SourceLocation[] = [];

  /** `maxDepth`: no record nests deeper (the scanner checked). */
  constructor(text: string, loc: SourceLocation, count: number, maxDepth: number) {
    this.#text = text;
    this.#loc = loc;
    this.#count = count;
    this.#maxDepth = maxDepth;
  }

  /** Record `k`'s source, found when first asked for. */
  source(k: number): RecordSource {
    return new BatchedSource(this, k);
  }

  text(k: number): string {
    const ends = this.#find();
    return this.#text.slice((this.#starts as Int32Array)[k], ends[k]);
  }

  loc(k: number): SourceLocation {
    this.#find();
    return this.#locs[k] as SourceLocation;
  }

  /** Each record's start, end and location (once); returns the ends. */
  #find(): Int32Array {
    if (this.#ends) return this.#ends;
    const text = this.#text;
    const n = text.length;
    const starts = new Int32Array(this.#count);
    const ends = new Int32Array(this.#count);
    const scan = new ValueScan(this.#maxDepth);
    const cursor: Cursor = { line: 1, lineStart: 0, charBase: 0, extra: 0 }; // positions come from locationIn
    let p = 0;
    for (let k = 0; k < this.#count; k++) {
      let c = text.charCodeAt(p);
      while (c === SPACE || c === LF || c === CR || c === TAB || c === COMMA) c = text.charCodeAt(++p);
      starts[k] = p;
      scan.begin(c);
      p = scanValue(scan, cursor, text, p, n, this.#maxDepth);
      ends[k] = p;
      const previous = k === 0 ? 0 : (starts[k - 1] as number);
      const from = k === 0 ? this.#loc : (this.#locs[k - 1] as SourceLocation);
      this.#locs.push(locationIn(text.slice(previous), (starts[k] as number) - previous, from));
    }
    this.#starts = starts;
    this.#ends = ends;
    return ends;
  }
}

/** One record of a batch: its text and location asked of the batch. */
class BatchedSource implements RecordSource {
  readonly #batch: RecordBatch;
  readonly #k: number;

  constructor(batch: RecordBatch, k: number) {
    this.#batch = batch;
    this.#k = k;
  }

  get text(): string {
    return this.#batch.text(this.#k);
  }

  get loc(): SourceLocation {
    return this.#batch.loc(this.#k);
  }
}
