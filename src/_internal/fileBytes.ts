// A sink of bytes that is an open file: what a conversion's writer writes into.

import { writeSync } from "node:fs";
import type { BytesOut } from "../model/DocumentWriter.js";

/** A sink that writes every byte it is given to the open file `fd`, then calls `written`. */
export function fileBytes(fd: number, written: (bytes: number) => void = () => {}): BytesOut {
  return {
    bytes(chunk) {
      for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at);
      written(chunk.length);
    },
  };
}
