// The emails of the users read so far: shared by the duplicate-email check and the license-user
// check (the CSV assembler, or its parsing thread, keeps its own). An AddressSet: keyed
// fingerprints narrow the search, the addresses decide whether two users are one (see there).
// About 20 bytes a user in memory for the last 128 k (by default), 6.5 for the ones before,
// and about 36 a user for the addresses (the last 1 MiB of them in memory by default, the rest
// on disk).

import { AddressSet, type AddressSetOptions } from "../spill/AddressSet.js";

/** Users' emails, compared case-insensitively, each with the index of the first user who has it. */
export class UserEmails {
  readonly #set: AddressSet;

  /**
   * `memoryKeys`: how many emails are kept in the hash table before they go to a compact run;
   * `expectedKeys`: how many it is sized for from the start; `options`: the AddressSet's.
   */
  constructor(memoryKeys?: number, expectedKeys?: number, options?: AddressSetOptions) {
    this.#set = new AddressSet(memoryKeys, expectedKeys, options);
  }

  /** Records user `index`; returns the index of an earlier user with this email, or -1. */
  add(email: string, index: number): number {
    return this.#set.add(email, index);
  }

  /**
   * Whether a user has this email (case-insensitive): decided by the address while the user's
   * is in memory, else by its keyed fingerprint (AddressSet.has).
   */
  has(email: string): boolean {
    return this.#set.has(email);
  }

  /** Deletes the temporary files of the emails that did not fit in memory. */
  dispose(): void {
    this.#set.dispose();
  }
}
