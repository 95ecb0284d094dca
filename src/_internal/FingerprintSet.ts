// An open-addressing hash set of 64-bit fingerprints, each with a 32-bit payload, in one
// Int32Array: 12 bytes a slot, no object per entry, so it stays small for millions of keys.

const EMPTY = 0;

/** Set of fingerprints (h1, h2) mapping to a payload (e.g. the index where it was first seen). */
export class FingerprintSet {
  #slots: Int32Array;
  #mask: number;
  #size = 0;

  constructor(initialCapacity = 1024) {
    let capacity = 16;
    while (capacity < initialCapacity * 2) capacity *= 2;
    this.#slots = new Int32Array(capacity * 3);
    this.#mask = capacity - 1;
  }

  /** How many fingerprints the set holds. */
  get size(): number {
    return this.#size;
  }

  /** Adds the fingerprint with `payload`; returns the payload already stored for it, or -1 when it is new. */
  add(h1: number, h2: number, payload: number): number {
    const found = this.#find(h1, h2);
    const slots = this.#slots;
    if (slots[found + 2] !== EMPTY) return (slots[found + 2] as number) - 1;
    slots[found] = h1;
    slots[found + 1] = h2;
    slots[found + 2] = payload + 1;
    if (++this.#size * 10 > (this.#mask + 1) * 7) this.#grow();
    return -1;
  }

  /** The payload stored for the fingerprint, or -1. */
  get(h1: number, h2: number): number {
    const found = this.#find(h1, h2);
    return (this.#slots[found + 2] as number) - 1;
  }

  /** Empties the set, keeping its memory when it is small. */
  clear(): void {
    if (this.#slots.length > 3 * 65536) {
      this.#slots = new Int32Array(16 * 3);
      this.#mask = 15;
    } else this.#slots.fill(0);
    this.#size = 0;
  }

  /** The slot holding the fingerprint, or the empty slot where it would go. */
  #find(h1: number, h2: number): number {
    const slots = this.#slots;
    const mask = this.#mask;
    let i = h1 & mask;
    for (;;) {
      const at = i * 3;
      if (slots[at + 2] === EMPTY || (slots[at] === h1 && slots[at + 1] === h2)) return at;
      i = (i + 1) & mask;
    }
  }

  #grow(): void {
    const old = this.#slots;
    const capacity = (this.#mask + 1) * 2;
    this.#slots = new Int32Array(capacity * 3);
    this.#mask = capacity - 1;
    for (let at = 0; at < old.length; at += 3) {
      if (old[at + 2] === EMPTY) continue;
      const to = this.#find(old[at] as number, old[at + 1] as number);
      this.#slots[to] = old[at] as number;
      this.#slots[to + 1] = old[at + 1] as number;
      this.#slots[to + 2] = old[at + 2] as number;
    }
  }
}
