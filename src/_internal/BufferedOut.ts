// Collects small writes into chunks of about 64 KB, so that the sink sees few large writes.

/** Buffered text output. */
export class BufferedOut {
  readonly #out: (chunk: string) => void;
  #parts: string[] = [];
  #length = 0;

  constructor(out: (chunk: string) => void) {
    this.#out = out;
  }

  write(text: string): void {
    this.#parts.push(text);
    this.#length += text.length;
    if (this.#length >= 65536) this.flush();
  }

  flush(): void {
    if (this.#parts.length === 0) return;
    this.#out(this.#parts.join(""));
    this.#parts = [];
    this.#length = 0;
  }
}
