// The worker thread of sideThread.ts (built as diff-worker.js): reads one file of a diff into
// its side and hands the side's spill over to the thread that compares.

import { parentPort, workerData } from "node:worker_threads";
import { normalizeFile } from "../convert/convert.js";
import { handOverSpill } from "../spill/spill.js";
import { DiffSide } from "./compare.js";
import type { SideAnswer, SideJob } from "./sideThread.js";

const port = parentPort;
if (!port) throw new Error("diff-worker runs only as a worker thread");
const { path, options, partitions } = workerData as SideJob;
const side = new DiffSide(partitions);
let answer: SideAnswer;
try {
  const report = await normalizeFile(path, side, options);
  const { state, spill } = side.detach();
  answer = { report, state, folder: spill === null ? null : handOverSpill(spill) };
} catch (error) {
  side.dispose();
  const { message, code, path: at } = error as Error & { code?: string; path?: string };
  answer = { error: { message, ...(code ? { code } : {}), ...(at ? { path: at } : {}) } };
}
port.postMessage(answer);
