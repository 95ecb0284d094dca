// A finding's source line from the bytes around its offset, wherever they were read from: a
// file (readExcerpts) or, in a browser, a slice of a Blob. Nothing here reads.

import type { Excerpt } from "./formatText.js";

const WINDOW = 240;
const WIDTH = 100;

// Buffer#toString's decoding: invalid bytes as U+FFFD, a byte-order mark kept as a character
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The bytes of the file, [start, end), that the excerpt of a finding at byte `offset` is made from. */
export function excerptWindow(offset: number): { start: number; end: number } {
  return { start: Math.max(0, offset - WINDOW), end: offset + WINDOW };
}

/**
 * The excerpt of line `line` at byte `offset`, from `bytes`, the file's bytes from `start` on
 * (excerptWindow's, or fewer where the file ends); null when they end before `offset`.
 */
export function excerptFrom(bytes: Uint8Array, start: number, offset: number, line: number): Excerpt | null {
  if (bytes.length < offset - start) return null;
  const before = decoder.decode(bytes.subarray(0, offset - start));
  const after = decoder.decode(bytes.subarray(offset - start));
  const from = before.lastIndexOf("\n") + 1;
  const to = after.search(/[\r\n]/);
  let text = before.slice(from) + (to === -1 ? after : after.slice(0, to));
  let caret = before.length - from;
  const clippedLeft = from === 0 && start > 0;
  text = text.replace(/\t/g, " ");
  if (caret > WIDTH / 2 || clippedLeft) {
    const cut = Math.max(0, caret - WIDTH / 2);
    text = `…${text.slice(cut)}`;
    caret = caret - cut + 1;
  }
  if (text.length > WIDTH) text = `${text.slice(0, WIDTH)}…`;
  return { line, text, caret };
}
