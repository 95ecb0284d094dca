// A response body streamed into a file that appears under its final name only when complete:
// it is written to a hidden temporary file beside it and renamed into place; a cut connection
// or a short body removes the temporary file and leaves nothing under the final name.

import { createWriteStream } from "node:fs";
import type { IncomingMessage } from "node:http";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { replaceFile } from "syncfile/internal/bytes/replaceFile.js";
import { ConnectionError } from "./ConnectionError.js";

/** Where a download goes: a path, or a function of the name the server suggested. */
export type Destination = string | ((suggestedName: string | null) => string);

/** Streams `response` to `dest`; resolves to the path written and its size. */
export async function saveResponse(
  response: IncomingMessage,
  url: URL,
  dest: Destination,
  options: {
    onProgress?: ((received: number, total: number | null) => void) | undefined;
    signal?: AbortSignal | undefined;
  },
): Promise<{ path: string; bytes: number }> {
  let path: string;
  try {
    path = typeof dest === "function" ? dest(suggestedName(response)) : dest;
  } catch (error) {
    response.destroy(); // its connection is not left waiting for a reader
    throw error;
  }
  const declared = Number(response.headers["content-length"] ?? Number.NaN);
  const total = Number.isSafeInteger(declared) ? declared : null;
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      options.onProgress?.(bytes, total);
      callback(null, chunk);
    },
  });
  try {
    await replaceFile(path, async (temporary) => {
      await pipeline(
        response,
        counter,
        createWriteStream(temporary, { flags: "wx" }),
        ...((options.signal ? [{ signal: options.signal }] : []) as []),
      );
      if (total !== null && bytes !== total)
        throw new Error(`the body ended after ${bytes} of ${total} bytes`);
    });
    return { path, bytes };
  } catch (error) {
    response.destroy();
    if (options.signal?.aborted) throw options.signal.reason;
    if (isLocal(error)) throw Object.assign(error as Error, { path }); // the name asked for, not the temporary one
    throw new ConnectionError("GET", url, error);
  }
}

/** The file name of a Content-Disposition header, reduced to a safe base name; null without one. */
export function suggestedName(response: IncomingMessage): string | null {
  const header = response.headers["content-disposition"] ?? "";
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  let name: string | undefined;
  try {
    name = star ? decodeURIComponent(star[1] as string) : /filename\s*=\s*"?([^";]+)"?/.exec(header)?.[1];
  } catch {
    name = undefined;
  }
  const base = name?.split(/[/\\]/).pop()?.trim().replace(/^\.+/, "");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  return base && !/[\u0000-\u001f\u007f]/.test(base) ? base : null;
}

// writing the file failed (a disk full, a missing folder): not the network's fault, not retried
function isLocal(error: unknown): boolean {
  const syscall = (error as NodeJS.ErrnoException)?.syscall;
  // the file system's calls on the way to the destination (a folder in the path that is a file
  // fails the first of them: lstat, ENOTDIR); a socket's are connect, read, getaddrinfo
  return (
    typeof syscall === "string" &&
    ["open", "write", "rename", "close", "fsync", "lstat", "stat", "mkdir", "unlink", "link"].includes(
      syscall,
    )
  );
}
