// The state file of `syncfile reports` in its folder: which executions' reports were
// downloaded, which are still being generated, and up to when the executions were all seen.
// Read and written through the one helper of state files (bytes/stateFile.ts): written beside
// its name and renamed, so an interrupted run leaves the last good state; never through a link.

import { join } from "node:path";
import { readStateFile, writeStateFile } from "syncfile/internal/bytes/stateFile.js";

/** The file's name in the reports folder. */
export const STATE_FILE = ".syncfile-reports.json";

/** A state file that this version of syncfile did not write. */
export class StateFileError extends Error {
  override readonly name = "StateFileError";
}

/** What the state file holds. */
export interface ReportState {
  version: 1;
  /** Every finished execution completed up to this time has been seen. */
  cursor: string | null;
  /** By execution id: the report downloaded. */
  downloaded: Record<
    string,
    { reportFileId: number; file: string; completionTime: string; downloadedAt: string }
  >;
  /**
   * By execution id: finished executions whose report did not exist yet (or was refused), with
   * their completion time and when this was first seen.
   */
  pending: Record<string, { completionTime: string; since: string }>;
}

/** The state in `dir`, or null when there is none yet. */
export async function readReportState(dir: string): Promise<ReportState | null> {
  const path = join(dir, STATE_FILE);
  let text: string | null;
  try {
    text = await readStateFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOOP") throw error;
    throw new StateFileError(
      `${path} is a symbolic link, not a state file syncfile wrote: syncfile never writes through one; remove it to download every report again`,
    );
  }
  if (text === null) return null;
  let state: Partial<ReportState>;
  try {
    state = JSON.parse(text) as Partial<ReportState>;
  } catch {
    state = {};
  }
  if (
    state === null ||
    typeof state !== "object" ||
    state.version !== 1 ||
    typeof state.downloaded !== "object" ||
    state.downloaded === null ||
    typeof state.pending !== "object" ||
    state.pending === null
  ) {
    throw new StateFileError(
      `${path} is not a state file this version of syncfile wrote: move it away to download every report again`,
    );
  }
  return state as ReportState;
}

/** Saves the state in `dir`. */
export async function writeReportState(dir: string, state: ReportState): Promise<void> {
  const text = `${JSON.stringify(state, null, 2)}\n`;
  await writeStateFile(join(dir, STATE_FILE), text);
}
