// The lines of a spill file, read in blocks (never the whole file at once). Each block is decoded
// up to its last line break, the rest kept for the next: a line break never falls inside a
// character, and decoding whole lines is faster than a streaming TextDecoder.

import type { SpillFile } from "./spill.js";

// ignoreBOM: a U+FEFF first is data, not a mark to drop
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Yields each `\n`-terminated line of `file` (UTF-8), without the `\n`. */
export function* readLines(file: SpillFile): Generator<string> {
  let block = new Uint8Array(1 << 20);
  let kept = 0; // bytes of an unfinished line at the start of `block`
  let position = 0;
  for (;;) {
    if (kept === block.length) {
      // a line longer than the block
      const larger = new Uint8Array(block.length * 2);
      larger.set(block);
      block = larger;
    }
    const n = file.read(block, kept, block.length - kept, position);
    if (n === 0) break;
    position += n;
    const end = kept + n;
    const last = block.lastIndexOf(0x0a, end - 1);
    if (last === -1) {
      kept = end;
      continue;
    }
    const lines = decoder.decode(block.subarray(0, last)).split("\n");
    block.copyWithin(0, last + 1, end);
    kept = end - last - 1;
    yield* lines;
  }
}
