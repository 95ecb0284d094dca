// A hash set of 64-bit fingerprints, each with a 32-bit payload, for millions of keys in
// little memory. Entries (h1, h2, payload) are appended to fixed-size pages that are never
// reallocated; the hash table holds only entry numbers, each under the top bits of its key's
// h1, so that a probe seldom reads the entry of another key (4 bytes a slot). Growing the table
// discards only the old slot array, never the entries: discarded typed arrays linger until a
// full GC, so this keeps the peak close to the steady size (about 17–20 bytes a key).
// Past a budget (128 k keys by default, about 3 MB with the sort's scratch) the keys in the
// table are sorted into a compact run (FingerprintRuns: 6.5 bytes a key in memory, the payloads
// on disk) and the table starts again empty: a user costs a third of what it did, and
// membership never reads the disk. (A JSON validation's users' emails keep 512 k: see
// ValidationCore.)

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

/** Set of fingerprints (h1, h2) mapping to a payload (e.g. the index where it was first seen). */
export class FingerprintSet {
  #pages: Int32Array[] = [];
  #count = 0;
  /** Entry number + 1 in each slot, under its tag (see ENTRY_BITS); 0 is empty. */
  #slots: Int32Array<ArrayBuffer>;
  #scratch: Int32Array<ArrayBuffer> | null = null;
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
   * Moves every key of the table to a compact sorted run, and empties the table. The entry numbers
   * are radix-sorted by unsigned h1 (four stable passes of 8 bits) in the slot table, which is
   * emptied anyway, and one scratch array; equal h1s are then put in h2 order.
   */
  #spill(): void {
    const count = this.#count;
    let order = this.#slots.subarray(0, count);
    // kept for the next spill: a thread that allocates little would keep a dropped one long
    if (!this.#scratch || this.#scratch.length < count) this.#scratch = new Int32Array(count);
    let other = this.#scratch.subarray(0, count);
    const h1 = (entry: number) =>
      (this.#pages[entry >> PAGE_BITS] as Int32Array)[(entry & PAGE_MASK) * 3] as number;
    const h2 = (entry: number) =>
      (this.#pages[entry >> PAGE_BITS] as Int32Array)[(entry & PAGE_MASK) * 3 + 1] as number;
    for (let entry = 0; entry < count; entry++) order[entry] = entry;
    const counts = new Int32Array(256);
    for (let shift = 0; shift < 32; shift += 8) {
      counts.fill(0);
      for (let i = 0; i < count; i++) {
        const digit = (h1(order[i] as number) >>> shift) & 255;
        counts[digit] = (counts[digit] as number) + 1;
      }
      for (let d = 0, sum = 0; d < 256; d++) {
        const n = counts[d] as number;
        counts[d] = sum;
        sum += n;
      }
      for (let i = 0; i < count; i++) {
        const entry = order[i] as number;
        const digit = (h1(entry) >>> shift) & 255;
        const to = counts[digit] as number;
        counts[digit] = to + 1;
        other[to] = entry;
      }
      [order, other] = [other, order];
    }
    // four passes: the sorted order is back in the slot table
    for (let i = 1; i < count; i++) {
      const entry = order[i] as number;
      const k1 = h1(entry);
      let j = i;
      while (
        j > 0 &&
        h1(order[j - 1] as number) === k1 &&
        h2(order[j - 1] as number) >>> 0 > h2(entry) >>> 0
      ) {
        order[j] = order[j - 1] as number;
        j--;
      }
      order[j] = entry;
    }
    this.#runs ??= new FingerprintRuns(this.#memoryKeys);
    this.#runs.write(count, (i, out) => {
      const entry = order[i] as number;
      const entries = this.#pages[entry >> PAGE_BITS] as Int32Array;
      const at = (entry & PAGE_MASK) * 3;
      out[0] = entries[at] as number;
      out[1] = entries[at + 1] as number;
      out[2] = entries[at + 2] as number;
    });
    this.#spilled += count;
    this.#slots.fill(0);
    this.#count = 0;
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
