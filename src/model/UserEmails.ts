// The emails of the users read so far: shared by the duplicate-email check and the license-user
// check (the CSV assembler, or its parsing thread, keeps its own). An AddressSet: keyed
// fingerprints narrow the search, the addresses decide whether two users are one (see there).
// About 20 bytes a user in memory for the last 128 k (by default), 6.5 for the ones before,
// and about 36 a user for the addresses (the last 1 MiB of them in memory by default, the rest
// on disk).
//
// Past `deferPast` users (a JSON validation's: 512 k), memory stays flat instead: a later user
// is looked up among the first ones at once (the AddressSet), and among the other later ones
// at the end, by partitions on disk (KeyPartitions); a license user not among the first users
// waits for the end the same way. Those found at the end are decided by the keyed fingerprint
// of the email (as a license user listed twice is: a false "duplicate" has a chance of about
// n² / 2^65 in n users, which no file can raise), and are reported by their pointer and email:
// where in the text they were is not kept for millions of records.

import { AddressSet, type AddressSetOptions } from "../spill/AddressSet.js";
import { ByteLog, writeText, writeU32 } from "../spill/ByteLog.js";
import { fingerprint, lastFingerprint } from "../spill/fingerprint.js";
import { KeyPartitions } from "../spill/KeyPartitions.js";
import type { Place } from "./DataRecord.js";

/** Bytes of deferred emails kept in memory before they go to the temporary file. */
const LOG_MEMORY_BYTES = 1024 * 1024;
/** A log record's offset is stored a quarter: records are padded to 4 bytes, offsets below 8 GiB. */
const MAX_OFFSET = 4 * 0x7fffffff;
/** Bytes before a log record's email: its length, license and index. */
const HEAD = 12;
/** Users compared at once at the end: a table of 128 k slots (1.7 MB), a partition or a part of one. */
const TABLE_KEYS = 64 * 1024;
/** Set in an entry's word `a` when the user has no other error. */
const VALID = 0x80000000 | 0;

/** What the end of a pass found among the users and license users it deferred, in file order. */
export interface SettledEmails {
  /** User `index` has the email of user `first`, an earlier one. */
  duplicate(index: number, first: number, email: string): void;
  /** A license user no user has the email of, at `place` (its pointer, when not kept). */
  unknown(email: string, place: Place): void;
}

/** Options of UserEmails: the AddressSet's, and where deferring starts. */
export interface UserEmailsOptions extends AddressSetOptions {
  /** Users past this many are compared at the end (see the header); default: never. */
  deferPast?: number;
  /** Users compared at once at the end (default 64 k): a partition of more is compared in parts. */
  tableKeys?: number;
}

/** Users' emails, compared case-insensitively, each with the index of the first user who has it. */
export class UserEmails {
  readonly #set: AddressSet;
  readonly #deferPast: number;
  readonly #tableKeys: number;
  #users = 0;
  /** The users past deferPast: (fingerprint, index | VALID, log offset / 4). */
  #later: KeyPartitions | null = null;
  /** License users to find among them: (fingerprint, 0, log offset / 4). */
  #lookups: KeyPartitions | null = null;
  /** The deferred records' emails, and where they are. */
  #log: ByteLog | null = null;
  #duplicatesOfValid = 0;

  /**
   * `memoryKeys`: how many emails are kept in the hash table before they go to a compact run;
   * `expectedKeys`: how many it is sized for from the start; `options`: the AddressSet's,
   * and `deferPast`.
   */
  constructor(memoryKeys?: number, expectedKeys?: number, options: UserEmailsOptions = {}) {
    this.#set = new AddressSet(memoryKeys, expectedKeys, options);
    this.#deferPast = options.deferPast ?? Number.POSITIVE_INFINITY;
    this.#tableKeys = options.tableKeys ?? TABLE_KEYS;
  }

  /**
   * Records user `index` (`valid`: it has no other error); returns the index of an earlier user
   * with this email, or -1 (also when that is decided at the end: `settle`).
   */
  add(email: string, index: number, valid = true): number {
    if (this.#users < this.#deferPast) {
      this.#users++;
      return this.#set.add(email, index);
    }
    const first = this.#set.get(email);
    if (first >= 0) return first;
    this.#users++;
    this.#later ??= new KeyPartitions();
    const ref = this.#write(email, -1, index, null);
    fingerprint(email, true);
    this.#later.push(lastFingerprint.h1, lastFingerprint.h2, valid ? index | VALID : index, ref);
    return -1;
  }

  /**
   * Whether a user has this email (case-insensitive): decided by the address while the user's
   * is in memory, else by its keyed fingerprint (AddressSet.has). Past `deferPast` users, one
   * not among the first is taken for now, and decided at the end: license user `index` of
   * license `license`, at `place` when known (else it is reported by its pointer).
   */
  has(email: string, license = -1, index = -1, place: Place | null = null): boolean {
    if (this.#set.has(email)) return true;
    if (!this.#later) return false;
    this.#lookups ??= new KeyPartitions();
    const ref = this.#write(email, license, index, place);
    fingerprint(email, true);
    this.#lookups.push(lastFingerprint.h1, lastFingerprint.h2, 0, ref);
    return true;
  }

  /** How many users without another error `settle` found to share an earlier user's email. */
  get duplicatesOfValid(): number {
    return this.#duplicatesOfValid;
  }

  /**
   * Compares what was deferred, a partition at a time, and tells `found` each user that
   * repeats an email and each license user that is no user, in file order.
   */
  settle(found: SettledEmails): void {
    const later = this.#later;
    if (!later) return;
    const lookups = this.#lookups;
    // [index, first, ref] of duplicates; [ref] of unknown license users
    const duplicates: number[] = [];
    const unknown: number[] = [];
    // a partition of more than TABLE_KEYS users is compared in parts, by the next bits of h1
    const tableKeys = this.#tableKeys;
    const table = new PartitionTable(tableKeys);
    const partitionBits = Math.log2(later.partitions);
    for (let p = 0; p < later.partitions; p++) {
      let partBits = 0;
      while (later.countOf(p) > tableKeys * 2 ** partBits) partBits++;
      const shift = 32 - partitionBits - partBits;
      const mask = (1 << partBits) - 1;
      for (let part = 0; part <= mask; part++) {
        table.clear();
        later.forEach(p, (h1, h2, a, ref) => {
          if (partBits > 0 && ((h1 >>> shift) & mask) !== part) return;
          const index = a & 0x7fffffff;
          const first = table.add(h1, h2, index);
          if (first < 0) return;
          duplicates.push(index, first, ref);
          if (a < 0) this.#duplicatesOfValid++;
        });
        lookups?.forEach(p, (h1, h2, _, ref) => {
          if (partBits > 0 && ((h1 >>> shift) & mask) !== part) return;
          if (!table.has(h1, h2)) unknown.push(ref);
        });
      }
    }
    const order = Array.from({ length: duplicates.length / 3 }, (_, k) => k);
    order.sort((x, y) => (duplicates[3 * x] as number) - (duplicates[3 * y] as number));
    for (const k of order) {
      const { email } = this.#read(duplicates[3 * k + 2] as number);
      found.duplicate(duplicates[3 * k] as number, duplicates[3 * k + 1] as number, email);
    }
    // license users were deferred in file order (those before the users at the end, by place)
    unknown.sort((x, y) => x - y);
    for (const ref of unknown) {
      const { email, license, index, place } = this.#read(ref);
      found.unknown(email, place ?? { pointer: `/licenses/${license}/users/${index}/email` });
    }
  }

  /** Deletes the temporary files of the emails that did not fit in memory. */
  dispose(): void {
    this.#set.dispose();
    this.#later?.dispose();
    this.#lookups?.dispose();
    this.#log?.dispose();
  }

  /**
   * Writes a deferred record to the log: its email's UTF-8 length, its license (-1: a user's),
   * its index, the email, and `place` as JSON when given; returns its offset / 4.
   */
  #write(email: string, license: number, index: number, place: Place | null): number {
    this.#log ??= new ByteLog();
    const log = this.#log;
    if (log.size > MAX_OFFSET) throw new Error("UserEmails: more than 8 GiB of deferred emails");
    const placeText = place ? JSON.stringify(place) : "";
    const { page, at } = log.reserve(HEAD + 3 * email.length + 3 * placeText.length + 3);
    const n = writeText(page, at + HEAD, email);
    const m = writeText(page, at + HEAD + n, placeText);
    writeU32(page, at, n);
    writeU32(page, at + 4, license);
    writeU32(page, at + 8, index);
    // the padding reads as the end of the place: JSON text never holds a NUL
    page.fill(0, at + HEAD + n + m, at + ((HEAD + n + m + 3) & ~3));
    const offset = log.commit((HEAD + n + m + 3) & ~3);
    if (log.memoryBytes > LOG_MEMORY_BYTES) log.spill();
    return offset / 4;
  }

  #read(ref: number): { email: string; license: number; index: number; place: Place | null } {
    const { page, at, length } = (this.#log as ByteLog).read(ref * 4);
    const n = page.readUInt32LE(at);
    const email = page.toString("utf8", at + HEAD, at + HEAD + n);
    let end = at + length;
    while (end > at + HEAD + n && page[end - 1] === 0) end--;
    const place =
      end > at + HEAD + n ? (JSON.parse(page.toString("utf8", at + HEAD + n, end)) as Place) : null;
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
