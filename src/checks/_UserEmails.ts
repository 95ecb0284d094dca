// The emails of the users read so far, as fingerprints: shared by the duplicate-email
// check and the license-user check. 16 bytes a user, however long the emails.

import { FingerprintSet } from "../_internal/FingerprintSet.js";
import { fingerprint, lastFingerprint } from "../_internal/fingerprint.js";
import { U32List } from "../_internal/U32List.js";

/** Users' emails, compared case-insensitively, with the line where each user starts. */
export class UserEmails {
  readonly #set = new FingerprintSet(1 << 16);
  readonly #lines = new U32List();

  /** Records user `index` (starting at `line`); returns the index of an earlier user with this email, or -1. */
  add(email: string, index: number, line: number): number {
    fingerprint(email, true);
    const first = this.#set.add(lastFingerprint.h1, lastFingerprint.h2, index);
    if (first < 0) this.#lines.set(index, line);
    return first;
  }

  /** Whether a user has this email (case-insensitive). */
  has(email: string): boolean {
    fingerprint(email, true);
    return this.#set.get(lastFingerprint.h1, lastFingerprint.h2) >= 0;
  }

  /** The line where user `index` starts. */
  lineOf(index: number): number {
    return this.#lines.get(index);
  }
}
