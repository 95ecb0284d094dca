// What a thread posts to another is copied by the structured clone, never moved. Moving an
// ArrayBuffer (a transfer list) detaches it, and the first detach in a thread turns V8's fast
// typed-array access off there for good (its "array buffer detaching protector"): every
// `bytes[k]` then also checks whether its buffer was detached. The scanners of JSON, CSV and
// sheet XML read each byte that way; with the workbook worker's batches moved, its sheet
// scanner took 22 % longer. A copy of a batch or a chunk costs far less.

/**
 * `bytes` as they are best posted: a view of part of a buffer (a Buffer of Node's pool, the
 * first bytes of a read's buffer) is copied out of it first, since the structured clone copies
 * a view's whole buffer. (A Buffer's own `slice` would be a view again.)
 */
export function posted(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes
    : new Uint8Array(bytes);
}
