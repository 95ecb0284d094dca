// The workbook's shared strings: every text cell of a sheet Excel wrote is an index into this
// table, which can hold a string per user. The first ones (statuses, roles, licenses: what
// repeats comes first) stay strings; the rest are kept as UTF-8 in a ByteLog that moves to a
// temporary file past a budget, so a workbook of millions of users is read in bounded memory.
// A string larger than the reader's limit is kept as only that: the cell that uses it says so.

import type { Buffer } from "../bytes/buffer.js";
import { ByteLog, writeText } from "../spill/ByteLog.js";

const KEPT = 65_536;
/** The characters the strings kept as strings may hold together (each may be up to the limit). */
const KEPT_CHARS = 8 * 1024 * 1024;
const MEMORY_BUDGET = 16 * 1024 * 1024;
/** The offset noted for a string larger than the limit. */
const TOO_LARGE = -1;

export class SharedStrings {
  readonly #kept: (string | null)[] = [];
  #keptChars = 0;
  readonly #log = new ByteLog();
  #offsets = new Float64Array(1024);
  #count = 0;

  get count(): number {
    return this.#kept.length + this.#count;
  }

  /** Adds the next string; null for one larger than the limit. */
  add(text: string | null): void {
    // once one string went to the log, every later one does: an index is kept or logged by its place
    if (
      this.#count === 0 &&
      this.#kept.length < KEPT &&
      this.#keptChars + (text?.length ?? 0) <= KEPT_CHARS
    ) {
      this.#kept.push(text);
      this.#keptChars += text?.length ?? 0;
      return;
    }
    let offset = TOO_LARGE;
    if (text !== null) {
      const { page, at } = this.#log.reserve(text.length * 3);
      offset = this.#log.commit(writeText(page, at, text));
    }
    this.#logged(offset);
  }

  /** Adds the next string, the ASCII bytes `bytes[from, to)`, as `add` adds their text. */
  addAscii(bytes: Buffer, from: number, to: number): void {
    if (this.#count === 0 && this.#kept.length < KEPT) {
      this.add(bytes.toString("latin1", from, to));
      return;
    }
    // logged as they are, not made a string first
    const { page, at } = this.#log.reserve(to - from);
    for (let k = from, into = at; k < to; k++) page[into++] = bytes[k] as number;
    this.#logged(this.#log.commit(to - from));
  }

  #logged(offset: number): void {
    if (this.#count === this.#offsets.length) {
      const grown = new Float64Array(this.#offsets.length * 2);
      grown.set(this.#offsets);
      this.#offsets = grown;
    }
    this.#offsets[this.#count++] = offset;
    if (this.#log.memoryBytes > MEMORY_BUDGET) this.#log.spill();
  }

  /**
   * The string at `index` (a whole number); null when it was larger than the limit, undefined
   * past the table's end.
   */
  get(index: number): string | null | undefined {
    const kept = this.#kept.length;
    if (index < kept) return this.#kept[index];
    const k = index - kept;
    if (!(k < this.#count)) return undefined;
    const offset = this.#offsets[k] as number;
    if (offset === TOO_LARGE) return null;
    const { page, at, length } = this.#log.read(offset);
    return page.toString("utf8", at, at + length);
  }

  dispose(): void {
    this.#log.dispose();
  }
}
