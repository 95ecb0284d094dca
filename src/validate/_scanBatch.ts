// Scanner events across threads: the scanning thread's scanner writes them into batches, the
// checking thread replays them into a RecordBuilder in the same order. A batch carries each chunk's
// text once and every capture as numbers (start, end, location, ...), so sending it costs a
// string copy per chunk and a transferred Float64Array, not an object per record.

import {
  type CaptureEvent,
  type CaptureKind,
  emptyCapture,
  type LicenseEndEvent,
  type ScanSink,
} from "../json/ScanSink.js";
import type { Code } from "../report/catalog.js";
import type { FindingDetails } from "../report/Finding.js";

/** What crosses the thread boundary. */
export interface ScanBatch {
  /** Fixed-width events: WIDTH numbers each. */
  events: Float64Array;
  count: number;
  /** The texts the captures are slices of. */
  texts: string[];
  /** Rare event data: member keys, skip pointers, license ends, findings. */
  extras: unknown[];
}

const WIDTH = 13;
const CAPTURE = 0;
const LICENSE_END = 1;
const FINDING = 2;
const KINDS: readonly CaptureKind[] = ["user", "licenseUser", "license", "member", "skip"];
const KIND_CODES: Readonly<Record<CaptureKind, number>> = {
  user: 0,
  licenseUser: 1,
  license: 2,
  member: 3,
  skip: 4,
};

interface CaptureExtra {
  key: string;
  keyLoc: CaptureEvent["keyLoc"];
  pointer: string;
}

/** A scan sink that records events into batches. */
export class BatchWriter implements ScanSink {
  #events = new Float64Array(1024 * WIDTH);
  #count = 0;
  #texts: string[] = [];
  #lastText: string | null = null;
  #extras: unknown[] = [];

  /** Events waiting to be taken. */
  get size(): number {
    return this.#count;
  }

  capture(e: CaptureEvent): void {
    if (e.text !== this.#lastText) {
      this.#texts.push(e.text);
      this.#lastText = e.text;
    }
    let extra = -1;
    if (e.kind === "member" || e.kind === "skip") {
      extra =
        this.#extras.push({ key: e.key, keyLoc: e.keyLoc, pointer: e.pointer } satisfies CaptureExtra) - 1;
    }
    const o = this.#slot();
    const a = this.#events;
    a[o] = CAPTURE;
    a[o + 1] = KIND_CODES[e.kind];
    a[o + 2] = e.index;
    a[o + 3] = e.licenseIndex;
    a[o + 4] = this.#texts.length - 1;
    a[o + 5] = e.start;
    a[o + 6] = e.end;
    a[o + 7] = e.line;
    a[o + 8] = e.column;
    a[o + 9] = e.offset;
    a[o + 10] = e.commas;
    a[o + 11] = e.afterUsers ? 1 : 0;
    a[o + 12] = extra;
  }

  licenseEnd(e: LicenseEndEvent): void {
    this.#rare(LICENSE_END, e);
  }

  finding(code: Code, details: FindingDetails): void {
    this.#rare(FINDING, { code, details });
  }

  /** The events so far as one batch (null when there are none); the writer starts afresh. */
  take(): ScanBatch | null {
    if (this.#count === 0) return null;
    const batch = {
      events: this.#events.slice(0, this.#count * WIDTH),
      count: this.#count,
      texts: this.#texts,
      extras: this.#extras,
    };
    this.#count = 0;
    this.#texts = [];
    this.#lastText = null;
    this.#extras = [];
    return batch;
  }

  #rare(type: number, data: unknown): void {
    const o = this.#slot();
    this.#events[o] = type;
    this.#events[o + 12] = this.#extras.push(data) - 1;
  }

  #slot(): number {
    if ((this.#count + 1) * WIDTH > this.#events.length) {
      const grown = new Float64Array(this.#events.length * 2);
      grown.set(this.#events);
      this.#events = grown;
    }
    return this.#count++ * WIDTH;
  }
}

/** Replays a batch into `sink`, event by event, as the scanner emitted them. */
export function replayBatch(batch: ScanBatch, sink: ScanSink): void {
  const a = batch.events;
  const e = emptyCapture();
  for (let k = 0; k < batch.count; k++) {
    const type = a[k * WIDTH];
    if (type === CAPTURE) sink.capture(fillCapture(batch, k, e));
    else if (type === LICENSE_END) sink.licenseEnd(licenseEndAt(batch, k));
    else {
      const { code, details } = batch.extras[a[k * WIDTH + 12] as number] as {
        code: Code;
        details: FindingDetails;
      };
      sink.finding(code, details);
    }
  }
}

/** An integer as V8 stores small ones (offsets past 1 GiB stay doubles, as the scanner makes them). */
function smallInt(n: number): number {
  return n <= 0x3fffffff ? n | 0 : n;
}

/** The license end at `event`. */
function licenseEndAt(batch: ScanBatch, event: number): LicenseEndEvent {
  return batch.extras[batch.events[event * WIDTH + 12] as number] as LicenseEndEvent;
}

/** Fills `e` with the capture at `event` (no allocation) and returns it. */
function fillCapture(batch: ScanBatch, event: number, e: CaptureEvent): CaptureEvent {
  const a = batch.events;
  const o = event * WIDTH;
  const extra = a[o + 12] as number;
  // `| 0`: these are int32; reading them as doubles would change the hidden class that the
  // scanner's own event shares (its integer fields would become double fields, and slow)
  e.kind = KINDS[(a[o + 1] as number) | 0] as CaptureKind;
  e.index = (a[o + 2] as number) | 0;
  e.licenseIndex = (a[o + 3] as number) | 0;
  e.text = batch.texts[(a[o + 4] as number) | 0] as string;
  e.start = (a[o + 5] as number) | 0;
  e.end = (a[o + 6] as number) | 0;
  e.line = (a[o + 7] as number) | 0;
  e.column = (a[o + 8] as number) | 0;
  e.offset = smallInt(a[o + 9] as number);
  e.commas = (a[o + 10] as number) | 0;
  e.afterUsers = a[o + 11] === 1;
  e.value = undefined; // the scanning thread does not parse: this thread does
  e.source = null;
  const x = extra >= 0 ? (batch.extras[extra] as CaptureExtra) : null;
  e.key = x?.key ?? "";
  e.keyLoc = x?.keyLoc ?? null;
  e.pointer = x?.pointer ?? "";
  return e;
}
