// Reads a file in chunks with two reusable buffers: the next read runs while the caller
// processes the current chunk, and no memory is allocated per chunk. Reads go on from where
// the file is (no position given), so a named pipe or a terminal reads as well as a file.

import { Buffer } from "node:buffer";
import { readSync } from "node:fs";
import { open } from "node:fs/promises";

/** Chunk size for reading files: small enough that each decoded chunk dies young in V8's heap. */
export const READ_CHUNK = 64 * 1024;

/** What chunks are read from: an open FileHandle, or what reads a file descriptor (fdReader). */
export interface ChunkReader {
  /** Reads into `buffer` from `position`, or from where the file is when null. */
  read(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number | null,
  ): Promise<{ bytesRead: number }>;
}

/**
 * Yields the bytes of the file at `path` in chunks of `chunkSize`. A yielded chunk is valid
 * only until the next one is requested (its buffer is reused): process it synchronously.
 */
export async function* readChunks(path: string, chunkSize = READ_CHUNK): AsyncGenerator<Uint8Array> {
  const file = await open(path, "r");
  try {
    yield* chunksOf(file, chunkSize);
  } finally {
    await file.close();
  }
}

/**
 * Yields the bytes of an open file to its end, as readChunks does: from where the file is, or
 * from the position `from` on (reads by position leave the file where it is). The file stays
 * open (whoever opened it closes it).
 */
export async function* chunksOf(
  file: ChunkReader,
  chunkSize = READ_CHUNK,
  from: number | null = null,
): AsyncGenerator<Uint8Array> {
  const buffers = [Buffer.allocUnsafe(chunkSize), Buffer.allocUnsafe(chunkSize)];
  let current = 0;
  let position = from;
  let reading = file.read(buffers[0] as Buffer, 0, chunkSize, position);
  try {
    for (;;) {
      const { bytesRead } = await reading;
      if (bytesRead === 0) return;
      const chunk = (buffers[current] as Buffer).subarray(0, bytesRead);
      current ^= 1;
      if (position !== null) position += bytesRead;
      reading = file.read(buffers[current] as Buffer, 0, chunkSize, position);
      yield chunk;
    }
  } finally {
    // a read still running when the caller stops must end before the file is closed
    await reading.catch(() => {});
  }
}

/**
 * A ChunkReader of the open regular file `fd`, for a worker thread that reads its caller's file:
 * each read is done at once, in the thread, which has nothing else to do meanwhile. A read
 * handed to libuv's threads cost about 40 µs of CPU (100 MB in chunks of 64 KB: 63–71 ms of
 * CPU, against 8 ms read so).
 */
export function fdReader(fd: number): ChunkReader {
  return {
    read: async (buffer, offset, length, position) => ({
      bytesRead: readSync(fd, buffer, offset, length, position),
    }),
  };
}
