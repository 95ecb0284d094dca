// A progress line on stderr, only when stderr is a terminal: bytes, percent, speed.

import { formatBytes } from "syncfile/internal/report/formatText.js";

/** Where progress goes: a stream that may be a terminal. */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** A throttled one-line progress display; inert unless its stream is a terminal (and not in CI). */
export class Progress {
  readonly #label: string;
  readonly #total: number | null;
  readonly #stream: ProgressStream;
  readonly #enabled: boolean;
  readonly #started = performance.now();
  #last = Number.NEGATIVE_INFINITY;
  #shown = false;

  constructor(label: string, total: number | null, stream: ProgressStream = process.stderr) {
    this.#label = label;
    this.#total = total;
    this.#stream = stream;
    this.#enabled = stream.isTTY === true && !process.env.CI;
  }

  /** Shows `done` bytes (at most 10 times a second). */
  update(done: number): void {
    if (!this.#enabled) return;
    const now = performance.now();
    if (now - this.#last < 100) return;
    this.#last = now;
    this.#shown = true;
    const seconds = (now - this.#started) / 1000;
    const rate = seconds > 0.05 ? ` ${formatBytes(done / seconds)}/s` : "";
    let bar = "";
    if (this.#total) {
      const ratio = Math.min(1, done / this.#total);
      const width = 24;
      const full = Math.round(ratio * width);
      bar = `[${"#".repeat(full)}${"-".repeat(width - full)}] ${String(Math.floor(ratio * 100)).padStart(3)}% `;
    }
    const of = this.#total ? ` / ${formatBytes(this.#total)}` : "";
    this.#stream.write(`\r\u001b[2K${this.#label} ${bar}${formatBytes(done)}${of}${rate}`);
  }

  /** Removes the line. */
  done(): void {
    if (this.#shown) this.#stream.write("\r\u001b[2K");
    this.#shown = false;
  }
}
