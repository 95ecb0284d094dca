// The values a mapping lists (statuses, values that grant a license, rows to leave out, values
// that mean nothing), matched as an admin means them: trimmed and in any case; a listed value
// ending in `*` matches every value that starts with what comes before it.

const MEMO = 4096;

/** Values and what each means; `get` finds a cell's. */
export class ValueTable<T> {
  readonly #exact = new Map<string, T>();
  readonly #prefixes: [string, T][] = [];
  /** What cells as written meant (an export repeats a few values on every row): at most MEMO of them. */
  readonly #memo = new Map<string, T | undefined>();
  /** The values as the mapping lists them, for messages. */
  readonly known: readonly string[];

  constructor(entries: Iterable<readonly [string, T]>) {
    const known: string[] = [];
    for (const [value, meaning] of entries) {
      known.push(value);
      const key = value.trim().toLowerCase();
      if (key.endsWith("*")) this.#prefixes.push([key.slice(0, -1), meaning]);
      else if (!this.#exact.has(key)) this.#exact.set(key, meaning);
    }
    this.known = known;
  }

  /** A table of values that each mean true. */
  static of(values: readonly string[]): ValueTable<true> {
    return new ValueTable(values.map((v) => [v, true] as const));
  }

  /** What `value` means, or undefined when the table does not list it. */
  get(value: string): T | undefined {
    if (this.#memo.has(value)) return this.#memo.get(value);
    const meaning = this.#lookUp(value);
    if (this.#memo.size < MEMO) this.#memo.set(value, meaning);
    return meaning;
  }

  #lookUp(value: string): T | undefined {
    const key = value.trim().toLowerCase();
    const exact = this.#exact.get(key);
    if (exact !== undefined) return exact;
    for (const [prefix, meaning] of this.#prefixes) if (key.startsWith(prefix)) return meaning;
    return undefined;
  }
}
