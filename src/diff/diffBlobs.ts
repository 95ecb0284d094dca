// diffFiles for two Blobs, in the calling thread: what the page compares a file with the
// account's previous state with, before it pushes (in its worker). The same comparison; the
// partitions are in memory (a browser build's spills).

import { normalizeBlob } from "../convert/normalizeBlob.js";
import type { PipeOptions } from "../convert/options.js";
import type { Change } from "./Change.js";
import { compareSides, type DiffResult, partitionsFor, readSide } from "./compare.js";

/** A file of a diff: its bytes, and how they are read (format, mapping, currency…). */
export interface DiffBlob {
  blob: Blob;
  options: Omit<PipeOptions, "normalize">;
}

/** Tells `onChange` each change a sync of `now` would make to an account that holds `old`. */
export async function diffBlobs(
  old: DiffBlob,
  now: DiffBlob,
  onChange: (change: Change) => void,
  options: { ignoreDates?: boolean } = {},
): Promise<DiffResult> {
  const partitions = partitionsFor(Math.max(old.blob.size, now.blob.size));
  const read = ({ blob, options: reading }: DiffBlob) =>
    readSide(partitions, (writer) => normalizeBlob(blob, writer, reading));
  const before = await read(old);
  let after: Awaited<ReturnType<typeof read>>;
  try {
    after = await read(now);
  } catch (error) {
    before.side.dispose();
    throw error;
  }
  return { ...compareSides(before, after, onChange, options.ignoreDates === true), threads: "one" };
}
