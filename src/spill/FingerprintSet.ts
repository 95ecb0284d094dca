// A hash set of 64-bit fingerprints, each with a 32-bit payload, for millions of keys in
// little memory. Entries (h1, h2, payload) are appended to fixed-size pages that are never
// reallocated; the hash table holds only entry numbers, each under the top bits of its key's
// h1, so that a probe seldom reads the entry of another key (4 bytes a slot). Growing the table
// discards only the old slot array, never the entries: discarded typed arrays linger until a
// full GC, so this keeps the peak close to the steady size (about 17–20 bytes a key).
// Past a budget (128 k keys by default, about 2.5 MB) the keys in the table are sorted into a
// compact run (FingerprintRuns: 6.5 bytes a key in memory, the payloads on disk) and the table
// starts again empty: a user costs a third of what it did, and membership never reads the disk.
// (A JSON validation's users' emails keep 512 k: see ValidationCore.)

import { FingerprintRuns } from "./FingerprintRuns.js";

const PAGE_BITS = 14;
const PAGE_ENTRIES = 1 << PAGE_BITS; // 16 384 entries, 192 KiB a page
const PAGE_MASK = PAGE_ENTRIES - 1;
const MIN_SLOTS = 16;
const DEFAULT_MEMORY_KEYS = 128 * 1024;
/**
 * A slot holds its entry's number + 1 in its low ENTRY_BITS and the top bits of the entry's h1
 * above them, so that probing past other keys seldom reads their entries (a random read each:
 * most of the time of adding a key to a table of megabytes).
 */
const ENTRY_BITS = 21;
const ENTRY_MASK = (1 << ENTRY_BITS) - 1;
const TAG_MASK = ~ENTRY_MASK;
const MAX_MEMORY_KEYS = ENTRY_MASK - 1;
/** A spill's buckets: the top BUCKET_BITS of h1; in each, the rest of h1 and the entry number. */
const BUCKET_BITS = 11;
const BUCKETS = 1 << BUCKET_BITS;
const LOW_BITS = 32 - BUCKET_BITS;
const LOW_MASK = (1 << LOW_BITS) - 1;
/** Entry numbers are below this (at most MAX_MEMORY_KEYS): a bucket's number is low h1 × ENTRIES + entry. */
const ENTRIES = 1 << ENTRY_BITS;

/** Set of fingerprints (h1, h2) mapping to a payload (e.g. the index where it was first seen). */
export class FingerprintSet {
  #pages: Int32Array[] = [];
  #count = 0;
  /** Entry number + 1 in each slot, under its tag (see ENTRY_BITS); 0 is empty. */
  #slots: Int32Array<ArrayBuffer>;
  #scratch: Float64Array<ArrayBuffer> | null = null;
  #mask: number;
  readonly #memoryKeys: number;
  #runs: FingerprintRuns | null = null;
  #spilled = 0;

  /**
   * `memoryKeys`: how many fingerprints the hash table holds before they move to a compact run.
   * `expectedKeys`: how many it is sized for from the start (it grows past them).
   */
  constructor(memoryKeys = DEFAULT_MEMORY_KEYS, expectedKeys = 0) {
    this.#memoryKeys = Math.min(Math.max(1, memoryKeys), MAX_MEMORY_KEYS);
    let slots = MIN_SLOTS;
    while (slots * 3 < Math.min(expectedKeys, this.#memoryKeys) * 4) slots *= 2;
    this.#slots = new Int32Array(slots);
    this.#mask = slots - 1;
  }

  /** How many fingerprints the set holds. */
  get size(): number {
    return this.#count + this.#spilled;
  }

  /** How many pages of keys the compact runs made (see FingerprintRuns). */
  get runPages(): { pages: number; bits: number } {
    return this.#runs?.pagesMade ?? { pages: 0, bits: 0 };
  }

  /** How many of them are in compact runs (their payloads on disk). */
  get spilled(): number {
    return this.#spilled;
  }

  /** Adds the fingerprint with `payload` (≥ 0); returns the payload already stored for it, or -1 when it is new. */
  add(h1: number, h2: number, payload: number): number {
    const slot = this.#find(h1, h2);
    const found = this.#slots[slot] as number;
    if (found !== 0) return this.#payload((found & ENTRY_MASK) - 1);
    if (this.#runs) {
      const stored = this.#runs.get(h1, h2);
      if (stored >= 0) return stored;
    }
    const entry = this.#count++;
    const page = entry >> PAGE_BITS;
    if (page === this.#pages.length) this.#pages.push(new Int32Array(PAGE_ENTRIES * 3));
    const at = (entry & PAGE_MASK) * 3;
    const entries = this.#pages[page] as Int32Array;
    entries[at] = h1;
    entries[at + 1] = h2;
    entries[at + 2] = payload;
    this.#slots[slot] = (h1 & TAG_MASK) | (entry + 1);
    if (this.#count >= this.#memoryKeys) this.#spill();
    else if (this.#count * 4 > (this.#mask + 1) * 3) this.#grow();
    return -1;
  }

  /** Whether the set holds the fingerprint (without reading a payload from the disk). */
  has(h1: number, h2: number): boolean {
    if ((this.#slots[this.#find(h1, h2)] as number) !== 0) return true;
    return this.#runs ? this.#runs.has(h1, h2) : false;
  }

  /** The payload stored for the fingerprint, or -1. */
  get(h1: number, h2: number): number {
    const found = this.#slots[this.#find(h1, h2)] as number;
    if (found !== 0) return this.#payload((found & ENTRY_MASK) - 1);
    return this.#runs ? this.#runs.get(h1, h2) : -1;
  }

  /**
   * The payload stored for the fingerprint when it is in the hash table; -2 when it is in a
   * compact run (its payload not read from the disk); -1 when the set does not hold it.
   */
  getInMemory(h1: number, h2: number): number {
    const found = this.#slots[this.#find(h1, h2)] as number;
    if (found !== 0) return this.#payload((found & ENTRY_MASK) - 1);
    return this.#runs?.has(h1, h2) ? -2 : -1;
  }

  /** Empties the set, keeping its pages and, when it was well used, its table for the next round. */
  clear(): void {
    this.#runs?.dispose();
    this.#spilled = 0;
    this.#emptyTable();
  }

  /** Deletes the runs' temporary files (the set is empty afterwards). */
  dispose(): void {
    this.clear();
  }

  #emptyTable(): void {
    if (this.#count === 0) return;
    const capacity = this.#mask + 1;
    if (capacity <= 65536 || this.#count * 8 >= capacity) this.#slots.fill(0);
    else {
      this.#slots = new Int32Array(capacity / 4);
      this.#mask = capacity / 4 - 1;
    }
    this.#count = 0;
  }

  #payload(entry: number): number {
    return (this.#pages[entry >> PAGE_BITS] as Int32Array)[(entry & PAGE_MASK) * 3 + 2] as number;
  }

  /** The slot holding the fingerprint, or the empty slot where it would go (linear probing). */
  #find(h1: number, h2: number): number {
    const slots = this.#slots;
    const pages = this.#pages;
    const mask = this.#mask;
    let i = h1 & mask;
    for (;;) {
      const found = slots[i] as number;
      if (found === 0) return i;
      if (((found ^ h1) & TAG_MASK) === 0) {
        const entry = (found & ENTRY_MASK) - 1;
        const entries = pages[entry >> PAGE_BITS] as Int32Array;
        const at = (entry & PAGE_MASK) * 3;
        if (entries[at] === h1 && entries[at + 1] === h2) return i;
      }
      i = (i + 1) & mask;
    }
  }

  /**
   * Moves every key of the table to a compact sorted run, and empties the table. One pass over
   * the entries, in the order they were added (read in sequence), puts each in the bucket of the
   * top BUCKET_BITS of its h1, as a number that sorts as it should: the rest of h1 (unsigned),
   * then the entry. Each bucket is then sorted as Float64Array numbers (natively), and equal h1s
   * put in h2 order. The numbers are laid out in the slot table, which is emptied anyway, where
   * it has room (its length is at least 4/3 of the keys; twice them with a power of 2 for budget).
   * The four passes of an 8-bit radix sort that read each entry where the last pass put it took
   * 800 ms for a million keys, most of them waiting for memory.
   */
  #spill(): void {
    const count = this.#count;
    const pages = this.#pages;
    const starts = new Int32Array(BUCKETS + 1);
    for (let entry = 0; entry < count; entry++) {
      const h1 = (pages[entry >> PAGE_BITS] as Int32Array)[(entry & PAGE_MASK) * 3] as number;
      const bucket = (h1 >>> LOW_BITS) + 1;
      starts[bucket] = (starts[bucket] as number) + 1;
    }
    for (let b = 1; b <= BUCKETS; b++) starts[b] = (starts[b] as number) + (starts[b - 1] as number);
    const sorted = this.#sortScratch(count);
    const next = starts.slice(0, BUCKETS);
    for (let entry = 0; entry < count; entry++) {
      const h1 = (pages[entry >> PAGE_BITS] as Int32Array)[(entry & PAGE_MASK) * 3] as number;
      const bucket = h1 >>> LOW_BITS;
      const to = next[bucket] as number;
      next[bucket] = to + 1;
      sorted[to] = (h1 & LOW_MASK) * ENTRIES + entry;
    }
    const h2 = (value: number) => {
      const entry = value % ENTRIES;
      return ((pages[entry >> PAGE_BITS] as Int32Array)[(entry & PAGE_MASK) * 3 + 1] as number) >>> 0;
    };
    for (let b = 0; b < BUCKETS; b++) {
      const from = starts[b] as number;
      const to = starts[b + 1] as number;
      if (to - from < 2) continue;
      sorted.subarray(from, to).sort();
      // equal h1s (rare) by unsigned h2: insertion among the numbers of the same low h1
      for (let i = from + 1; i < to; i++) {
        const value = sorted[i] as number;
        const low = Math.floor(value / ENTRIES);
        if (Math.floor((sorted[i - 1] as number) / ENTRIES) !== low) continue;
        let j = i;
        while (
          j > from &&
          Math.floor((sorted[j - 1] as number) / ENTRIES) === low &&
          h2(sorted[j - 1] as number) > h2(value)
        ) {
          sorted[j] = sorted[j - 1] as number;
          j--;
        }
        sorted[j] = value;
      }
    }
    const entryAt = (i: number) => (sorted[i] as number) % ENTRIES;
    this.#runs ??= new FingerprintRuns(this.#memoryKeys);
    this.#runs.write(count, (i, out) => {
      const entry = entryAt(i);
      const entries = pages[entry >> PAGE_BITS] as Int32Array;
      const at = (entry & PAGE_MASK) * 3;
      out[0] = entries[at] as number;
      out[1] = entries[at + 1] as number;
      out[2] = entries[at + 2] as number;
    });
    this.#spilled += count;
    this.#slots.fill(0);
    this.#count = 0;
  }

  /** `count` numbers to sort: in the slot table when it has room, else in scratch kept for the next spill. */
  #sortScratch(count: number): Float64Array {
    if (this.#slots.length >= count * 2) return new Float64Array(this.#slots.buffer, 0, count);
    // kept: a thread that allocates little would keep a dropped one long
    if (!this.#scratch || this.#scratch.length < count) this.#scratch = new Float64Array(count);
    return this.#scratch.subarray(0, count);
  }

  #grow(): void {
    const capacity = (this.#mask + 1) * 2;
    const slots = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let entry = 0; entry < this.#count; entry++) {
      const h1 = (this.#pages[entry >> PAGE_BITS] as Int32Array)[(entry & PAGE_MASK) * 3] as number;
      let i = h1 & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = (h1 & TAG_MASK) | (entry + 1);
    }
    this.#slots = slots;
    this.#mask = mask;
  }
}
