// Bytes of a stream kept in a private temporary file, for a reader that needs to seek (a
// workbook's ZIP is read from its end).

import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { removeAtExit } from "./temporaryFiles.js";

/** Writes `chunks` to a new temporary file, runs `use` on its path, then deletes it. */
export async function withSpooledFile<T>(
  chunks: AsyncIterable<Uint8Array>,
  use: (path: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "syncfile-spool-"));
  const kept = removeAtExit(dir);
  try {
    const path = join(dir, "input");
    await pipeline(Readable.from(chunks), createWriteStream(path, { flags: "wx" }));
    return await use(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
    kept();
  }
}
