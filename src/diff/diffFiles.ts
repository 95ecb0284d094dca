// What a sync of NEW would change in an account holding OLD: two data files (any format, any
// profile or mapping) read in their sync-ready form (the normalising pass), users matched by
// email in any case, compared in bounded memory (compare.ts): partitions on disk, one pair in
// memory at a time.

import { statSync } from "node:fs";
import { normalizeFile } from "../convert/convert.js";
import type { PipeOptions } from "../convert/options.js";
import type { Change } from "./Change.js";
import { compareFiles, type DiffResult, partitionsFor } from "./compare.js";

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
 * holds the file at `oldPath`. When either file is invalid nothing is compared: the reports say why.
 */
export function diffFiles(
  oldPath: string,
  newPath: string,
  onChange: (change: Change) => void,
  options: DiffOptions = {},
): Promise<DiffResult> {
  const size = Math.max(statSync(oldPath).size, statSync(newPath).size);
  return compareFiles(
    partitionsFor(size, options.partitionBytes),
    (side, writer) =>
      side === "old"
        ? normalizeFile(oldPath, writer, options.old ?? {})
        : normalizeFile(newPath, writer, options.new ?? {}),
    onChange,
    options.ignoreDates === true,
  );
}
