// A job's runs: one JSON line each in its state folder's runs.jsonl, newest last, the runs older
// than the job keeps dropped as a run is added — the whole file written again through the one
// helper of state files (a temporary file, fsync, rename, never through a link), so that a run
// cut short leaves the history as it was, never half a line.

import { rm } from "node:fs/promises";
import { join } from "node:path";
import { readStateFile, writeStateFile } from "syncfile/internal/bytes/stateFile.js";
import type { Outcome } from "./Job.js";

/** One run, as runs.jsonl keeps it. */
export interface RunRecord {
  id: string;
  job: string;
  /** ISO times. */
  start: string;
  end: string;
  mode: "live" | "staging" | "dry-run";
  outcome: Outcome;
  /** The step the run ended at. */
  step: "source" | "check" | "compare" | "guard" | "push" | "internal";
  /** What the source gave. */
  source?: { from: string; name: string; bytes: number; sha256: string };
  /** Changes by kind against the last pushed file, and the users taken away. */
  changes?: Record<string, number>;
  deletes?: number;
  /** The first users a refused run would have taken away. */
  takenAway?: string[];
  /** Errors of invalid data. */
  errors?: number;
  fileId?: number;
  syncId?: number;
  users?: number;
  /** What happened, in words ("" when the outcome says it all). */
  message: string;
  /** The refused run whose data an admin approved, when this run went through by that approval. */
  approved?: string;
  /** Whether the run was told to whom the job notifies (a refusal that goes on: once a day). */
  notified?: boolean;
  /** Its changes (JSON lines) and their page, relative to the state folder: runs that compared. */
  files?: { changes: string; report: string };
}

/** The history's file in a job's state folder. */
export const RUNS_FILE = "runs.jsonl";

/** The folder of runs' changes and pages in a job's state folder. */
export const RUN_FILES = "runs";

/** What a run's id looks like: its start, to the second, and six hexadecimal digits. */
export const RUN_ID = /^\d{8}T\d{6}Z-[0-9a-f]{6}$/;

/** Where run `id`'s changes and page are kept, relative to the job's state folder. */
export function runFiles(id: string): { changes: string; report: string } {
  return { changes: `${RUN_FILES}/${id}.changes.jsonl`, report: `${RUN_FILES}/${id}.html` };
}

/** The runs of the job whose state folder is `state`, oldest first; none before its first run. */
export async function readRuns(state: string): Promise<RunRecord[]> {
  const text = await readStateFile(join(state, RUNS_FILE));
  if (text === null) return [];
  const runs: RunRecord[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      runs.push(JSON.parse(line) as RunRecord);
    } catch {
      // a line no run of ours wrote (edited by hand): the others still count
    }
  }
  return runs;
}

/** `record` added to the history, the runs older than `keepDays` before `now` dropped. */
export async function appendRun(
  state: string,
  record: RunRecord,
  keepDays: number,
  now: number,
): Promise<void> {
  const since = now - keepDays * 86_400_000;
  const runs = await readRuns(state);
  const kept = runs.filter((r) => Date.parse(r.end) >= since);
  kept.push(record);
  await writeStateFile(join(state, RUNS_FILE), kept.map((r) => `${JSON.stringify(r)}\n`).join(""));
  // the dropped runs' changes and pages go with them, once the history no longer names them
  const dropped = runs.filter((r) => Date.parse(r.end) < since);
  for (const run of dropped) {
    if (!RUN_ID.test(run.id)) continue; // a line edited by hand names no file of ours
    const files = runFiles(run.id);
    await rm(join(state, files.changes), { force: true });
    await rm(join(state, files.report), { force: true });
  }
}
