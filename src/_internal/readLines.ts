// The lines of a file, read in blocks (never the whole file at once).

import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

/** Yields each `\n`-terminated line of the file at `path` (or open `fd`), without the `\n`. */
export function* readLines(file: string | number): Generator<string> {
  const fd = typeof file === "number" ? file : openSync(file, "r");
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    const decoder = new StringDecoder("utf8");
    let position = 0;
    let rest = "";
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, position);
      if (n === 0) break;
      position += n;
      const lines = (rest + decoder.write(buffer.subarray(0, n))).split("\n");
      rest = lines.pop() ?? "";
      yield* lines;
    }
  } finally {
    if (typeof file !== "number") closeSync(fd);
  }
}
