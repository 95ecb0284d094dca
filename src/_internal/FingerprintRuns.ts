// The fingerprints a FingerprintSet moved out of memory: sorted runs of (h1, h2, payload) in a
// temporary file. Each run keeps two things in memory — a split-block Bloom filter (12 bits a
// key: about 1 lookup in 200 of an absent key goes to the disk) and the first key of every 64th
// entry, to read the one block that can hold a key — so about 1.6 bytes a key stay in memory.

import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ENTRY_BYTES = 12;
const BLOCK_ENTRIES = 64;
const BLOOM_BITS_PER_KEY = 12;
const BLOOM_BLOCK_WORDS = 8; // 256 bits: one cache line's half
const SALTS = new Int32Array([
  0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31,
]);

/** Sets the block's eight bits (one a word) for key `x`. */
function bloomAdd(words: Int32Array, at: number, x: number): void {
  for (let i = 0; i < BLOOM_BLOCK_WORDS; i++) {
    words[at + i] = (words[at + i] as number) | (1 << (Math.imul(x, SALTS[i] as number) >>> 27));
  }
}

function bloomHas(words: Int32Array, at: number, x: number): boolean {
  for (let i = 0; i < BLOOM_BLOCK_WORDS; i++) {
    if (((words[at + i] as number) & (1 << (Math.imul(x, SALTS[i] as number) >>> 27))) === 0) return false;
  }
  return true;
}

/** The Bloom block of a fingerprint (h1 also places it in the memory table: mix it first). */
function bloomBlock(h1: number, h2: number, blocks: number): number {
  let x = h1 ^ Math.imul(h2, 0x9e3779b1);
  x ^= x >>> 15;
  x = Math.imul(x, 0x2c1b3c6d);
  x ^= x >>> 12;
  return (x & (blocks - 1)) * BLOOM_BLOCK_WORDS;
}

/** Unsigned comparison of two fingerprints. */
function compare(a1: number, a2: number, b1: number, b2: number): number {
  if (a1 !== b1) return a1 >>> 0 < b1 >>> 0 ? -1 : 1;
  if (a2 !== b2) return a2 >>> 0 < b2 >>> 0 ? -1 : 1;
  return 0;
}

interface Run {
  /** Byte offset of the run's first entry in the file. */
  start: number;
  count: number;
  bloom: Int32Array;
  blocks: number;
  /** The first entry's h1 and h2 of each block of BLOCK_ENTRIES entries. */
  firstH1: Int32Array;
  firstH2: Int32Array;
}

/** Sorted runs of fingerprints with payloads, on disk, searched through small in-memory indexes. */
export class FingerprintRuns {
  #runs: Run[] = [];
  #dir: string | null = null;
  #fd = -1;
  #end = 0;
  /** One block of entries read back (the file holds them in this machine's byte order). */
  readonly #block = new Int32Array(BLOCK_ENTRIES * 3);

  /** How many fingerprints the runs hold. */
  get size(): number {
    let n = 0;
    for (const run of this.#runs) n += run.count;
    return n;
  }

  /**
   * Writes a run: `count` fingerprints given sorted (unsigned h1, then h2) by `sorted(i)`, which
   * fills `out` with [h1, h2, payload] of the i-th. The fingerprints must be absent from every run.
   */
  write(count: number, sorted: (i: number, out: Int32Array) => void): void {
    if (count === 0) return;
    this.#open();
    const blocks = 2 ** Math.max(0, Math.ceil(Math.log2((count * BLOOM_BITS_PER_KEY) / 256)));
    const run: Run = {
      start: this.#end,
      count,
      bloom: new Int32Array(blocks * BLOOM_BLOCK_WORDS),
      blocks,
      firstH1: new Int32Array(Math.ceil(count / BLOCK_ENTRIES)),
      firstH2: new Int32Array(Math.ceil(count / BLOCK_ENTRIES)),
    };
    const chunk = new Int32Array(4096 * 3);
    const entry = new Int32Array(3);
    let used = 0;
    for (let i = 0; i < count; i++) {
      sorted(i, entry);
      const h1 = entry[0] as number;
      const h2 = entry[1] as number;
      chunk.set(entry, used);
      used += 3;
      bloomAdd(run.bloom, bloomBlock(h1, h2, blocks), h2);
      if (i % BLOCK_ENTRIES === 0) {
        run.firstH1[i / BLOCK_ENTRIES] = h1;
        run.firstH2[i / BLOCK_ENTRIES] = h2;
      }
      if (used === chunk.length || i === count - 1) {
        this.#writeAll(new Uint8Array(chunk.buffer, 0, used * 4));
        used = 0;
      }
    }
    this.#runs.push(run);
  }

  /** The payload stored for the fingerprint, or -1. */
  get(h1: number, h2: number): number {
    for (const run of this.#runs) {
      if (!bloomHas(run.bloom, bloomBlock(h1, h2, run.blocks), h2)) continue;
      const found = this.#search(run, h1, h2);
      if (found >= 0) return found;
    }
    return -1;
  }

  /** Deletes the temporary file and forgets every run. */
  dispose(): void {
    if (this.#fd !== -1) closeSync(this.#fd);
    if (this.#dir) rmSync(this.#dir, { recursive: true, force: true });
    this.#fd = -1;
    this.#dir = null;
    this.#end = 0;
    this.#runs = [];
  }

  /** The payload of (h1, h2) in `run`, or -1: the one block that can hold it, read and searched. */
  #search(run: Run, h1: number, h2: number): number {
    let lo = 0;
    let hi = run.firstH1.length - 1;
    if (compare(h1, h2, run.firstH1[0] as number, run.firstH2[0] as number) < 0) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (compare(h1, h2, run.firstH1[mid] as number, run.firstH2[mid] as number) >= 0) lo = mid;
      else hi = mid - 1;
    }
    const entries = Math.min(BLOCK_ENTRIES, run.count - lo * BLOCK_ENTRIES);
    const bytes = entries * ENTRY_BYTES;
    const into = new Uint8Array(this.#block.buffer);
    const at = run.start + lo * BLOCK_ENTRIES * ENTRY_BYTES;
    for (let read = 0; read < bytes; ) {
      const n = readSync(this.#fd, into, read, bytes - read, at + read);
      if (n === 0) throw new Error("FingerprintRuns: the temporary file is shorter than written");
      read += n;
    }
    const words = this.#block;
    for (let i = 0; i < entries; i++) {
      if (words[i * 3] === h1 && words[i * 3 + 1] === h2) return words[i * 3 + 2] as number;
    }
    return -1;
  }

  #open(): void {
    if (this.#fd !== -1) return;
    this.#dir = mkdtempSync(join(tmpdir(), "syncfile-keys-"));
    this.#fd = openSync(join(this.#dir, "runs"), "w+");
  }

  #writeAll(bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.length) {
      done += writeSync(this.#fd, bytes, done, bytes.length - done, this.#end + done);
    }
    this.#end += bytes.length;
  }
}
