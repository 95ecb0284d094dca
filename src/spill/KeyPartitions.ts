// Keyed fingerprints with two 32-bit words each, sorted by nothing but the top bits of h1 into
// partitions on disk: what a pass cannot afford to look up at random as records come (the
// users of a file of millions, and the license users to find among them) is written here in
// order, and compared a partition at a time at the end, each small enough for a hash table.
// The keys are uniform (fingerprint.ts), so 2^bits partitions each get about 1 / 2^bits of
// them: memory is a block per partition while writing, and one partition's table while
// comparing, however long the file (issue 54: a 4 GB file's 10 M users took 65 MB of compact
// runs, and the random lookups into them a third of the time). A hash partition, not a sort:
// a partition is read in the order its entries were written, which is file order.

import { readFully } from "./readFully.js";
import { openSpill, type SpillFile } from "./spill.js";

/** Words an entry: h1, h2, a, b. */
const WORDS = 4;

/** Fingerprints with two words each, in 2^bits partitions by the top bits of h1. */
export class KeyPartitions {
  readonly #bits: number;
  readonly #blockEntries: number;
  /** The block being filled of each partition. */
  readonly #blocks: Int32Array<ArrayBuffer>[] = [];
  readonly #filled: number[] = [];
  /** Where each partition's full blocks are in the file. */
  readonly #written: number[][] = [];
  readonly #counts: number[] = [];
  #file: SpillFile | null = null;
  #end = 0;
  #count = 0;

  /** `bits`: 2^bits partitions; `blockEntries`: entries a partition buffers before a write. */
  constructor(bits = 6, blockEntries = 1024) {
    this.#bits = bits;
    this.#blockEntries = blockEntries;
    for (let p = 0; p < 1 << bits; p++) {
      this.#filled.push(0);
      this.#written.push([]);
      this.#counts.push(0);
    }
  }

  /** How many partitions there are. */
  get partitions(): number {
    return 1 << this.#bits;
  }

  /** How many entries were pushed. */
  get count(): number {
    return this.#count;
  }

  /** How many entries partition `p` holds. */
  countOf(p: number): number {
    return this.#counts[p] as number;
  }

  /** Appends the entry (h1, h2, a, b) to its partition. */
  push(h1: number, h2: number, a: number, b: number): void {
    const p = this.#bits === 0 ? 0 : h1 >>> (32 - this.#bits);
    let block = this.#blocks[p];
    if (!block) {
      block = new Int32Array(this.#blockEntries * WORDS);
      this.#blocks[p] = block;
    }
    let at = this.#filled[p] as number;
    block[at] = h1;
    block[at + 1] = h2;
    block[at + 2] = a;
    block[at + 3] = b;
    at += WORDS;
    if (at === block.length) {
      this.#file ??= openSpill("syncfile-keys-");
      this.#file.write(new Uint8Array(block.buffer), this.#end);
      (this.#written[p] as number[]).push(this.#end);
      this.#end += block.byteLength;
      at = 0;
    }
    this.#filled[p] = at;
    this.#counts[p] = (this.#counts[p] as number) + 1;
    this.#count++;
  }

  /** Calls `each` with every entry of partition `p`, in the order they were pushed. */
  forEach(p: number, each: (h1: number, h2: number, a: number, b: number) => void): void {
    const written = this.#written[p] as number[];
    if (written.length > 0) {
      const block = new Int32Array(this.#blockEntries * WORDS);
      const bytes = new Uint8Array(block.buffer);
      for (const position of written) {
        readFully(this.#file as SpillFile, bytes, position, "KeyPartitions");
        eachIn(block, block.length, each);
      }
    }
    const last = this.#blocks[p];
    if (last) eachIn(last, this.#filled[p] as number, each);
  }

  /** Deletes the temporary file and forgets every entry. */
  dispose(): void {
    this.#file?.close();
    this.#file = null;
    this.#blocks.length = 0;
    for (let p = 0; p < this.partitions; p++) {
      this.#filled[p] = 0;
      this.#counts[p] = 0;
      (this.#written[p] as number[]).length = 0;
    }
    this.#count = 0;
    this.#end = 0;
  }
}

function eachIn(
  block: Int32Array,
  words: number,
  each: (h1: number, h2: number, a: number, b: number) => void,
): void {
  for (let i = 0; i < words; i += WORDS) {
    each(block[i] as number, block[i + 1] as number, block[i + 2] as number, block[i + 3] as number);
  }
}
