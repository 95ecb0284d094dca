// The emails of the users read so far: shared by the duplicate-email check and the license-user
// check (the CSV assembler, or its parsing thread, keeps its own). An AddressSet: keyed
// fingerprints narrow the search, the addresses decide whether two users are one (see there).
// About 20 bytes a user in memory for the last 128 k (by default), 6.5 for the ones before,
// and about 36 a user for the addresses (the last 1 MiB of them in memory by default, the rest
// on disk).
//
// Past `deferPast` users (a JSON validation's: 512 k), memory stays flat instead: a later user
// is looked up among the first ones at once (the AddressSet), and among the other later ones
// at the end, by partitions on disk (DeferredKeys); a license user not among the first users
// waits for the end the same way. Those found at the end are decided by the keyed fingerprint
// of the email (as a license user listed twice is: a false "duplicate" has a chance of about
// n² / 2^65 in n users, which no file can raise), and are reported by their pointer and email:
// where in the text they were is not kept for millions of records.

import { AddressSet, type AddressSetOptions } from "../spill/AddressSet.js";
import { DeferredKeys } from "../spill/DeferredKeys.js";
import { fingerprint, lastFingerprint } from "../spill/fingerprint.js";
import type { Place } from "./DataRecord.js";

/** Set in a deferred user's payload when the user has no other error. */
const VALID = 0x40000000;

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
  /** Once users are deferred, the users of a license past this many are too (default 128 k). */
  listedPast?: number;
}

/** The users of one license kept at hand once users are deferred (about 3 MB). */
const LISTED_PAST = 128 * 1024;

/** Users' emails, compared case-insensitively, each with the index of the first user who has it. */
export class UserEmails {
  readonly #set: AddressSet;
  readonly #deferPast: number;
  readonly #deferred: DeferredKeys<Place>;
  readonly #tableKeys: number | undefined;
  readonly #listedPast: number;
  /** License users found at the end to be listed twice ("license/index"): not also unknown. */
  #excused: Set<string> | null = null;
  #users = 0;
  #duplicatesOfValid = 0;

  /**
   * `memoryKeys`: how many emails are kept in the hash table before they go to a compact run;
   * `expectedKeys`: how many it is sized for from the start; `options`: the AddressSet's,
   * and `deferPast`.
   */
  constructor(memoryKeys?: number, expectedKeys?: number, options: UserEmailsOptions = {}) {
    this.#set = new AddressSet(memoryKeys, expectedKeys, options);
    this.#deferPast = options.deferPast ?? Number.POSITIVE_INFINITY;
    this.#deferred = new DeferredKeys<Place>(options.tableKeys);
    this.#tableKeys = options.tableKeys;
    this.#listedPast = options.listedPast ?? LISTED_PAST;
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
    fingerprint(email, true);
    const payload = valid ? index | VALID : index;
    this.#deferred.key(lastFingerprint.h1, lastFingerprint.h2, payload, email, -1, index);
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
    if (!this.#deferred.hasKeys) return false;
    fingerprint(email, true);
    this.#deferred.lookup(lastFingerprint.h1, lastFingerprint.h2, email, license, index, place);
    return true;
  }

  /**
   * How many users of a license the license-user check keeps at hand: past them, once users
   * are deferred, whether one is listed twice is decided at the end too (`deferredKeys`).
   */
  get listedPast(): number {
    return this.#deferred.hasKeys ? this.#listedPast : Number.POSITIVE_INFINITY;
  }

  /** Keys to defer to the end the way users are (another check's). */
  deferredKeys(): DeferredKeys {
    return new DeferredKeys(this.#tableKeys);
  }

  /** License user `index` of `license` was found at the end to be listed twice: not also unknown. */
  excuse(license: number, index: number): void {
    this.#excused ??= new Set();
    this.#excused.add(`${license}/${index}`);
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
    if (!this.#deferred.hasKeys) return;
    this.#deferred.settle({
      repeat: (user, payload, first) => {
        if (payload & VALID) this.#duplicatesOfValid++;
        found.duplicate(user.index, first & ~VALID, user.email);
      },
      missing: ({ email, license, index, place }) => {
        if (this.#excused?.has(`${license}/${index}`)) return;
        found.unknown(email, place ?? { pointer: `/licenses/${license}/users/${index}/email` });
      },
    });
  }

  /** Deletes the temporary files of the emails that did not fit in memory. */
  dispose(): void {
    this.#set.dispose();
    this.#deferred.dispose();
  }
}
