// The fingerprints a FingerprintSet moved out of its hash table: sorted runs. A run keeps its
// keys in memory, sorted, with a bucket index over the top 16–20 bits of h1: the bucket gives
// those bits, so only h1's low 16 bits and h2 are kept (6.5 bytes a key with the index, against
// 16–20 in the table), and whether a key is there is answered without the disk. The payloads
// (4 bytes a key) go to a temporary file, read back only when one is asked for (a repeat).
// The keys are kept in fixed-size pages of a pool the runs share: a merge gives back its inputs'
// pages as it reads past them and takes its output's from the same pool, so it never holds two
// copies, and no dropped array of megabytes waits for a garbage collection (a thread that
// allocates little has few: forcing one after each spill lowered the CSV worker's peak).

import { readFully } from "./readFully.js";
import { openSpill, type SpillFile } from "./spill.js";

/** About this many keys a bucket: the bucket index costs 4 bytes per 8 keys. */
const KEYS_PER_BUCKET = 8;
const MAX_BUCKET_BITS = 20;

interface Run {
  count: number;
  /** h1 whole (a run too small for 16 bucket bits), or its low 16 bits (the bucket has the rest): pages of keys. */
  h1: Int32Array[] | null;
  low: Uint16Array[] | null;
  h2: Int32Array[];
  /** Unsigned h1 >>> shift is the bucket (shift 32: a single bucket). */
  shift: number;
  /** Where each bucket starts in h1/h2; one more entry than buckets. */
  starts: Int32Array;
  /** The run's payloads, in key order, in a file of their own. */
  payloads: SpillFile;
}

/** Runs are merged, two of a size, up to this many keys: a few runs to search, and a bounded merge. */
const MAX_MERGED = 2 * 1024 * 1024;
/** At most this many keys a page (256 KiB of h2). */
const MAX_PAGE_BITS = 16;

/** Pages of one size and type, given back by the runs merged or forgotten for the next ones. */
class PagePool<T extends Int32Array | Uint16Array> {
  readonly #free: T[] = [];
  readonly #make: () => T;
  /** How many pages this pool has made. */
  made = 0;

  constructor(make: () => T) {
    this.#make = make;
  }

  /** A page, its content undefined. */
  take(): T {
    const page = this.#free.pop();
    if (page) return page;
    this.made++;
    return this.#make();
  }

  give(page: T): void {
    this.#free.push(page);
  }
}

/** The pools of a FingerprintRuns and their page size. */
class KeyPages {
  readonly bits: number;
  readonly mask: number;
  readonly int32: PagePool<Int32Array>;
  readonly uint16: PagePool<Uint16Array>;

  constructor(bits: number) {
    this.bits = bits;
    this.mask = (1 << bits) - 1;
    this.int32 = new PagePool(() => new Int32Array(1 << bits));
    this.uint16 = new PagePool(() => new Uint16Array(1 << bits));
  }

  /** Gives back the pages `from` to `to` (excluded; to the last by default) of `run`. */
  give(run: Run, from: number, to = run.h2.length): void {
    for (let p = from; p < to; p++) {
      this.int32.give(run.h2[p] as Int32Array);
      if (run.h1) this.int32.give(run.h1[p] as Int32Array);
      else this.uint16.give((run.low as Uint16Array[])[p] as Uint16Array);
    }
  }
}

/** Sorted runs of fingerprints, in memory, with their payloads on disk. */
export class FingerprintRuns {
  #runs: Run[] = [];
  readonly #payload = new Int32Array(1);
  readonly #pages: KeyPages;

  /** `runKeys`: the size of the smallest runs; pages are no larger (up to 64 k keys). */
  constructor(runKeys: number) {
    this.#pages = new KeyPages(Math.min(MAX_PAGE_BITS, Math.floor(Math.log2(Math.max(1, runKeys)))));
  }

  /**
   * Adds a run: `count` fingerprints given sorted (unsigned h1, then unsigned h2) by `sorted(i)`,
   * which fills `out` with [h1, h2, payload] of the i-th. They must be absent from every run.
   * The newest runs are then merged while the one before is no larger (a binary counter).
   */
  write(count: number, sorted: (i: number, out: Int32Array) => void): void {
    if (count === 0) return;
    this.#runs.push(this.#build(count, sorted));
    for (;;) {
      const n = this.#runs.length;
      const older = this.#runs[n - 2];
      const newer = this.#runs[n - 1] as Run;
      if (!older || older.count > newer.count || older.count + newer.count > MAX_MERGED) break;
      this.#runs.length = n - 2;
      this.#runs.push(this.#merge(older, newer));
    }
  }

  #build(count: number, sorted: (i: number, out: Int32Array) => void): Run {
    const bits = Math.min(MAX_BUCKET_BITS, Math.max(0, Math.floor(Math.log2(count / KEYS_PER_BUCKET))));
    const pages = this.#pages;
    const run: Run = {
      count,
      h1: bits < 16 ? [] : null,
      low: bits < 16 ? null : [],
      h2: [],
      shift: 32 - bits,
      starts: new Int32Array((1 << bits) + 1),
      payloads: openSpill("syncfile-keys-"),
    };
    let h1Page: Int32Array = new Int32Array(0);
    let lowPage: Uint16Array = new Uint16Array(0);
    let h2Page: Int32Array = new Int32Array(0);
    const chunk = new Int32Array(16384);
    const entry = new Int32Array(3);
    let used = 0;
    let bucket = 0;
    for (let i = 0; i < count; i++) {
      // the key first: in a merge, reading it gives back the pages read past
      sorted(i, entry);
      const at = i & pages.mask;
      if (at === 0) {
        h2Page = pages.int32.take();
        run.h2.push(h2Page);
        if (run.h1) {
          h1Page = pages.int32.take();
          run.h1.push(h1Page);
        } else {
          lowPage = pages.uint16.take();
          (run.low as Uint16Array[]).push(lowPage);
        }
      }
      const h1 = entry[0] as number;
      if (run.h1) h1Page[at] = h1;
      else lowPage[at] = h1 & 0xffff;
      h2Page[at] = entry[1] as number;
      // every bucket up to this key's starts at or before it
      const b = bucketOf(run, h1);
      while (bucket < b) run.starts[++bucket] = i;
      chunk[used++] = entry[2] as number;
      if (used === chunk.length || i === count - 1) {
        run.payloads.write(new Uint8Array(chunk.buffer, 0, used * 4));
        used = 0;
      }
    }
    while (bucket < 1 << bits) run.starts[++bucket] = count;
    return run;
  }

  /** One run of the keys of two, read in order; their files are deleted, their pages given back. */
  #merge(a: Run, b: Run): Run {
    const ra = new RunReader(a, this.#pages);
    const rb = new RunReader(b, this.#pages);
    const merged = this.#build(a.count + b.count, (_, out) => {
      const fromA = rb.done || (!ra.done && before(ra, rb));
      (fromA ? ra : rb).next(out);
    });
    for (const reader of [ra, rb]) reader.close();
    return merged;
  }

  /** How many pages of keys were made (each of 2^bits keys): the runs' memory, spare pages included. */
  get pagesMade(): { pages: number; bits: number } {
    return { pages: this.#pages.int32.made + this.#pages.uint16.made, bits: this.#pages.bits };
  }

  /** Whether a run holds the fingerprint. */
  has(h1: number, h2: number): boolean {
    for (const run of this.#runs) if (indexOf(run, h1, h2, this.#pages) >= 0) return true;
    return false;
  }

  /** The payload stored for the fingerprint, or -1 (read from the file). */
  get(h1: number, h2: number): number {
    for (const run of this.#runs) {
      const i = indexOf(run, h1, h2, this.#pages);
      if (i < 0) continue;
      readFully(run.payloads, new Uint8Array(this.#payload.buffer), i * 4, "FingerprintRuns");
      return this.#payload[0] as number;
    }
    return -1;
  }

  /** Deletes the temporary files and forgets every run (its pages kept for the next ones). */
  dispose(): void {
    for (const run of this.#runs) {
      run.payloads.close();
      this.#pages.give(run, 0);
    }
    this.#runs = [];
  }
}

/** A run's keys and payloads in order, for a merge: the pages read past are given back. */
class RunReader {
  readonly #run: Run;
  readonly #pages: KeyPages;
  #i = 0;
  #bucket = 0;
  readonly #chunk = new Int32Array(16384);
  #chunkStart = 0;
  #chunkEnd = 0;
  /** The current key. */
  h1 = 0;
  h2 = 0;

  constructor(run: Run, pages: KeyPages) {
    this.#run = run;
    this.#pages = pages;
    this.#key();
  }

  /** Gives back the pages not yet given, closes and deletes the run's file. */
  close(): void {
    this.#pages.give(this.#run, this.#i >> this.#pages.bits);
    this.#run.payloads.close();
  }

  get done(): boolean {
    return this.#i >= this.#run.count;
  }

  /** Writes the current [h1, h2, payload] to `out` and moves on. */
  next(out: Int32Array): void {
    const i = this.#i;
    if (i >= this.#chunkEnd) {
      const n = Math.min(this.#chunk.length, this.#run.count - i);
      readFully(this.#run.payloads, new Uint8Array(this.#chunk.buffer, 0, n * 4), i * 4, "FingerprintRuns");
      this.#chunkStart = i;
      this.#chunkEnd = i + n;
    }
    out[0] = this.h1;
    out[1] = this.h2;
    out[2] = this.#chunk[i - this.#chunkStart] as number;
    this.#i++;
    const pages = this.#pages;
    if ((this.#i & pages.mask) === 0)
      pages.give(this.#run, (this.#i >> pages.bits) - 1, this.#i >> pages.bits);
    this.#key();
  }

  #key(): void {
    const run = this.#run;
    const i = this.#i;
    if (i >= run.count) return;
    const page = i >> this.#pages.bits;
    const at = i & this.#pages.mask;
    this.h2 = (run.h2[page] as Int32Array)[at] as number;
    if (run.h1) {
      this.h1 = (run.h1[page] as Int32Array)[at] as number;
      return;
    }
    while ((run.starts[this.#bucket + 1] as number) <= i) this.#bucket++;
    const low = ((run.low as Uint16Array[])[page] as Uint16Array)[at] as number;
    this.h1 = (this.#bucket << run.shift) | (low & ((1 << run.shift) - 1));
  }
}

/** The bucket of a key in `run` (`>>> 32` would shift by nothing: one bucket is bucket 0). */
function bucketOf(run: Run, h1: number): number {
  return run.shift === 32 ? 0 : h1 >>> run.shift;
}

/** Whether a's current key comes before b's (unsigned h1, then h2). */
function before(a: RunReader, b: RunReader): boolean {
  const a1 = a.h1 >>> 0;
  const b1 = b.h1 >>> 0;
  return a1 < b1 || (a1 === b1 && a.h2 >>> 0 < b.h2 >>> 0);
}

/**
 * The position of (h1, h2) in `run`, or -1: a binary search within its bucket, where the keys
 * share h1's top bits (so comparing its low 16 bits is comparing h1).
 */
function indexOf(run: Run, h1: number, h2: number, pages: KeyPages): number {
  const b = bucketOf(run, h1);
  let lo = run.starts[b] as number;
  let hi = (run.starts[b + 1] as number) - 1;
  const whole = run.h1;
  const low = run.low as Uint16Array[];
  const k1 = whole ? h1 >>> 0 : h1 & 0xffff;
  const k2 = h2 >>> 0;
  const { bits, mask } = pages;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const page = mid >> bits;
    const at = mid & mask;
    const m1 = whole
      ? ((whole[page] as Int32Array)[at] as number) >>> 0
      : ((low[page] as Uint16Array)[at] as number);
    const m2 = ((run.h2[page] as Int32Array)[at] as number) >>> 0;
    if (m1 < k1 || (m1 === k1 && m2 < k2)) lo = mid + 1;
    else if (m1 === k1 && m2 === k2) return mid;
    else hi = mid - 1;
  }
  return -1;
}
