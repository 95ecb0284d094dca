// A sink of bytes that is an open file: what a conversion's writer writes into.

import { writeSync } from "node:fs";
import type { BytesOut } from "./TextOut.js";

/**
 * A sink that writes every byte it is given to the open file `fd`, then calls `written`. A
 * failure to write (a full disk) is thrown naming `path`, the file's, when given (a write's
 * error names none): the caller can then tell its output's failures from its input's.
 */
export function fileBytes(fd: number, written: (bytes: number) => void = () => {}, path?: string): BytesOut {
  return {
    bytes(chunk) {
      try {
        for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at);
      } catch (error) {
        if (path !== undefined) (error as NodeJS.ErrnoException).path ??= path;
        throw error;
      }
      written(chunk.length);
    },
  };
}
