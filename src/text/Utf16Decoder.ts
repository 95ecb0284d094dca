// UTF-16 text (what Excel saves as "Unicode Text") turned into UTF-8 as it comes, for a CSV
// parser that reads UTF-8 only. A code unit or a surrogate pair cut between two chunks is held
// for the next; a unit that is not UTF-16 (a lone surrogate) ends decoding there, said by its
// value, so that the reader reports it at its row instead of reading a replacement character.

/** The UTF-16 forms a byte-order mark names. */
export type Utf16 = "UTF-16LE" | "UTF-16BE";

const EMPTY = new Uint8Array(0);

/** Push-based: `push(bytes)` as they come (after the byte-order mark), then `end()`. */
export class Utf16Decoder {
  /** Which form the text is in. */
  readonly encoding: Utf16;
  readonly #bigEndian: boolean;
  // fatal, not streaming: the carry is kept here, where a failure can be placed (a failed
  // streaming TextDecoder says only "invalid" and forgets what it held)
  readonly #decoder: InstanceType<typeof TextDecoder>;
  readonly #encoder = new TextEncoder();
  /** The bytes of an unfinished unit or of a high surrogate whose pair has not come yet (0–3). */
  #held: Uint8Array = EMPTY;
  #failure: string | null = null;

  constructor(encoding: Utf16) {
    this.encoding = encoding;
    this.#bigEndian = encoding === "UTF-16BE";
    this.#decoder = new TextDecoder(this.#bigEndian ? "utf-16be" : "utf-16le", { fatal: true });
  }

  /** Why decoding stopped (what follows the UTF-8 given so far cannot be read), or null. */
  get failure(): string | null {
    return this.#failure;
  }

  /** The UTF-8 of the next bytes, as far as they go; nothing once decoding has failed. */
  push(chunk: Uint8Array): Uint8Array {
    if (this.#failure !== null || chunk.length === 0) return EMPTY;
    let bytes = chunk;
    if (this.#held.length > 0) {
      bytes = new Uint8Array(this.#held.length + chunk.length);
      bytes.set(this.#held);
      bytes.set(chunk, this.#held.length);
    }
    let end = bytes.length - (bytes.length % 2);
    if (end >= 2 && isHighSurrogate(this.#unitAt(bytes, end - 2))) end -= 2;
    this.#held = bytes.slice(end); // a copy: the caller may reuse its chunk
    return this.#decode(bytes.subarray(0, end));
  }

  /** The end of the text: what was held is decoded, or is the failure (a unit or a pair cut off). */
  end(): Uint8Array {
    const held = this.#held;
    this.#held = EMPTY;
    if (this.#failure !== null || held.length === 0) return EMPTY;
    // a high surrogate that ends the file is a lone one: decoding it says so
    const utf8 = this.#decode(held.subarray(0, held.length - (held.length % 2)));
    if (this.#failure === null && held.length % 2 === 1)
      this.#failure = "the file ends inside a character (its size in bytes is odd)";
    return utf8;
  }

  /** `units` (whole code units) as UTF-8, up to the first lone surrogate, which is the failure. */
  #decode(units: Uint8Array): Uint8Array {
    if (units.length === 0) return EMPTY;
    try {
      return this.#encoder.encode(this.#decoder.decode(units));
    } catch {
      const at = this.#loneSurrogate(units);
      const unit = this.#unitAt(units, at);
      this.#failure = `code unit 0x${unit.toString(16).toUpperCase()} is half of a character without its other half (a lone surrogate)`;
      return this.#encoder.encode(this.#decoder.decode(units.subarray(0, at)));
    }
  }

  /** Where the first surrogate without its pair is in `units` (which the decoder refused). */
  #loneSurrogate(units: Uint8Array): number {
    for (let i = 0; i + 1 < units.length; i += 2) {
      const unit = this.#unitAt(units, i);
      if (isLowSurrogate(unit)) return i;
      if (!isHighSurrogate(unit)) continue;
      if (i + 3 >= units.length || !isLowSurrogate(this.#unitAt(units, i + 2))) return i;
      i += 2; // a pair
    }
    return units.length - (units.length % 2);
  }

  #unitAt(bytes: Uint8Array, i: number): number {
    const first = bytes[i] as number;
    const second = bytes[i + 1] as number;
    return this.#bigEndian ? (first << 8) | second : (second << 8) | first;
  }
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
