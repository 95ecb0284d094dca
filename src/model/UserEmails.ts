// The emails of the users read so far, as fingerprints: shared by the duplicate-email check
// and the license-user check (the CSV assembler, or its parsing thread, keeps its own). About
// 20 bytes a user, however long the emails, for the last 128 k (by default); the ones before
// about 6.5 bytes, their indexes on disk (FingerprintSet).

import { FingerprintSet } from "../spill/FingerprintSet.js";
import { fingerprint, lastFingerprint } from "../spill/fingerprint.js";

/** Users' emails, compared case-insensitively, each with the index of the first user who has it. */
export class UserEmails {
  readonly #set: FingerprintSet;

  /**
   * `memoryKeys`: how many emails are kept in the hash table before they go to a compact run;
   * `expectedKeys`: how many it is sized for from the start.
   */
  constructor(memoryKeys?: number, expectedKeys?: number) {
    this.#set = new FingerprintSet(memoryKeys, expectedKeys);
  }

  /** Records user `index`; returns the index of an earlier user with this email, or -1. */
  add(email: string, index: number): number {
    fingerprint(email, true);
    return this.#set.add(lastFingerprint.h1, lastFingerprint.h2, index);
  }

  /** Whether a user has this email (case-insensitive). */
  has(email: string): boolean {
    fingerprint(email, true);
    return this.hasFingerprint(lastFingerprint.h1, lastFingerprint.h2);
  }

  /** Whether a user has the email whose fingerprint (folded case) is (h1, h2). */
  hasFingerprint(h1: number, h2: number): boolean {
    return this.#set.has(h1, h2);
  }

  /** Deletes the temporary file of the emails that did not fit in memory. */
  dispose(): void {
    this.#set.dispose();
  }
}
