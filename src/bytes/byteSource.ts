// What the library reads from besides a path: bytes or text in pieces, from a Node stream, a
// web stream or any iterable.

/** Bytes or text in pieces: a Node Readable, any async iterable, or an array of chunks. */
export type ByteSource = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

const encoder = new TextEncoder();

/** Strings from `source` as UTF-8 bytes. */
export async function* asBytes(source: ByteSource): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) yield typeof chunk === "string" ? encoder.encode(chunk) : chunk;
}
