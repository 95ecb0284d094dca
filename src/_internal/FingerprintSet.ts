// A hash set of 64-bit fingerprints, each with a 32-bit payload, for millions of keys in
// little memory. Entries (h1, h2, payload) are appended to fixed-size pages that are never
// reallocated; the hash table holds only entry numbers (4 bytes a slot). Growing the table
// discards only the old slot array, never the entries: discarded typed arrays linger until a
// full GC, so this keeps the peak close to the steady size (about 17–20 bytes a key).

const PAGE_BITS = 14;
const PAGE_ENTRIES = 1 << PAGE_BITS; // 16 384 entries, 192 KiB a page
const PAGE_MASK = PAGE_ENTRIES - 1;
const MIN_SLOTS = 16;

/** Set of fingerprints (h1, h2) mapping to a payload (e.g. the index where it was first seen). */
export class FingerprintSet {
  #pages: Int32Array[] = [];
  #count = 0;
  /** Entry number + 1 in each slot; 0 is empty. */
  #slots = new Int32Array(MIN_SLOTS);
  #mask = MIN_SLOTS - 1;

  /** How many fingerprints the set holds. */
  get size(): number {
    return this.#count;
  }

  /** Adds the fingerprint with `payload` (≥ 0); returns the payload already stored for it, or -1 when it is new. */
  add(h1: number, h2: number, payload: number): number {
    const slot = this.#find(h1, h2);
    const found = this.#slots[slot] as number;
    if (found !== 0) return this.#payload(found - 1);
    const entry = this.#count++;
    const page = entry >> PAGE_BITS;
    if (page === this.#pages.length) this.#pages.push(new Int32Array(PAGE_ENTRIES * 3));
    const at = (entry & PAGE_MASK) * 3;
    const entries = this.#pages[page] as Int32Array;
    entries[at] = h1;
    entries[at + 1] = h2;
    entries[at + 2] = payload;
    this.#slots[slot] = entry + 1;
    if (this.#count * 4 > (this.#mask + 1) * 3) this.#grow();
    return -1;
  }

  /** The payload stored for the fingerprint, or -1. */
  get(h1: number, h2: number): number {
    const found = this.#slots[this.#find(h1, h2)] as number;
    return found === 0 ? -1 : this.#payload(found - 1);
  }

  /** Empties the set, keeping its pages and, when it was well used, its table for the next round. */
  clear(): void {
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
