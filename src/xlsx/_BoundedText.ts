// The text of one element of a part (a cell's value, formula or inline string; a shared string),
// gathered from the pieces the parser hands on up to a limit in UTF-8 bytes: past the limit
// nothing more is kept, only that there was more, so a huge cell costs no more than the limit.

import { utf8Length } from "../text/utf8.js";

/** Text gathered up to `max` UTF-8 bytes. */
export class BoundedText {
  readonly #max: number;
  #text = "";
  #bytes = 0;
  #over = false;

  constructor(max: number) {
    this.#max = max;
  }

  /** The text gathered; all of it unless `over`. */
  get text(): string {
    return this.#text;
  }

  /** True once the pieces added came to more than the limit. */
  get over(): boolean {
    return this.#over;
  }

  /** Starts again, empty. */
  reset(): void {
    this.#text = "";
    this.#bytes = 0;
    this.#over = false;
  }

  /** Adds `piece`, unless that takes the text past the limit; returns whether the text is whole. */
  add(piece: string): boolean {
    if (this.#over) return false;
    this.#bytes += utf8Length(piece);
    if (this.#bytes > this.#max) {
      this.#over = true;
      this.#text = "";
      return false;
    }
    this.#text += piece;
    return true;
  }
}
