// A file's bytes as a ByteRange, for the readers that seek (a workbook's ZIP): the file is open
// for as long as the reader runs, and closed by whoever opened it.

import { open } from "node:fs/promises";
import type { ByteRange } from "./ByteRange.js";

/** Opens the file at `path`, runs `use` on its bytes, then closes it. I/O errors reject. */
export async function withFileRange<T>(path: string, use: (range: ByteRange) => Promise<T>): Promise<T> {
  const file = await open(path, "r");
  try {
    const size = (await file.stat()).size;
    return await use({
      size,
      async read(position, length) {
        if (!(position >= 0 && position < size) || length <= 0) return new Uint8Array(0);
        const bytes = new Uint8Array(Math.min(length, size - position));
        let filled = 0;
        while (filled < bytes.length) {
          const { bytesRead } = await file.read(bytes, filled, bytes.length - filled, position + filled);
          if (bytesRead === 0) break; // the file shrank while read
          filled += bytesRead;
        }
        return bytes.subarray(0, filled);
      },
    });
  } finally {
    await file.close();
  }
}
