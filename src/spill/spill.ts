// Where what outgrows memory goes (ByteLog's pages, SpillList's items, FingerprintRuns'
// payloads): a temporary file, in a folder of its own. A browser build takes spill.browser.ts
// in place of this module (the sibling convention): there the bytes stay in memory.

import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeAtExit } from "../bytes/temporaryFiles.js";

/** Bytes written and read back at positions, synchronously; `close()` deletes them. */
export interface SpillFile {
  /** Writes every byte of `bytes` at `position` (default: after the last byte written so far). */
  write(bytes: Uint8Array, position?: number): void;
  /**
   * Reads up to `length` bytes at `position` into `into` from `offset`; returns how many were read
   * (fewer past the last byte written, 0 at it). Bytes never written read as zeros, as in a file.
   */
  read(into: Uint8Array, offset: number, length: number, position: number): number;
  /** Deletes the bytes (again: nothing); the spill is not used afterwards. */
  close(): void;
}

/** A new, empty temporary file, in a folder named `prefix` and a random suffix in the system's. */
export function openSpill(prefix: string): SpillFile {
  return new FileSpill(prefix);
}

/**
 * Hands `spill` (one openSpill made) over to another thread: its file is closed here but kept;
 * resolves to the folder `takeSpill` takes it from. The spill is not used here afterwards.
 */
export function handOverSpill(spill: SpillFile): string {
  return (spill as FileSpill).handOver();
}

/** The spill another thread handed over (`folder`), to read and to close (which deletes it). */
export function takeSpill(folder: string): SpillFile {
  return new FileSpill(null, folder);
}

class FileSpill implements SpillFile {
  readonly #dir: string;
  readonly #kept: () => void;
  #fd: number;
  #end = 0;

  constructor(prefix: string | null, folder?: string) {
    this.#dir = folder ?? mkdtempSync(join(tmpdir(), prefix ?? "syncfile-"));
    try {
      this.#fd = openSync(join(this.#dir, "spill"), folder === undefined ? "w+" : "r+");
      if (folder !== undefined) this.#end = fstatSync(this.#fd).size;
    } catch (error) {
      rmSync(this.#dir, { recursive: true, force: true });
      throw error;
    }
    this.#kept = removeAtExit(this.#dir); // a process that exits first (a signal) deletes it too
  }

  write(bytes: Uint8Array, position = this.#end): void {
    for (let at = 0; at < bytes.length; ) {
      at += writeSync(this.#fd, bytes, at, bytes.length - at, position + at);
    }
    if (bytes.length > 0) this.#end = Math.max(this.#end, position + bytes.length);
  }

  read(into: Uint8Array, offset: number, length: number, position: number): number {
    return readSync(this.#fd, into, offset, length, position);
  }

  /** Closes the file but keeps it, and no longer removes it at exit; resolves to its folder. */
  handOver(): string {
    if (this.#fd !== -1) closeSync(this.#fd);
    this.#fd = -1;
    this.#kept();
    return this.#dir;
  }

  close(): void {
    if (this.#fd === -1) return;
    closeSync(this.#fd);
    this.#fd = -1;
    rmSync(this.#dir, { recursive: true, force: true });
    this.#kept();
  }
}
