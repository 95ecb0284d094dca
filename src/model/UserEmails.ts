// The emails of the users read so far, as fingerprints: shared by the duplicate-email
// check and the license-user check. About 20 bytes a user, however long the emails, for the
// last half million; the ones before about 6.5 bytes, their indexes on disk (FingerprintSet).

import { FingerprintSet } from "../_internal/FingerprintSet.js";
import { fingerprint, lastFingerprint } from "../_internal/fingerprint.js";

/** Users' emails, compared case-insensitively, each with the index of the first user who has it. */
export class UserEmails {
  readonly #set = new FingerprintSet();
  // the user registered last: a reader registers a user, then the check sees the same record
  #lastEmail: string | null = null;
  #lastIndex = -1;

  /** Records user `index`; returns the index of an earlier user with this email (or `index` itself when already recorded), or -1. */
  add(email: string, index: number): number {
    if (index === this.#lastIndex && email === this.#lastEmail) return index;
    fingerprint(email, true);
    const first = this.#set.add(lastFingerprint.h1, lastFingerprint.h2, index);
    if (first < 0) {
      this.#lastEmail = email;
      this.#lastIndex = index;
    }
    return first;
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
