// A JSON pass's decoding thread, started before the pass needs it. A worker thread takes about
// 35 ms to boot and load its script; started by the pass, the pass's thread waits for it, with
// nothing to scan (about 5 % of validating 100 MB). The command line starts it as it begins a
// large JSON file, so that it boots while the command loads its modules; the pass then takes it
// (jsonParallel) and tells it what to read. Until taken it is unref'd: one never taken (the
// command stopped before its pass) does not keep the process alive.

import { Worker } from "node:worker_threads";
import type { DecoderData } from "./_jsonWorker.js";
import {
  DECODER_YOUNG_GENERATION_MB,
  PARALLEL_FROM,
  WORKER_SCRIPTS,
  WORKERS,
  workerAvailable,
} from "./_workers.js";

interface Started {
  worker: Worker;
  script: string;
  /** It ended or failed before it was taken. */
  gone: boolean;
  onGone: () => void;
}

let started: Started | null = null;

/**
 * Starts the decoding thread of a JSON pass over `size` bytes, when the pass will want one
 * (parallel: "auto", a second CPU, the built script in `workers`): at most one waits.
 */
export function prestartJsonWorker(size: number | null, workers: URL = WORKERS): void {
  if (started || size === null || size < PARALLEL_FROM || !workerAvailable("json", workers)) return;
  const script = new URL(WORKER_SCRIPTS.json, workers);
  const worker = new Worker(script, {
    workerData: { fd: null, flight: null, chunkSize: undefined, deferred: true } satisfies DecoderData,
    resourceLimits: { maxYoungGenerationSizeMb: DECODER_YOUNG_GENERATION_MB },
  });
  const entry: Started = { worker, script: script.href, gone: false, onGone: () => {} };
  entry.onGone = () => {
    entry.gone = true;
  };
  worker.once("error", entry.onGone);
  worker.once("exit", entry.onGone);
  worker.unref();
  started = entry;
}

/**
 * The decoding thread started for a pass with the scripts of `workers`, now the caller's (ref'd,
 * waiting for its "start" message); null when none waits, or the one that waits cannot serve.
 */
export function takeJsonWorker(workers: URL): Worker | null {
  const entry = started;
  started = null;
  if (!entry) return null;
  const { worker } = entry;
  worker.off("error", entry.onGone);
  worker.off("exit", entry.onGone);
  if (entry.gone || entry.script !== new URL(WORKER_SCRIPTS.json, workers).href) {
    void worker.terminate();
    return null;
  }
  worker.ref();
  return worker;
}
