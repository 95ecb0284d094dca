// A growable list of unsigned 32-bit integers (4 bytes an item).

/** Append-only list of uint32 values, indexed from 0. */
export class U32List {
  #items = new Uint32Array(1024);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  /** Stores `value` at `index`, growing the list as needed. */
  set(index: number, value: number): void {
    if (index >= this.#items.length) {
      let capacity = this.#items.length * 2;
      while (capacity <= index) capacity *= 2;
      const grown = new Uint32Array(capacity);
      grown.set(this.#items);
      this.#items = grown;
    }
    this.#items[index] = value;
    if (index >= this.#length) this.#length = index + 1;
  }

  get(index: number): number {
    return this.#items[index] ?? 0;
  }

  clear(): void {
    this.#length = 0;
    if (this.#items.length > 65536) this.#items = new Uint32Array(1024);
  }
}
