// The row that first defines each user, to compare the user's later rows with. Binary records
// in a ByteLog (on disk past a budget); an offset kept for every 64th user only, since users
// are stored in order; the last one read is cached (a user's rows are usually together).

import { ByteLog, writeText, writeU32 } from "../spill/ByteLog.js";

/** A user's first row: where it is, and its user cells (email first, then USER_COLUMNS). */
export interface UserDefinition {
  row: number;
  line: number;
  cells: string[];
}

const STRIDE = 64;

/** Definitions by user number (0, 1, 2, … in the order users first appear). */
export class UserDefinitions {
  readonly #budget: number;
  readonly #log = new ByteLog(undefined, []);
  readonly #every: number[] = []; // offset of users 0, 64, 128, …
  #count = 0;
  #lastUser = -1;
  #last: UserDefinition | null = null;

  /** `budget`: bytes of definitions kept in memory before older ones go to a temporary file. */
  constructor(budget = 4 * 1024 * 1024) {
    this.#budget = budget;
  }

  /** Stores the definition of the next user (numbers are given in order from 0); `cells` is kept, not copied. */
  put(user: number, row: number, line: number, cells: string[]): void {
    if (user !== this.#count) throw new Error("UserDefinitions: users must be stored in order");
    let max = 8;
    for (const cell of cells) max += 4 + cell.length * 3;
    const { page, at } = this.#log.reserve(max);
    writeU32(page, at, row);
    writeU32(page, at + 4, line);
    let p = at + 8;
    for (const cell of cells) {
      const n = writeText(page, p + 4, cell);
      writeU32(page, p, n);
      p += 4 + n;
    }
    const offset = this.#log.commit(p - at);
    if (user % STRIDE === 0) this.#every.push(offset);
    this.#count++;
    this.#lastUser = user;
    this.#last = { row, line, cells };
    if (this.#log.memoryBytes > this.#budget) this.#log.spill();
  }

  /** The definition of `user`. */
  get(user: number): UserDefinition {
    if (user === this.#lastUser && this.#last) return this.#last;
    let offset = this.#every[Math.floor(user / STRIDE)] as number;
    let view = this.#log.read(offset);
    for (let k = user % STRIDE; k > 0; k--) {
      offset = this.#log.next(offset, view.length);
      view = this.#log.read(offset);
    }
    const { page, at, length } = view;
    const cells: string[] = [];
    for (let p = at + 8; p < at + length; ) {
      const n = page.readUInt32LE(p);
      cells.push(page.toString("utf8", p + 4, p + 4 + n));
      p += 4 + n;
    }
    this.#lastUser = user;
    this.#last = { row: page.readUInt32LE(at), line: page.readUInt32LE(at + 4), cells };
    return this.#last;
  }

  /** Deletes the temporary file. */
  dispose(): void {
    this.#log.dispose();
  }
}
