// A side of a diff read on a worker thread (diff-worker.js, built from _sideWorker.ts), while
// this thread reads the other: the worker writes its side's spill and hands it over, and the
// side is attached here to be compared. Null where the worker cannot run (one CPU, no build).

import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { PipeOptions } from "../convert/options.js";
import { DIFF_WORKER_SCRIPT, WORKERS } from "../pass/runPass.js";
import type { Report } from "../report/Report.js";
import { takeSpill } from "../spill/spill.js";
import { DiffSide, type ReadSide, type SideState } from "./compare.js";

const DIFF_WORKER = new URL(DIFF_WORKER_SCRIPT, WORKERS);
/** The worker's young generation (MB): V8's default let a 1 GB diff's peak RSS reach 324 MB, 16 kept it at 270. */
const YOUNG_GENERATION_MB = 16;

/** What the worker asks for. */
export interface SideJob {
  path: string;
  options: Omit<PipeOptions, "normalize">;
  partitions: number;
}

/** What the worker answers: the side read (its spill's folder), or why it could not be. */
export type SideAnswer =
  | { report: Report; state: SideState; folder: string | null }
  | { error: { message: string; code?: string; path?: string } };

/** The file at `path` read into a side on a worker thread; null when no worker can run here. */
export function sideThread(
  path: string,
  options: Omit<PipeOptions, "normalize">,
  partitions: number,
): Promise<ReadSide> | null {
  if (availableParallelism() < 2 || !existsSync(fileURLToPath(DIFF_WORKER))) return null;
  let worker: Worker;
  try {
    worker = new Worker(DIFF_WORKER, {
      workerData: { path, options, partitions } satisfies SideJob,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
  } catch {
    return null; // options that cannot be sent to a thread (a function): read here instead
  }
  return new Promise<ReadSide>((resolve, reject) => {
    let answered = false;
    worker.once("message", (answer: SideAnswer) => {
      answered = true;
      if ("error" in answer) {
        reject(Object.assign(new Error(answer.error.message), answer.error));
        return;
      }
      const spill = answer.folder === null ? null : takeSpill(answer.folder);
      resolve({ report: answer.report, side: DiffSide.attach(answer.state, spill) });
    });
    worker.once("error", (error) => {
      if (!answered) reject(error);
    });
    worker.once("exit", (code) => {
      if (!answered) reject(new Error(`the diff's worker thread stopped (exit code ${code})`));
    });
  });
}
