// An open-addressing hash set of 64-bit fingerprints, each with a 32-bit payload, in typed
// arrays: 12 bytes a slot, no object per entry. Large sets are split into shards that grow
// one at a time, so growing never holds two copies of the whole table.

const EMPTY = 0;
const MIN_SLOTS = 16;

/** Set of fingerprints (h1, h2) mapping to a payload (e.g. the index where it was first seen). */
export class FingerprintSet {
  readonly #shardBits: number;
  #shards: Int32Array[];
  #masks: number[];
  #sizes: number[];
  #size = 0;

  /** `shardBits`: log2 of the number of shards; 8 (256 shards) suits millions of keys, 0 a few thousand. */
  constructor(shardBits = 0) {
    this.#shardBits = shardBits;
    const shards = 1 << shardBits;
    this.#shards = Array.from({ length: shards }, () => new Int32Array(MIN_SLOTS * 3));
    this.#masks = new Array<number>(shards).fill(MIN_SLOTS - 1);
    this.#sizes = new Array<number>(shards).fill(0);
  }

  /** How many fingerprints the set holds. */
  get size(): number {
    return this.#size;
  }

  /** Adds the fingerprint with `payload` (≥ 0); returns the payload already stored for it, or -1 when it is new. */
  add(h1: number, h2: number, payload: number): number {
    const shard = this.#shardOf(h1);
    const slots = this.#shards[shard] as Int32Array;
    const at = find(slots, this.#masks[shard] as number, h1, h2);
    if (slots[at + 2] !== EMPTY) return (slots[at + 2] as number) - 1;
    slots[at] = h1;
    slots[at + 1] = h2;
    slots[at + 2] = payload + 1;
    this.#size++;
    const size = ++(this.#sizes as number[])[shard]!;
    if (size * 4 > ((this.#masks[shard] as number) + 1) * 3) this.#grow(shard);
    return -1;
  }

  /** The payload stored for the fingerprint, or -1. */
  get(h1: number, h2: number): number {
    const shard = this.#shardOf(h1);
    const slots = this.#shards[shard] as Int32Array;
    return (slots[find(slots, this.#masks[shard] as number, h1, h2) + 2] as number) - 1;
  }

  /**
   * Empties the set. A well-used table is zeroed and kept (the next round is likely as
   * large, and discarded typed arrays linger until a full GC); a mostly empty large one shrinks.
   */
  clear(): void {
    if (this.#size === 0) return;
    for (let s = 0; s < this.#shards.length; s++) {
      const size = this.#sizes[s] as number;
      if (size === 0) continue;
      const capacity = (this.#masks[s] as number) + 1;
      if (capacity <= 65536 || size * 8 >= capacity) (this.#shards[s] as Int32Array).fill(0);
      else {
        this.#shards[s] = new Int32Array((capacity / 4) * 3);
        this.#masks[s] = capacity / 4 - 1;
      }
      this.#sizes[s] = 0;
    }
    this.#size = 0;
  }

  #shardOf(h1: number): number {
    // the top bits pick the shard, the low bits the slot: independent for a good hash
    return this.#shardBits === 0 ? 0 : h1 >>> (32 - this.#shardBits);
  }

  #grow(shard: number): void {
    const old = this.#shards[shard] as Int32Array;
    const capacity = ((this.#masks[shard] as number) + 1) * 2;
    const slots = new Int32Array(capacity * 3);
    const mask = capacity - 1;
    for (let at = 0; at < old.length; at += 3) {
      if (old[at + 2] === EMPTY) continue;
      const to = find(slots, mask, old[at] as number, old[at + 1] as number);
      slots[to] = old[at] as number;
      slots[to + 1] = old[at + 1] as number;
      slots[to + 2] = old[at + 2] as number;
    }
    this.#shards[shard] = slots;
    this.#masks[shard] = mask;
  }
}

/** The slot holding the fingerprint, or the empty slot where it would go (linear probing). */
function find(slots: Int32Array, mask: number, h1: number, h2: number): number {
  let i = h1 & mask;
  for (;;) {
    const at = i * 3;
    if (slots[at + 2] === EMPTY || (slots[at] === h1 && slots[at + 1] === h2)) return at;
    i = (i + 1) & mask;
  }
}
