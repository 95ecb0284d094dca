// A file's bytes as a ByteRange, for the readers that seek (a workbook's ZIP): read by position
// from a file already open, which whoever opened it closes once the reader is done.

import type { ByteRange } from "./ByteRange.js";
import type { ChunkReader } from "./readChunks.js";

/**
 * The `size` bytes of the open regular file `file` (a FileHandle, or fdReader's reader of a
 * descriptor), read by position. I/O errors reject.
 */
export function fileRange(file: ChunkReader, size: number): ByteRange {
  return {
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
  };
}
