// The text of one element of a part (a cell's value, formula or inline string; a shared string),
// gathered from the pieces the parser hands on up to a limit in UTF-8 bytes: past the limit
// nothing more is kept, only that there was more, so a huge cell costs no more than the limit.
// The scanner hands on UTF-8 bytes, kept as bytes until the text is asked for: a number or a
// shared string's index is then read from them without a string made.

import { Buffer } from "../bytes/buffer.js";
import { utf8Length } from "../text/utf8.js";
import { wholeNumber } from "./_cells.js";

/** Text gathered up to `max` UTF-8 bytes. */
export class BoundedText {
  readonly #max: number;
  /** What was handed on as text (then the bytes were made text too). */
  #text = "";
  /** What was handed on as bytes, while nothing was as text. */
  #bytes = Buffer.alloc(64);
  #byteCount = 0;
  #size = 0;
  #over = false;

  constructor(max: number) {
    this.#max = max;
  }

  /** The text gathered; all of it unless `over`. */
  get text(): string {
    if (this.#byteCount > 0) {
      this.#text += this.#bytes.toString("utf8", 0, this.#byteCount);
      this.#byteCount = 0;
    }
    return this.#text;
  }

  /** True once the pieces added came to more than the limit. */
  get over(): boolean {
    return this.#over;
  }

  /** The text as a whole number when it is 1 to 15 digits 0–9 and nothing else; -1 otherwise. */
  digits(): number {
    if (this.#text.length === 0 && !this.#over) return wholeNumber(this.#bytes, 0, this.#byteCount);
    // handed on as text (by saxes, or with an entity): rare, read as its UTF-8
    const bytes = Buffer.from(this.text);
    return wholeNumber(bytes, 0, bytes.length);
  }

  /** Starts again, empty. */
  reset(): void {
    this.#text = "";
    this.#byteCount = 0;
    this.#size = 0;
    this.#over = false;
  }

  /** Adds `piece`, unless that takes the text past the limit; returns whether the text is whole. */
  add(piece: string): boolean {
    if (this.#grow(utf8Length(piece))) this.#text = this.text + piece;
    return !this.#over;
  }

  /** Adds the UTF-8 bytes `bytes[from, to)`, as `add` adds text. */
  addBytes(bytes: Uint8Array, from: number, to: number): boolean {
    if (!this.#grow(to - from)) return false;
    if (this.#text.length > 0) {
      this.#text += Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString("utf8");
      return true;
    }
    const need = this.#byteCount + to - from;
    if (need > this.#bytes.length) {
      const grown = Buffer.alloc(Math.max(need, this.#bytes.length * 2));
      grown.set(this.#bytes.subarray(0, this.#byteCount));
      this.#bytes = grown;
    }
    const into = this.#bytes;
    if (to - from > 32) into.set(bytes.subarray(from, to), this.#byteCount);
    else for (let k = from, at = this.#byteCount; k < to; k++) into[at++] = bytes[k] as number;
    this.#byteCount = need;
    return true;
  }

  /** Counts `bytes` more; false (and nothing kept) once that is past the limit. */
  #grow(bytes: number): boolean {
    if (this.#over) return false;
    this.#size += bytes;
    if (this.#size <= this.#max) return true;
    this.#over = true;
    this.#text = "";
    this.#byteCount = 0;
    return false;
  }
}
