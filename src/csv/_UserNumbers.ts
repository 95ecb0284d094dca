// Which user each row with an email is of: users are numbered in the order their emails first
// appear (compared case-insensitively). Worked out in the assembler's thread, or on the worker
// that parses (csvParallel), which hands the numbers over with the rows.

import { UserEmails } from "../model/UserEmails.js";

/** The users of rows, asked in row order. */
export interface UserNumbers {
  /** The number of the user whose email is `email` (not empty): a new one (`isNew`) for an email not seen before. */
  user(email: string): number;
  /** Whether the last email asked about was new. */
  readonly isNew: boolean;
  /** Deletes temporary files. */
  dispose(): void;
}

/**
 * How many users' emails stay in the hash table before they go to compact runs: every row asks
 * for its user, and a row whose email is in a run is looked up there by binary search: more than
 * FingerprintSet's default keeps that search off the rows of most files, for a little memory.
 */
const EMAILS_IN_TABLE = 1024 * 1024;
/**
 * The users the table is sized for from the start: 1 M slots (4 MB, untouched pages cost no
 * memory), the size a large file grows it to, without the time the growing takes.
 */
const EMAILS_EXPECTED = 768 * 1024;

/** UserNumbers from the users' emails (fingerprints, on disk past a budget). */
export class EmailNumbers implements UserNumbers {
  readonly #emails = new UserEmails(EMAILS_IN_TABLE, EMAILS_EXPECTED);
  #count = 0;
  #isNew = false;
  // the previous row's email and user: a user's rows usually come together
  #lastEmail = "";
  #lastUser = -1;

  get isNew(): boolean {
    return this.#isNew;
  }

  user(email: string): number {
    if (email === this.#lastEmail) {
      this.#isNew = false;
      return this.#lastUser;
    }
    const first = this.#emails.add(email, this.#count);
    this.#isNew = first < 0;
    this.#lastEmail = email;
    this.#lastUser = first < 0 ? this.#count++ : first;
    return this.#lastUser;
  }

  dispose(): void {
    this.#emails.dispose();
  }
}
