// Writing a file that appears under its name only when complete: it is written to a hidden
// temporary file beside it, flushed to the disk (fsync), and then renamed into place (or, to
// create it only when absent, linked), and the folder flushed too: after a power cut the name
// holds the old file or the whole new one, never an empty or partial one. Whatever fails or is
// cut off on the way removes the temporary file and leaves the destination as it was, the
// process's exit included (temporaryFiles.ts). Every file syncfile publishes goes through here.

import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, linkSync, openSync, rmSync, writeFileSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { removeAtExit } from "./temporaryFiles.js";

/**
 * A new temporary path beside `path`: in the same folder, so that renaming it onto `path` is
 * atomic (one file system); hidden (a leading dot), so that listings and globs pass it by;
 * random, so that concurrent writers never share one. Nothing is created.
 */
export function temporaryPathBeside(path: string): string {
  const name = basename(path);
  const hidden = name.startsWith(".") ? name : `.${name}`;
  // short enough that the suffix still fits when `path` has the longest name a file system
  // allows (255 bytes); a character cut in two becomes U+FFFD, which is fine for a temporary name
  const short = Buffer.from(hidden).subarray(0, 200).toString();
  return join(dirname(path), `${short}.${randomBytes(6).toString("hex")}.part`);
}

/** Options of {@link replaceFile}. */
export interface ReplaceFileOptions<T> {
  /**
   * Whether to put what was written in place, given what `write` resolved to. Default: always.
   * When false, the temporary file is removed and `path` is left as it was.
   */
  when?: (result: T) => boolean;
}

/**
 * Writes the file at `path` through `write`, which creates and fills the temporary path it is
 * given; once `write` resolves, that file is renamed onto `path`, replacing what was there.
 * Until then `path` is untouched, and readers see the old file or the new one, never part of
 * one. When `write` or the rename fails (or is aborted), the temporary file is removed and the
 * error thrown (naming `path` where it named the temporary file, which is gone); so it is when the process exits before (process.exit, a signal the CLI turns
 * into one). Resolves to what `write` resolved to.
 */
export async function replaceFile<T>(
  path: string,
  write: (temporaryPath: string) => Promise<T>,
  options: ReplaceFileOptions<T> = {},
): Promise<T> {
  const temporary = temporaryPathBeside(path);
  const kept = removeAtExit(temporary);
  try {
    const result = await write(temporary);
    if (options.when?.(result) ?? true) {
      await syncToDisk(temporary);
      await rename(temporary, path);
      await syncFolder(dirname(path));
    }
    return result;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e?.path === temporary) e.path = path;
    throw error;
  } finally {
    await rm(temporary, { force: true }); // after a rename there is nothing left to remove
    kept();
  }
}

/**
 * Creates the file at `path` holding `content`, only when there is no file there: the first of
 * several processes wins, and the others never see its file incomplete. A hard link, unlike a
 * rename, never replaces its target. Returns false, writing nothing, when a file was already
 * there. Synchronous, for what a process reads once as it starts.
 */
export function createFileIfAbsent(path: string, content: string, options: { mode?: number } = {}): boolean {
  const temporary = temporaryPathBeside(path);
  try {
    const fd = openSync(temporary, "wx", options.mode);
    try {
      writeFileSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(temporary, path);
    syncFolderSync(dirname(path));
    return true;
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code === "EEXIST" &&
      (error as NodeJS.ErrnoException).syscall === "link"
    )
      return false;
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Flushes the file at `path` to the disk (fsync): what was written to it survives a power cut. */
export async function syncToDisk(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

// a system whose folders cannot be opened or flushed (Windows) keeps its entries its own way
const NO_FOLDER_SYNC = new Set(["EISDIR", "EPERM", "EINVAL", "EBADF", "EACCES"]);

/** Flushes the entries of the folder `dir` (a rename or a link into it) to the disk. */
export async function syncFolder(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | null = null;
  try {
    handle = await open(dir, "r");
    await handle.sync();
  } catch (error) {
    if (!NO_FOLDER_SYNC.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
  } finally {
    await handle?.close();
  }
}

function syncFolderSync(dir: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch (error) {
    if (!NO_FOLDER_SYNC.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
