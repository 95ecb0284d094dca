// What a sync of NEW would change in an account holding OLD: two data files (any format, any
// profile or mapping) read in their sync-ready form (the normalising pass), users matched by
// email in any case, compared in bounded memory (compare.ts): partitions on disk, one pair in
// memory at a time.

import { statSync } from "node:fs";
import { normalizeFile } from "../convert/convert.js";
import type { PipeOptions } from "../convert/options.js";
import { PARALLEL_FROM } from "../pass/runPass.js";
import type { Change } from "./Change.js";
import { compareSides, type DiffResult, partitionsFor, type ReadSide, readSide } from "./compare.js";
import { sideThread } from "./sideThread.js";

export { CHANGE_KINDS, type Change, type FieldChange, takesAway } from "./Change.js";
export type { DiffResult } from "./compare.js";

/** Options of a diff: how each file is read, and what is left out. */
export interface DiffOptions {
  /** How OLD is read (format, sheet, profile, mapping, currency…). */
  old?: Omit<PipeOptions, "normalize">;
  /** How NEW is read. */
  new?: Omit<PipeOptions, "normalize">;
  /** Leave lastUsedDate moves out (they change every day). Default false. */
  ignoreDates?: boolean;
  /** The bytes of a file a partition is made for (tests make it small). Default 8 MB. */
  partitionBytes?: number;
}

/**
 * Tells `onChange` each change a sync of the file at `newPath` would make to an account that
 * holds the file at `oldPath`. When either file is invalid nothing is compared: the reports say
 * why. Large files are read at once, OLD on a worker thread and NEW on this one, when the
 * built worker and a second CPU are there.
 */
export async function diffFiles(
  oldPath: string,
  newPath: string,
  onChange: (change: Change) => void,
  options: DiffOptions = {},
): Promise<DiffResult> {
  const size = Math.max(statSync(oldPath).size, statSync(newPath).size);
  const partitions = partitionsFor(size, options.partitionBytes);
  const here = (path: string, reading: DiffOptions["old"]) =>
    readSide(partitions, (writer) => normalizeFile(path, writer, reading ?? {}));
  // two threads reading a side each keep both CPUs busy: a pass's own second thread would
  // only add its memory (30 MB at 1 GB) to the peak
  const oneThread = (reading: DiffOptions["old"]) => ({ ...reading, parallel: false });
  const elsewhere = size >= PARALLEL_FROM ? sideThread(oldPath, oneThread(options.old), partitions) : null;
  const [before, after] = await both(elsewhere ?? here(oldPath, options.old), () =>
    here(newPath, elsewhere ? oneThread(options.new) : options.new),
  );
  const threads = elsewhere ? "diff-worker" : "one";
  return { ...compareSides(before, after, onChange, options.ignoreDates === true), threads };
}

/**
 * Both sides: `first` (under way), and `second` started now; when one fails, the other's side
 * is freed once it is read, and the failure thrown.
 */
async function both(
  first: Promise<ReadSide>,
  second: () => Promise<ReadSide>,
): Promise<[ReadSide, ReadSide]> {
  const [a, b] = await Promise.allSettled([first, second()]);
  if (a.status === "fulfilled" && b.status === "fulfilled") return [a.value, b.value];
  if (a.status === "fulfilled") a.value.side.dispose();
  if (b.status === "fulfilled") b.value.side.dispose();
  throw (a.status === "rejected" ? a.reason : (b as PromiseRejectedResult).reason) as Error;
}
