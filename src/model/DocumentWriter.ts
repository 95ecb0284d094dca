// What receives a data file piece by piece: the JSON and CSV writers, the server's sync. The
// pieces come in the reader's order: users as they are read; a license's users before its
// license (JSON, where the license is complete only at its end) or after it (CSV).

/** Receives the document piece by piece; `end()` after the last. */
export interface DocumentWriter {
  /** A user (any value: a file with errors may have users that are not objects). */
  user(value: unknown): void;
  /**
   * A license. `userCount` is how many of its users were given before it (JSON) or will be
   * given after it (CSV), as licenseUser calls with its index.
   */
  license(index: number, value: unknown, userCount: number): void;
  /** A user of license `licenseIndex`; `afterUsers` when every user of the file came before. */
  licenseUser(licenseIndex: number, value: unknown, afterUsers: boolean): void;
  /** After the last piece. */
  end(): void;
}

/** Where written text goes. */
export type TextOut = (chunk: string) => void;
