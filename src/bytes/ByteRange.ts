// Bytes that can be read at any position, as a ZIP archive is (from its end first): a file in
// Node (fileRange.ts), a Blob in a browser. What a workbook is read from.

/** Bytes read by position. */
export interface ByteRange {
  /** How many bytes there are. */
  readonly size: number;
  /**
   * The bytes from `position` on, `length` of them or fewer where the bytes end (none at or past
   * the end), in a new array.
   */
  read(position: number, length: number): Promise<Uint8Array>;
}

/** A Blob's (or a File's) bytes, each read a slice of it. */
export function blobRange(blob: Blob): ByteRange {
  const size = blob.size;
  return {
    size,
    async read(position, length) {
      if (!(position >= 0 && position < size) || length <= 0) return new Uint8Array(0);
      return new Uint8Array(await blob.slice(position, Math.min(size, position + length)).arrayBuffer());
    },
  };
}
