// A hash set of 64-bit fingerprints, each with a 32-bit payload, for millions of keys in
// little memory. Entries (h1, h2, payload) are appended to fixed-size pages that are never
// reallocated; the hash table holds only entry numbers (4 bytes a slot). Growing the table
// discards only the old slot array, never the entries: discarded typed arrays linger until a
// full GC, so this keeps the peak close to the steady size (about 17–20 bytes a key).
// Past a memory budget (3 M keys by default, about 54 MB) the keys in memory are sorted and
// moved to a run on disk (FingerprintRuns, about 1.6 bytes a key left in memory), and the
// table starts again empty: memory stays bounded however many keys come.

import { FingerprintRuns } from "./FingerprintRuns.js";

const PAGE_BITS = 14;
const PAGE_ENTRIES = 1 << PAGE_BITS; // 16 384 entries, 192 KiB a page
const PAGE_MASK = PAGE_ENTRIES - 1;
const MIN_SLOTS = 16;
const DEFAULT_MEMORY_KEYS = 3 * 1024 * 1024;
/** Where the low and high 32 bits of a 64-bit integer are, in a Uint32Array view of it. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const LOW = LITTLE_ENDIAN ? 0 : 1;
const HIGH = 1 - LOW;

/** Set of fingerprints (h1, h2) mapping to a payload (e.g. the index where it was first seen). */
export class FingerprintSet {
  #pages: Int32Array[] = [];
  #count = 0;
  /** Entry number + 1 in each slot; 0 is empty. */
  #slots = new Int32Array(MIN_SLOTS);
  #mask = MIN_SLOTS - 1;
  readonly #maxSlots: number;
  #runs: FingerprintRuns | null = null;
  #spilled = 0;

  /**
   * `memoryKeys`: about how many fingerprints stay in memory (rounded to the table's size:
   * between 3/8 and 3/4 of a power of two) before they move to a temporary file.
   */
  constructor(memoryKeys = DEFAULT_MEMORY_KEYS) {
    this.#maxSlots = Math.max(MIN_SLOTS, 2 ** Math.ceil(Math.log2((memoryKeys * 4) / 3)));
  }

  /** How many fingerprints the set holds. */
  get size(): number {
    return this.#count + this.#spilled;
  }

  /** How many of them are on disk. */
  get spilled(): number {
    return this.#spilled;
  }

  /** Adds the fingerprint with `payload` (≥ 0); returns the payload already stored for it, or -1 when it is new. */
  add(h1: number, h2: number, payload: number): number {
    const slot = this.#find(h1, h2);
    const found = this.#slots[slot] as number;
    if (found !== 0) return this.#payload(found - 1);
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
    this.#slots[slot] = entry + 1;
    if (this.#count * 4 > (this.#mask + 1) * 3) {
      if (this.#mask + 1 < this.#maxSlots) this.#grow();
      else this.#spill();
    }
    return -1;
  }

  /** The payload stored for the fingerprint, or -1. */
  get(h1: number, h2: number): number {
    const found = this.#slots[this.#find(h1, h2)] as number;
    if (found !== 0) return this.#payload(found - 1);
    return this.#runs ? this.#runs.get(h1, h2) : -1;
  }

  /** Empties the set, keeping its pages and, when it was well used, its table for the next round. */
  clear(): void {
    this.#runs?.dispose();
    this.#spilled = 0;
    this.#emptyTable();
  }

  /** Deletes the temporary file (the set is empty afterwards). */
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
      const entry = found - 1;
      const entries = pages[entry >> PAGE_BITS] as Int32Array;
      const at = (entry & PAGE_MASK) * 3;
      if (entries[at] === h1 && entries[at + 1] === h2) return i;
      i = (i + 1) & mask;
    }
  }

  /** Moves every key in memory to a sorted run on disk, and empties the table. */
  #spill(): void {
    const count = this.#count;
    // the 64-bit keys h1·2³² + h2, sorted natively; each one's payload is then found in the table
    const keys = new BigUint64Array(count);
    const halves = new Uint32Array(keys.buffer);
    for (let entry = 0; entry < count; entry++) {
      const entries = this.#pages[entry >> PAGE_BITS] as Int32Array;
      const at = (entry & PAGE_MASK) * 3;
      halves[entry * 2 + HIGH] = entries[at] as number;
      halves[entry * 2 + LOW] = entries[at + 1] as number;
    }
    keys.sort();
    this.#runs ??= new FingerprintRuns();
    this.#runs.write(count, (i, out) => {
      const h1 = halves[i * 2 + HIGH] as number;
      const h2 = halves[i * 2 + LOW] as number;
      out[0] = h1;
      out[1] = h2;
      out[2] = this.#payload((this.#slots[this.#find(h1 | 0, h2 | 0)] as number) - 1);
    });
    this.#spilled += count;
    this.#emptyTable();
  }

  #grow(): void {
    const capacity = (this.#mask + 1) * 2;
    const slots = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let entry = 0; entry < this.#count; entry++) {
      let i = ((this.#pages[entry >> PAGE_BITS] as Int32Array)[(entry & PAGE_MASK) * 3] as number) & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = entry + 1;
    }
    this.#slots = slots;
    this.#mask = mask;
  }
}
