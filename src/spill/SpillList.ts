// A list that keeps its first items in memory and appends the rest to a temporary file,
// so that what grows with the input (deferred references, CSV assignments) stays bounded.

import { readLines } from "./readLines.js";
import { openSpill, type SpillFile } from "./spill.js";

const encoder = new TextEncoder();

/** Append-only list of JSON-serialisable items, spilled to a temporary file past `memoryItems`. */
export class SpillList<T> {
  readonly #memoryItems: number;
  #memory: T[] = [];
  #file: SpillFile | null = null;
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
    return this.#file !== null;
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
    if (this.#file) for (const line of readLines(this.#file)) yield JSON.parse(line) as T;
  }

  /** Deletes the temporary file; the list is empty afterwards. */
  dispose(): void {
    this.#memory = [];
    this.#buffered = [];
    this.#file?.close();
    this.#file = null;
    this.#spilled = 0;
  }

  #flush(): void {
    if (this.#buffered.length === 0) return;
    this.#file ??= openSpill("syncfile-");
    this.#file.write(encoder.encode(`${this.#buffered.join("\n")}\n`));
    this.#spilled += this.#buffered.length;
    this.#buffered = [];
  }
}
