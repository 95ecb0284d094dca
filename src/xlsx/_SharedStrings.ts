// The workbook's shared strings: every text cell of a sheet Excel wrote is an index into this
// table, which can hold a string per user. The first ones (statuses, roles, licenses: what
// repeats comes first) stay strings; the rest are kept as UTF-8 in a ByteLog that moves to a
// temporary file past a budget, so a workbook of millions of users is read in bounded memory.

import { ByteLog, writeText } from "../_internal/ByteLog.js";

const KEPT = 65_536;
const MEMORY_BUDGET = 16 * 1024 * 1024;

export class SharedStrings {
  readonly #kept: string[] = [];
  readonly #log = new ByteLog();
  #offsets = new Float64Array(1024);
  #count = 0;

  get count(): number {
    return this.#kept.length + this.#count;
  }

  add(text: string): void {
    if (this.#kept.length < KEPT) {
      this.#kept.push(text);
      return;
    }
    const { page, at } = this.#log.reserve(text.length * 3);
    const offset = this.#log.commit(writeText(page, at, text));
    if (this.#count === this.#offsets.length) {
      const grown = new Float64Array(this.#offsets.length * 2);
      grown.set(this.#offsets);
      this.#offsets = grown;
    }
    this.#offsets[this.#count++] = offset;
    if (this.#log.memoryBytes > MEMORY_BUDGET) this.#log.spill();
  }

  /** The string at `index`, or undefined past the table's end. */
  get(index: number): string | undefined {
    if (index < KEPT) return this.#kept[index];
    const k = index - KEPT;
    if (!(k < this.#count)) return undefined;
    const { page, at, length } = this.#log.read(this.#offsets[k] as number);
    return page.toString("utf8", at, at + length);
  }

  dispose(): void {
    this.#log.dispose();
  }
}
