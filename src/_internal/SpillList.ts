// A list that keeps its first items in memory and appends the rest to a temporary file,
// so that what grows with the input (deferred references, CSV assignments) stays bounded.

import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readLines } from "./readLines.js";

/** Append-only list of JSON-serialisable items, spilled to a temporary file past `memoryItems`. */
export class SpillList<T> {
  readonly #memoryItems: number;
  #memory: T[] = [];
  #dir: string | null = null;
  #fd = -1;
  #spilled = 0;
  #buffered: string[] = [];

  constructor(memoryItems = 100_000) {
    this.#memoryItems = memoryItems;
  }

  /** Items held, in memory and on disk. */
  get length(): number {
    return this.#spilled + this.#buffered.length + this.#memory.length;
  }

  /** True when some items are on disk. */
  get spilled(): boolean {
    return this.#fd !== -1;
  }

  push(item: T): void {
    if (this.#memory.length < this.#memoryItems) {
      this.#memory.push(item);
      return;
    }
    this.#buffered.push(JSON.stringify(item));
    if (this.#buffered.length >= 4096) this.#flush();
  }

  /** Every item, in the order pushed: memory first, then the file. */
  *[Symbol.iterator](): Generator<T> {
    yield* this.#memory;
    this.#flush();
    if (this.#fd === -1) return;
    for (const line of readLines(this.#fd)) yield JSON.parse(line) as T;
  }

  /** Deletes the temporary file; the list is empty afterwards. */
  dispose(): void {
    this.#memory = [];
    this.#buffered = [];
    if (this.#fd !== -1) closeSync(this.#fd);
    if (this.#dir) rmSync(this.#dir, { recursive: true, force: true });
    this.#fd = -1;
    this.#dir = null;
    this.#spilled = 0;
  }

  #flush(): void {
    if (this.#buffered.length === 0) return;
    if (this.#fd === -1) {
      this.#dir = mkdtempSync(join(tmpdir(), "syncfile-"));
      this.#fd = openSync(join(this.#dir, "spill.jsonl"), "w+");
    }
    writeSync(this.#fd, `${this.#buffered.join("\n")}\n`);
    this.#spilled += this.#buffered.length;
    this.#buffered = [];
  }
}
