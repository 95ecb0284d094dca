// Collects small writes into chunks of about 64 KB, so that the sink sees few large writes.
// For a sink of bytes, each write is encoded straight into the chunk's buffer: joining the
// pieces into one string first costs more, most of all once one of them is outside Latin-1
// (the whole chunk becomes two bytes a character, then is encoded again).

import { Buffer } from "./buffer.js";
import type { TextOut } from "./TextOut.js";

const CHUNK = 1 << 16;

/** Text output handed on in chunks of about 64 KB. */
export class ChunkedOut {
  readonly #text: ((chunk: string) => void) | null;
  readonly #bytes: ((chunk: Uint8Array) => void) | null;
  #parts: string[] = [];
  #length = 0;
  #buffer: Buffer | null = null;
  #decoder: InstanceType<typeof TextDecoder> | null = null;

  constructor(out: TextOut) {
    this.#text = typeof out === "function" ? out : null;
    this.#bytes = typeof out === "function" ? null : (chunk) => out.bytes(chunk);
  }

  write(text: string): void {
    if (this.#bytes) {
      // at most 3 bytes a UTF-16 unit
      if (this.#length + text.length * 3 > CHUNK * 2) this.flush();
      if (text.length * 3 > CHUNK * 2) {
        this.#bytes(Buffer.from(text));
        return;
      }
      this.#buffer ??= Buffer.allocUnsafe(CHUNK * 2);
      this.#length += this.#buffer.write(text, this.#length);
      if (this.#length >= CHUNK) this.flush();
      return;
    }
    this.#parts.push(text);
    this.#length += text.length;
    if (this.#length >= CHUNK) this.flush();
  }

  /**
   * Bytes already encoded as UTF-8, after what was written before. A sink of strings gets them
   * decoded: the bytes given one call after another must hold whole characters by the time
   * text is written again or the output flushed.
   */
  bytes(chunk: Uint8Array): void {
    if (this.#bytes) {
      if (this.#length + chunk.length > CHUNK * 2 || chunk.length > CHUNK) this.flush();
      if (chunk.length > CHUNK) {
        this.#bytes(chunk);
        return;
      }
      this.#buffer ??= Buffer.allocUnsafe(CHUNK * 2);
      this.#buffer.set(chunk, this.#length);
      this.#length += chunk.length;
      if (this.#length >= CHUNK) this.flush();
      return;
    }
    this.#decoder ??= new TextDecoder();
    const text = this.#decoder.decode(chunk, { stream: true });
    this.#parts.push(text);
    this.#length += text.length;
    if (this.#length >= CHUNK) this.flush();
  }

  /**
   * For a sink of bytes: lets `write` write at most `max` bytes of `value` straight into the
   * chunk, at `at` in `page`; `write` returns how many it wrote, or -1 for none. Returns whether
   * they were written (false too for a sink of text, or `max` past a chunk): the caller then
   * writes the text another way.
   */
  fill<T>(max: number, write: (page: Buffer, at: number, value: T) => number, value: T): boolean {
    if (!this.#bytes || max > CHUNK) return false;
    if (this.#length + max > CHUNK * 2) this.flush();
    this.#buffer ??= Buffer.allocUnsafe(CHUNK * 2);
    const n = write(this.#buffer, this.#length, value);
    if (n < 0) return false;
    this.#length += n;
    if (this.#length >= CHUNK) this.flush();
    return true;
  }

  flush(): void {
    if (this.#length === 0 && this.#parts.length === 0) return;
    if (this.#bytes) {
      const chunk = (this.#buffer as Buffer).subarray(0, this.#length);
      this.#length = 0;
      this.#bytes(chunk); // written (or copied) before the call returns: the buffer is used again
      return;
    }
    (this.#text as (chunk: string) => void)(this.#parts.join(""));
    this.#parts = [];
    this.#length = 0;
  }
}
