// A SpillFile held in memory, for a build without a file system (spill.browser.ts): pages of
// 64 KiB, each made when the first byte is written into it, so a sparse write costs only the
// pages it touches and what was never written reads as zeros, as in a file.

import type { SpillFile } from "./spill.js";

const PAGE = 1 << 16;

/** Bytes in pages of memory, read and written at positions like a temporary file. */
export class MemorySpill implements SpillFile {
  #pages: (Uint8Array | undefined)[] = [];
  #end = 0;

  write(bytes: Uint8Array, position = this.#end): void {
    for (let done = 0; done < bytes.length; ) {
      const k = Math.floor((position + done) / PAGE);
      const from = position + done - k * PAGE;
      const n = Math.min(PAGE - from, bytes.length - done);
      let page = this.#pages[k];
      if (!page) {
        page = new Uint8Array(PAGE);
        this.#pages[k] = page;
      }
      page.set(bytes.subarray(done, done + n), from);
      done += n;
    }
    if (bytes.length > 0) this.#end = Math.max(this.#end, position + bytes.length);
  }

  read(into: Uint8Array, offset: number, length: number, position: number): number {
    const total = Math.max(0, Math.min(length, this.#end - position));
    for (let done = 0; done < total; ) {
      const k = Math.floor((position + done) / PAGE);
      const from = position + done - k * PAGE;
      const n = Math.min(PAGE - from, total - done);
      const page = this.#pages[k];
      if (page) into.set(page.subarray(from, from + n), offset + done);
      else into.fill(0, offset + done, offset + done + n);
      done += n;
    }
    return total;
  }

  close(): void {
    this.#pages = [];
    this.#end = 0;
  }
}
