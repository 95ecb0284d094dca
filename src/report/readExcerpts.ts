// Source lines for the text format, read back from the file by byte offset after the pass
// (nothing is kept during the pass, so validation pays nothing for them).

import { closeSync, openSync, readSync } from "node:fs";
import type { Finding } from "./Finding.js";
import type { Excerpt } from "./formatText.js";

const WINDOW = 240;
const WIDTH = 100;

/** Excerpts of the first `max` located findings of the file at `path`; none for what cannot be read. */
export function readExcerpts(path: string, findings: readonly Finding[], max = 10): Map<Finding, Excerpt> {
  const excerpts = new Map<Finding, Excerpt>();
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return excerpts;
  }
  try {
    for (const f of findings) {
      if (excerpts.size >= max) break;
      // a file that is not text has no line worth showing
      if (f.offset === undefined || f.line === undefined || f.code === "file.type") continue;
      const excerpt = excerptAt(fd, f.offset, f.line);
      if (excerpt) excerpts.set(f, excerpt);
    }
  } finally {
    closeSync(fd);
  }
  return excerpts;
}

function excerptAt(fd: number, offset: number, line: number): Excerpt | null {
  const start = Math.max(0, offset - WINDOW);
  const buffer = Buffer.alloc(offset - start + WINDOW);
  const n = readSync(fd, buffer, 0, buffer.length, start);
  if (n < offset - start) return null;
  const before = buffer.toString("utf8", 0, offset - start);
  const after = buffer.toString("utf8", offset - start, n);
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
