// The row that first defines each user, to compare the user's later rows with: kept in
// memory up to a budget, then on disk; the last one read is cached (a user's rows are
// usually next to each other).

import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A user's first row: where it is, and its user cells (email first, then USER_COLUMNS). */
export interface UserDefinition {
  row: number;
  line: number;
  cells: string[];
}

const PAGE = 1 << 14;

/** Definitions by user number (0, 1, 2, … in the order users first appear). */
export class UserDefinitions {
  readonly #budget: number;
  readonly #memory: string[] = [];
  #memoryBytes = 0;
  // on disk: offset and length of each definition past the in-memory ones
  readonly #offsets: Float64Array[] = [];
  readonly #lengths: Uint32Array[] = [];
  #dir: string | null = null;
  #fd = -1;
  #fileBytes = 0;
  #buffered: string[] = [];
  #bufferedBytes = 0;
  #lastUser = -1;
  #last: UserDefinition | null = null;

  /** `budget`: bytes of definitions kept in memory before the rest goes to a temporary file. */
  constructor(budget = 32 * 1024 * 1024) {
    this.#budget = budget;
  }

  /** Stores the definition of `user`, the next user number. */
  put(user: number, definition: UserDefinition): void {
    this.#lastUser = user;
    this.#last = definition;
    const text = JSON.stringify([definition.row, definition.line, ...definition.cells]);
    if (this.#fd === -1 && this.#memoryBytes + text.length * 2 <= this.#budget) {
      this.#memory[user] = text;
      this.#memoryBytes += text.length * 2;
      return;
    }
    const k = user - this.#memory.length;
    const page = k >> 14;
    if (page === this.#offsets.length) {
      this.#offsets.push(new Float64Array(PAGE));
      this.#lengths.push(new Uint32Array(PAGE));
    }
    const bytes = Buffer.byteLength(text);
    (this.#offsets[page] as Float64Array)[k & (PAGE - 1)] = this.#fileBytes + this.#bufferedBytes;
    (this.#lengths[page] as Uint32Array)[k & (PAGE - 1)] = bytes;
    this.#buffered.push(text);
    this.#bufferedBytes += bytes;
    if (this.#bufferedBytes >= 1 << 20) this.#flush();
  }

  /** The definition of `user`. */
  get(user: number): UserDefinition {
    if (user === this.#lastUser && this.#last) return this.#last;
    const text =
      user < this.#memory.length ? (this.#memory[user] as string) : this.#read(user - this.#memory.length);
    const [row, line, ...cells] = JSON.parse(text) as [number, number, ...string[]];
    this.#lastUser = user;
    this.#last = { row, line, cells };
    return this.#last;
  }

  /** Deletes the temporary file. */
  dispose(): void {
    if (this.#fd !== -1) closeSync(this.#fd);
    if (this.#dir) rmSync(this.#dir, { recursive: true, force: true });
    this.#fd = -1;
    this.#dir = null;
  }

  #read(k: number): string {
    const offset = (this.#offsets[k >> 14] as Float64Array)[k & (PAGE - 1)] as number;
    const length = (this.#lengths[k >> 14] as Uint32Array)[k & (PAGE - 1)] as number;
    if (offset >= this.#fileBytes) this.#flush();
    const buffer = Buffer.allocUnsafe(length);
    readSync(this.#fd, buffer, 0, length, offset);
    return buffer.toString("utf8");
  }

  #flush(): void {
    if (this.#buffered.length === 0) return;
    if (this.#fd === -1) {
      this.#dir = mkdtempSync(join(tmpdir(), "syncfile-users-"));
      this.#fd = openSync(join(this.#dir, "definitions"), "w+");
    }
    const data = this.#buffered.join("");
    writeSync(this.#fd, data, this.#fileBytes);
    this.#fileBytes += this.#bufferedBytes;
    this.#buffered = [];
    this.#bufferedBytes = 0;
  }
}
