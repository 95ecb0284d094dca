// diffFiles for two Blobs, in the calling thread: what the page compares a file with the
// account's previous state with, before it pushes (in its worker). The same comparison; the
// partitions are in memory (a browser build's spills).

import { normalizeBlob } from "../convert/normalizeBlob.js";
import type { PipeOptions } from "../convert/options.js";
import type { Change } from "./Change.js";
import { compareFiles, type DiffResult, partitionsFor } from "./compare.js";

/** A file of a diff: its bytes, and how they are read (format, mapping, currency…). */
export interface DiffBlob {
  blob: Blob;
  options: Omit<PipeOptions, "normalize">;
}

/** Tells `onChange` each change a sync of `now` would make to an account that holds `old`. */
export function diffBlobs(
  old: DiffBlob,
  now: DiffBlob,
  onChange: (change: Change) => void,
  options: { ignoreDates?: boolean } = {},
): Promise<DiffResult> {
  return compareFiles(
    partitionsFor(Math.max(old.blob.size, now.blob.size)),
    (side, writer) => {
      const { blob, options: reading } = side === "old" ? old : now;
      return normalizeBlob(blob, writer, reading);
    },
    onChange,
    options.ignoreDates === true,
  );
}
