// Small I/O helpers shared by commands: readable error messages, colour detection, sizes.

import { statSync } from "node:fs";
import { InvalidArgumentError } from "commander";
import { describeIoError } from "syncfile/internal/bytes/ioError.js";

export { describeIoError };

/** Whether to colour output written to `stream` (NO_COLOR and FORCE_COLOR are honoured). */
export function useColor(stream: NodeJS.WriteStream): boolean {
  if (process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true;
}

/** Parses a whole number ≥ `min` given to `flag`; throws a usage message otherwise. */
export function parseWholeNumber(flag: string, text: string, min: number): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < min) {
    throw new Error(`${flag} takes a whole number of at least ${min}, not "${text}"`);
  }
  return Number(text);
}

/**
 * The one-line message for a local file that could not be written (an error of the file
 * system, with its path), or null for any other error.
 */
export function writeFailure(error: unknown): string | null {
  const e = error as NodeJS.ErrnoException;
  if (typeof e?.syscall !== "string" || typeof e.path !== "string") return null;
  // a folder asked for where a file is (mkdir -p says EEXIST when the last name is one)
  if (e.code === "EEXIST" && e.syscall === "mkdir")
    return `cannot write in ${e.path}: it is a file, not a folder; give a folder, or a name that is free`;
  return e.code === "EEXIST" ? e.message : `cannot write ${e.path}: ${describeIoError(error)}`;
}

/** A commander parser of a whole number ≥ `min` given to `flag`: a wrong value is a usage error. */
export function wholeNumber(flag: string, min: number): (text: string) => number {
  return (text) => {
    try {
      return parseWholeNumber(flag, text, min);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

/**
 * The size of `file` in bytes, or null when it cannot be read (the command reports that itself)
 * or is no regular file (a named pipe has no size to show progress against).
 */
export function sizeOf(file: string): number | null {
  try {
    const stats = statSync(file);
    return stats.isFile() ? stats.size : null;
  } catch {
    return null;
  }
}

/**
 * A failure to write standard output or standard error (a full disk behind a redirection): the
 * command ends with this one line and exit 3, like any other output it cannot write.
 */
export class OutputError extends Error {
  override name = "OutputError";
}

/**
 * Writes `text` to `stream` (process.stdout or process.stderr). Written to a file, they write
 * synchronously and a failure is thrown here: it becomes an OutputError naming the stream. (A
 * pipe's or a terminal's failure comes later, as an 'error' event: see main.ts.)
 */
export function writeOut(stream: NodeJS.WriteStream, text: string): void {
  try {
    stream.write(text);
  } catch (error) {
    throw new OutputError(`cannot write ${streamName(stream)}: ${describeIoError(error)}`);
  }
}

/** "standard output" or "standard error". */
export function streamName(stream: NodeJS.WritableStream): string {
  return stream === process.stderr ? "standard error" : "standard output";
}
