// Reading a spill back whole: a short read is a fault of the program, not of the input.

import type { SpillFile } from "./spill.js";

/** Fills `into` from `file` at `position`; a file shorter than that is an error of the program (`owner`'s). */
export function readFully(file: SpillFile, into: Uint8Array, position: number, owner: string): void {
  for (let read = 0; read < into.length; ) {
    const n = file.read(into, read, into.length - read, position + read);
    if (n === 0) throw new Error(`${owner}: a temporary file is shorter than written`);
    read += n;
  }
}
