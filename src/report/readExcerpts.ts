// Source lines for the text format, read back from the file by byte offset after the pass
// (nothing is kept during the pass, so validation pays nothing for them).

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { excerptFrom, excerptWindow } from "./excerptFrom.js";
import type { Finding } from "./Finding.js";
import type { Excerpt } from "./formatText.js";

/**
 * Excerpts of the first `max` located findings of the file at `path`; none for what cannot be
 * read, or not again: a named pipe's bytes were the pass's (and opening one would wait for a
 * writer that never comes).
 */
export function readExcerpts(path: string, findings: readonly Finding[], max = 10): Map<Finding, Excerpt> {
  const excerpts = new Map<Finding, Excerpt>();
  let fd: number;
  try {
    // non-blocking: a named pipe opens at once, to be told apart; a regular file reads as ever
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return excerpts;
  }
  try {
    if (!fstatSync(fd).isFile()) return excerpts;
    for (const f of findings) {
      if (excerpts.size >= max) break;
      // a file that is not text has no line worth showing
      if (f.offset === undefined || f.line === undefined || f.code === "file.type") continue;
      const { start, end } = excerptWindow(f.offset);
      const bytes = new Uint8Array(end - start);
      const n = readSync(fd, bytes, 0, bytes.length, start);
      const excerpt = excerptFrom(bytes.subarray(0, n), start, f.offset, f.line);
      if (excerpt) excerpts.set(f, excerpt);
    }
  } finally {
    closeSync(fd);
  }
  return excerpts;
}
