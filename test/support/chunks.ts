// Feeding the same bytes in different chunkings.

/** `bytes` cut into pieces of `size` (the last may be shorter). */
export function* chunked(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, Math.min(bytes.length, i + size));
}

/** An async iterable over `pieces`, as a stream would deliver them. */
export async function* stream(pieces: Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield piece;
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
