// Keyed fingerprints to compare at the end of a pass, in partitions on disk (KeyPartitions),
// with what a finding about each needs: its email, license, index and, when kept, its place,
// in a log on disk. Two kinds: keys (a repeat of an earlier key is a finding) and lookups (a
// lookup of no key is one). At the end each partition, or a part of one, is loaded into a
// small table: memory stays flat however many records a file has (issue 54).

import { ByteLog, writeText, writeU32 } from "./ByteLog.js";
import { KeyPartitions } from "./KeyPartitions.js";

/** Bytes of deferred records kept in memory before they go to the temporary file. */
const LOG_MEMORY_BYTES = 1024 * 1024;
/** A log record's offset is stored a quarter: records are padded to 4 bytes, offsets below 8 GiB. */
const MAX_OFFSET = 4 * 0x7fffffff;
/** Bytes before a log record's email: its length, license and index. */
const HEAD = 12;
/** Keys compared at once at the end by default: a table of 128 k slots (1.7 MB). */
const TABLE_KEYS = 64 * 1024;

/** A deferred record, read back for its finding (`P`: what says where it is, as JSON). */
export interface DeferredRecord<P = unknown> {
  email: string;
  /** Its license (-1: a user). */
  license: number;
  index: number;
  /** Where it is, when it was kept (else its pointer says). */
  place: P | null;
}

/** What `settle` found, in the order the records were deferred. */
export interface Settled<P> {
  /** `record` repeats the key of an earlier one, whose `payload` was `first`; `payload`: its own. */
  repeat(record: DeferredRecord<P>, payload: number, first: number): void;
  /** `record` looked up a key that none has. */
  missing(record: DeferredRecord<P>): void;
}

/** Keys and lookups deferred to the end, with their records (`P`: where one is, kept as JSON). */
export class DeferredKeys<P = unknown> {
  readonly #tableKeys: number;
  #keys: KeyPartitions | null = null;
  #lookups: KeyPartitions | null = null;
  #log: ByteLog | null = null;

  /** `tableKeys`: keys compared at once at the end (a partition of more is compared in parts). */
  constructor(tableKeys = TABLE_KEYS) {
    this.#tableKeys = tableKeys;
  }

  /** Whether any key was deferred. */
  get hasKeys(): boolean {
    return this.#keys !== null;
  }

  /** Defers key (h1, h2) with `payload` (≥ 0, below 2^31), of the record described. */
  key(h1: number, h2: number, payload: number, email: string, license: number, index: number): void {
    this.#keys ??= new KeyPartitions();
    this.#keys.push(h1, h2, payload, this.#write(email, license, index, null));
  }

  /** Defers a lookup of (h1, h2), of the record described. */
  lookup(h1: number, h2: number, email: string, license: number, index: number, place: P | null): void {
    this.#lookups ??= new KeyPartitions();
    this.#lookups.push(h1, h2, 0, this.#write(email, license, index, place));
  }

  /** Compares what was deferred, a partition at a time; tells `found` what it finds, in order. */
  settle(found: Settled<P>): void {
    if (!this.#keys && !this.#lookups) return;
    const keys = this.#keys ?? new KeyPartitions();
    const lookups = this.#lookups;
    // [ref, payload, first] of repeats; the refs of missing lookups
    const repeats: number[] = [];
    const missing: number[] = [];
    const tableKeys = this.#tableKeys;
    const table = new PartitionTable(tableKeys);
    const partitionBits = Math.log2(keys.partitions);
    for (let p = 0; p < keys.partitions; p++) {
      // a partition of more than tableKeys keys is compared in parts, by the next bits of h1
      let partBits = 0;
      while (keys.countOf(p) > tableKeys * 2 ** partBits) partBits++;
      const shift = 32 - partitionBits - partBits;
      const mask = (1 << partBits) - 1;
      for (let part = 0; part <= mask; part++) {
        table.clear();
        keys.forEach(p, (h1, h2, payload, ref) => {
          if (partBits > 0 && ((h1 >>> shift) & mask) !== part) return;
          const first = table.add(h1, h2, payload);
          if (first >= 0) repeats.push(ref, payload, first);
        });
        lookups?.forEach(p, (h1, h2, _, ref) => {
          if (partBits > 0 && ((h1 >>> shift) & mask) !== part) return;
          if (!table.has(h1, h2)) missing.push(ref);
        });
      }
    }
    // the log's offsets are the order records were deferred in
    const order = Array.from({ length: repeats.length / 3 }, (_, k) => k);
    order.sort((x, y) => (repeats[3 * x] as number) - (repeats[3 * y] as number));
    for (const k of order) {
      found.repeat(
        this.#read(repeats[3 * k] as number),
        repeats[3 * k + 1] as number,
        repeats[3 * k + 2] as number,
      );
    }
    missing.sort((x, y) => x - y);
    for (const ref of missing) found.missing(this.#read(ref));
  }

  /** Deletes the temporary files. */
  dispose(): void {
    this.#keys?.dispose();
    this.#lookups?.dispose();
    this.#log?.dispose();
  }

  /**
   * Writes a deferred record to the log: its email's UTF-8 length, its license, its index, the
   * email, and `place` as JSON when given; returns its offset / 4.
   */
  #write(email: string, license: number, index: number, place: P | null): number {
    this.#log ??= new ByteLog();
    const log = this.#log;
    if (log.size > MAX_OFFSET) throw new Error("DeferredKeys: more than 8 GiB of deferred records");
    const placeText = place ? JSON.stringify(place) : "";
    const { page, at } = log.reserve(HEAD + 3 * email.length + 3 * placeText.length + 3);
    const n = writeText(page, at + HEAD, email);
    const m = writeText(page, at + HEAD + n, placeText);
    writeU32(page, at, n);
    writeU32(page, at + 4, license);
    writeU32(page, at + 8, index);
    // the padding reads as the end of the place: JSON text never holds a NUL (at most 3 bytes:
    // set one by one, which costs less than a call of Buffer#fill, for millions of records)
    const length = (HEAD + n + m + 3) & ~3;
    for (let p = at + HEAD + n + m; p < at + length; p++) page[p] = 0;
    const offset = log.commit(length);
    if (log.memoryBytes > LOG_MEMORY_BYTES) log.spill();
    return offset / 4;
  }

  #read(ref: number): DeferredRecord<P> {
    const { page, at, length } = (this.#log as ByteLog).read(ref * 4);
    const n = page.readUInt32LE(at);
    const email = page.toString("utf8", at + HEAD, at + HEAD + n);
    let end = at + length;
    while (end > at + HEAD + n && page[end - 1] === 0) end--;
    const place = end > at + HEAD + n ? (JSON.parse(page.toString("utf8", at + HEAD + n, end)) as P) : null;
    return { email, license: page.readInt32LE(at + 4), index: page.readInt32LE(at + 8), place };
  }
}

/**
 * An open-addressing table of one partition's fingerprints (or a part's), with a payload each:
 * sized for the keys a part is expected to hold, it grows should one hold more.
 */
class PartitionTable {
  #h1: Int32Array;
  #h2: Int32Array;
  #payload: Int32Array;
  #used: Uint8Array;
  #mask: number;
  #count = 0;

  constructor(keys: number) {
    let slots = 16;
    while (slots < keys * 2) slots *= 2;
    this.#h1 = new Int32Array(slots);
    this.#h2 = new Int32Array(slots);
    this.#payload = new Int32Array(slots);
    this.#used = new Uint8Array(slots);
    this.#mask = slots - 1;
  }

  clear(): void {
    this.#used.fill(0);
    this.#count = 0;
  }

  /** Adds the key with `payload`; returns the payload of the same key added before, or -1. */
  add(h1: number, h2: number, payload: number): number {
    let slot = this.#slot(h1, h2);
    if (this.#used[slot]) return this.#payload[slot] as number;
    if (++this.#count * 4 > this.#used.length * 3) {
      this.#grow();
      slot = this.#slot(h1, h2);
    }
    this.#used[slot] = 1;
    this.#h1[slot] = h1;
    this.#h2[slot] = h2;
    this.#payload[slot] = payload;
    return -1;
  }

  has(h1: number, h2: number): boolean {
    return this.#used[this.#slot(h1, h2)] === 1;
  }

  /** The key's slot, or the empty one where it would go. */
  #slot(h1: number, h2: number): number {
    let slot = (h1 ^ Math.imul(h2, 0x9e3779b1)) & this.#mask;
    while (this.#used[slot] && (this.#h1[slot] !== h1 || this.#h2[slot] !== h2))
      slot = (slot + 1) & this.#mask;
    return slot;
  }

  #grow(): void {
    const [h1, h2, payload, used] = [this.#h1, this.#h2, this.#payload, this.#used];
    const slots = used.length * 2;
    this.#h1 = new Int32Array(slots);
    this.#h2 = new Int32Array(slots);
    this.#payload = new Int32Array(slots);
    this.#used = new Uint8Array(slots);
    this.#mask = slots - 1;
    for (let i = 0; i < used.length; i++) {
      if (!used[i]) continue;
      const slot = this.#slot(h1[i] as number, h2[i] as number);
      this.#used[slot] = 1;
      this.#h1[slot] = h1[i] as number;
      this.#h2[slot] = h2[i] as number;
      this.#payload[slot] = payload[i] as number;
    }
  }
}
