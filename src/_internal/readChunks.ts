// Reads a file in chunks with two reusable buffers: the next read runs while the caller
// processes the current chunk, and no memory is allocated per chunk.

import { Buffer } from "node:buffer";
import { open } from "node:fs/promises";

/** Chunk size for reading files: small enough that each decoded chunk dies young in V8's heap. */
export const READ_CHUNK = 64 * 1024;

/**
 * Yields the bytes of the file at `path` in chunks of `chunkSize`. A yielded chunk is valid
 * only until the next one is requested (its buffer is reused): process it synchronously.
 */
export async function* readChunks(path: string, chunkSize = READ_CHUNK): AsyncGenerator<Uint8Array> {
  const file = await open(path, "r");
  try {
    const buffers = [Buffer.allocUnsafe(chunkSize), Buffer.allocUnsafe(chunkSize)];
    let current = 0;
    let reading = file.read(buffers[0] as Buffer, 0, chunkSize, null);
    for (;;) {
      const { bytesRead } = await reading;
      if (bytesRead === 0) return;
      const chunk = (buffers[current] as Buffer).subarray(0, bytesRead);
      current ^= 1;
      reading = file.read(buffers[current] as Buffer, 0, chunkSize, null);
      yield chunk;
    }
  } finally {
    await file.close();
  }
}
