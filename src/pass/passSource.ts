// What a pass reads: a file, opened once (its size decides whether workers help; a workbook or a
// JSON worker reads it through that one opening), or a stream's bytes.

import { type FileHandle, open } from "node:fs/promises";
import { asBytes, type ByteSource } from "../bytes/byteSource.js";
import { chunksOf } from "../bytes/readChunks.js";

/** The bytes of a pass, their size when known (a regular file's), which decides "auto", and the file. */
export interface PassSource {
  chunks: AsyncIterable<Uint8Array>;
  size: number | null;
  /**
   * The open regular file the chunks are of, when they are one's: a workbook is read from it by
   * position, a JSON worker reads it itself; neither opens the file again (a named pipe, which
   * cannot be read twice, is a stream: null).
   */
  file: FileHandle | null;
  /** Releases what the source holds (the file); called once the pass is done, and harmless again. */
  close?: () => Promise<void>;
}

/**
 * The file at `path` as a pass's source, opened once here: what it is (its size, whether it can
 * be read by position) is asked of the open file, and every read of the pass is of it. A named
 * pipe or a device is read as a stream, of unknown size. A directory rejects with EISDIR, its
 * path named; the file stays open until the source's `close()` (runPass calls it).
 */
export async function fileSource(path: string): Promise<PassSource & { close(): Promise<void> }> {
  const file = await open(path, "r");
  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= file.close();
    return closed;
  };
  try {
    const stats = await file.stat();
    if (stats.isDirectory()) {
      throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), {
        code: "EISDIR",
        syscall: "read",
        path,
      });
    }
    const regular = stats.isFile();
    return {
      chunks: located(chunksOf(file), path),
      size: regular ? stats.size : null,
      file: regular ? file : null,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** `chunks`, whose I/O errors name `path` (a read's errors do not), so that they blame the input. */
async function* located(chunks: AsyncIterable<Uint8Array>, path: string): AsyncGenerator<Uint8Array> {
  try {
    yield* chunks;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (typeof e?.syscall === "string" && e.path === undefined) e.path = path;
    throw error;
  }
}

/** A stream's bytes (strings as UTF-8) as a pass's source, of unknown size. */
export function streamSource(source: ByteSource): PassSource {
  return { chunks: asBytes(source), size: null, file: null };
}
