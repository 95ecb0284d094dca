// A set of email addresses compared case-insensitively (toLowerCase's folding), each with a
// payload: a FingerprintSet narrows the search, and the addresses decide. Every address added
// is also written, folded, to a ByteLog (its last 1 MiB in memory by default, the rest in a
// temporary file), and the fingerprint's payload is where: a fingerprint found is confirmed by reading
// that address back. Two different addresses with one fingerprint (a chance of 2^-64 a pair
// with the keyed fingerprint, but a test's degenerate hash makes them at will) are both kept:
// the second in a Map beside the set.
//
// What decides:
// - add() and get() (a duplicate user, a row's user): always the
//   addresses, read back from the file when they are no longer in memory (only on a match:
//   a duplicate, or a user's later row that does not follow its previous one).
// - has() (whether a license user is one of the users, whether its user is deleted): the
//   addresses while the match is in memory (its fingerprint in the hash table, its address in
//   the log's memory: the last 128 k to 1 M keys, by the owner's budget); past that, the keyed
//   fingerprint alone, as reading the disk for every license user would cost more than the
//   pass: a license user whose address is not a user's is then taken for one with a chance of
//   about n / 2^64 (n: the addresses in the set), which no file can raise, as the key is drawn
//   anew for every run and never shown.
// About 36 bytes an address on disk or in memory (the address in UTF-8, 12 bytes besides),
// on top of the FingerprintSet.

import { Buffer } from "../bytes/buffer.js";
import { ByteLog, writeU32 } from "./ByteLog.js";
import { FingerprintSet } from "./FingerprintSet.js";
import { type Fingerprinter, fingerprint, lastFingerprint } from "./fingerprint.js";

/**
 * The addresses' bytes kept in memory before older ones go to the temporary file (by default):
 * a CSV validation has four sets of them on its two threads, and each keeps as much again in
 * pages to fill (4 MiB each took its peak from 151 to 170 MB).
 */
const ADDRESS_BYTES = 1024 * 1024;
/** A record's offset is stored a quarter: records are padded to 4 bytes, offsets below 8 GiB. */
const MAX_OFFSET = 4 * 0x7fffffff;

/** Options of an AddressSet (tests shrink them, or make the fingerprints collide). */
export interface AddressSetOptions {
  /** Bytes of addresses kept in memory (default 1 MiB). */
  addressBytes?: number;
  /** The fingerprint (default: the keyed one of fingerprint.ts). */
  hash?: Fingerprinter;
}

/** Email addresses (case-insensitive), each with the payload of its first add. */
export class AddressSet {
  readonly #set: FingerprintSet;
  readonly #addressBytes: number;
  readonly #hash: Fingerprinter;
  // pages written to the file are filled again: a thread that allocates little (the CSV
  // parsing thread's) would keep dropped ones until a full collection
  #log = new ByteLog(undefined, []);
  /** Addresses whose fingerprint another address has: the address folded → payload. */
  #others: Map<string, number> | null = null;
  // the fingerprint of the address being looked up
  #h1 = 0;
  #h2 = 0;

  /**
   * `memoryKeys`, `expectedKeys`: the FingerprintSet's (how many fingerprints its hash table
   * holds before they go to a compact run; how many it is sized for from the start).
   */
  constructor(memoryKeys?: number, expectedKeys?: number, options: AddressSetOptions = {}) {
    this.#set = new FingerprintSet(memoryKeys, expectedKeys);
    this.#addressBytes = options.addressBytes ?? ADDRESS_BYTES;
    this.#hash = options.hash ?? fingerprint;
  }

  /**
   * Adds `address` with `payload` (≥ 0); returns the payload of the same address added
   * before, or -1 when it is new.
   */
  add(address: string, payload: number): number {
    this.#fingerprint(address);
    // the record written next starts where the log ends
    if (this.#log.size > MAX_OFFSET) throw new Error("AddressSet: more than 8 GiB of addresses");
    const at = this.#set.add(this.#h1, this.#h2, this.#log.size / 4);
    if (at < 0) {
      this.#write(address, payload);
      return -1;
    }
    const known = this.#read(at, address);
    if (known >= 0) return known;
    this.#others ??= new Map();
    const others = this.#others;
    const key = address.toLowerCase();
    const other = others.get(key);
    if (other !== undefined) return other;
    others.set(key, payload);
    return -1;
  }

  /** The payload of `address`, or -1. */
  get(address: string): number {
    this.#fingerprint(address);
    const at = this.#set.get(this.#h1, this.#h2);
    if (at < 0) return -1;
    const known = this.#read(at, address);
    if (known >= 0) return known;
    return this.#others?.get(address.toLowerCase()) ?? -1;
  }

  /** Whether the set has `address`: see the header for what decides. */
  has(address: string): boolean {
    this.#fingerprint(address);
    const at = this.#set.getInMemory(this.#h1, this.#h2);
    if (at === -1) return false;
    if (at < 0 || !this.#log.inMemory(at * 4)) return true; // the keyed fingerprint decides
    if (this.#read(at, address) >= 0) return true;
    return this.#others?.has(address.toLowerCase()) ?? false;
  }

  /** Empties the set. */
  clear(): void {
    this.#set.clear();
    this.#log.dispose();
    this.#log = new ByteLog(undefined, []);
    this.#others = null;
  }

  /** Deletes the temporary files (the set is empty afterwards). */
  dispose(): void {
    this.#set.dispose();
    this.#log.dispose();
    this.#others = null;
  }

  #fingerprint(address: string): void {
    this.#hash(address, true);
    this.#h1 = lastFingerprint.h1;
    this.#h2 = lastFingerprint.h2;
  }

  /**
   * Writes a record: payload, the address's UTF-8 length, the address folded, up to a multiple
   * of 4 bytes, at the log's end.
   */
  #write(address: string, payload: number): void {
    // ASCII is folded as it is copied; past ASCII, toLowerCase's folding, in UTF-8
    const length = address.length;
    let { page, at } = this.#log.reserve(8 + 3 * length + 3);
    let n = 0;
    for (; n < length; n++) {
      const c = address.charCodeAt(n);
      if (c >= 0x80) break;
      page[at + 8 + n] = c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
    }
    if (n < length) {
      const text = address.toLowerCase();
      // toLowerCase lengthens İ (i and a dot) but not past 3 bytes a unit: this is for safety
      const bytes = Buffer.byteLength(text);
      if (bytes > 3 * length) ({ page, at } = this.#log.reserve(8 + bytes + 3));
      n = page.write(text, at + 8, "utf8");
    }
    writeU32(page, at, payload);
    writeU32(page, at + 4, n);
    this.#log.commit((8 + n + 3) & ~3);
    if (this.#log.memoryBytes > this.#addressBytes) this.#log.spill();
  }

  /** The payload of the record at `at` (offset / 4) when it holds `address`; else -1. */
  #read(at: number, address: string): number {
    const { page, at: start } = this.#log.read(at * 4);
    const n = page.readUInt32LE(start + 4);
    const bytes = start + 8;
    let ascii = n === address.length;
    for (let i = 0; ascii && i < n; i++) {
      let c = address.charCodeAt(i);
      if (c >= 0x80) ascii = false;
      else {
        if (c >= 0x41 && c <= 0x5a) c += 0x20;
        if (page[bytes + i] !== c) return -1;
      }
    }
    if (!ascii && page.toString("utf8", bytes, bytes + n) !== address.toLowerCase()) return -1;
    return page.readUInt32LE(start);
  }
}
