// The files syncfile keeps from one run to the next (what push synced, what reports downloaded,
// a job's state) are read and written here and nowhere else. A write goes to a temporary file
// beside the name, is flushed and renamed into place (replaceFile.ts): a crash or a full disk
// leaves the old state or the new one, never part of one. A symbolic link at a state file's
// name is never followed: a read refuses it (ELOOP), a write replaces the link itself, never
// what it points at. The folders on the way are followed: a state folder may be a link to
// another disk, which is its owner's choice, not something planted.

import { constants } from "node:fs";
import { copyFile, lstat, mkdir, open, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { replaceFile, temporaryPathBeside } from "./replaceFile.js";
import { removeAtExit } from "./temporaryFiles.js";

/** The folder syncfile keeps its state in: SYNCFILE_STATE_DIR, else $XDG_STATE_HOME/syncfile. */
export function stateHome(): string {
  return (
    process.env.SYNCFILE_STATE_DIR ??
    join(process.env.XDG_STATE_HOME ?? join(homedir(), ".local", "state"), "syncfile")
  );
}

// a system without it (Windows) has no links planted by another user in one's own folders
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** An error of the file system, as Node makes them: a code, the call and the path. */
function fsError(code: string, syscall: string, path: string, what: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${what}, ${syscall} '${path}'`), { code, syscall, path });
}

/** Absent: the name holds nothing, or a folder on the way is missing or a file. */
const absent = (error: unknown) =>
  ["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "");

/**
 * The text of the state file at `path`, or null when there is none. A symbolic link at the
 * name is an error with the code ELOOP (dangling or not), a folder one with EISDIR.
 */
export async function readStateFile(path: string): Promise<string | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | NO_FOLLOW);
  } catch (error) {
    if (absent(error)) return null;
    throw error;
  }
  try {
    return await handle.readFile("utf8");
  } catch (error) {
    // a handle's errors name no path
    throw Object.assign(error as NodeJS.ErrnoException, { path });
  } finally {
    await handle.close();
  }
}

/**
 * Whether there is a state file at `path`, for one read by name (a data file that a diff
 * reads): false when there is none; an error with the code ELOOP for a symbolic link, EISDIR
 * for a folder or anything else that is not a file.
 */
export async function stateFileExists(path: string): Promise<boolean> {
  let stats: Awaited<ReturnType<typeof lstat>>;
  try {
    stats = await lstat(path);
  } catch (error) {
    if (absent(error)) return false;
    throw error;
  }
  if (stats.isFile()) return true;
  if (stats.isSymbolicLink()) throw fsError("ELOOP", "open", path, "a symbolic link");
  throw fsError("EISDIR", "open", path, "not a file");
}

/**
 * Makes the folder `dir` when it is missing and proves that a file can be created in it (one is
 * created and removed), so that a state which could not be saved is found before the work it
 * would record. A file in the way is an error with the code ENOTDIR; every error names `dir`.
 */
export async function prepareStateFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    // mkdir -p says EEXIST when the last name is a file, ENOTDIR when one before it is
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      throw fsError("ENOTDIR", "mkdir", dir, "not a folder");
    throw error;
  }
  const probe = temporaryPathBeside(join(dir, ".syncfile-probe"));
  const kept = removeAtExit(probe);
  try {
    await writeFile(probe, "", { flag: "wx" });
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.path === probe) e.path = dir;
    throw error;
  } finally {
    await rm(probe, { force: true });
    kept();
  }
}

/**
 * Saves `text` as the state file at `path`, in a folder that exists (see
 * {@link prepareStateFolder}): written beside it, flushed, renamed into place. A link at
 * `path` is replaced, its target left as it was.
 */
export async function writeStateFile(path: string, text: string): Promise<void> {
  await replaceFile(path, (temporary) => writeFile(temporary, text, { flag: "wx" }));
}

/** Saves a copy of the file at `from` as the state file at `path`, as {@link writeStateFile} does. */
export async function copyStateFile(from: string, path: string): Promise<void> {
  await replaceFile(path, (temporary) => copyFile(from, temporary, constants.COPYFILE_EXCL));
}
