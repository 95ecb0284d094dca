// Validation on two threads besides the main one, each with a small young generation so
// that memory stays bounded: a scanning thread (bytes → captures, JsonDecoder + JsonScanner)
// and a checking thread (captures → records → findings → report, RecordBuilder +
// ValidationCore), joined by a MessageChannel. A file is read by the scanning thread itself,
// so that the main thread, idle, keeps its young generation small (a main thread forwarding
// 1 GB of chunks grew it by about 12 MB); a stream's bytes are read by the main thread and
// forwarded. Flow control at each hop keeps a few chunks and batches in flight. The report is
// the same as Validation's.

import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { MessageChannel, Worker } from "node:worker_threads";
import type { Report } from "../report/Report.js";
import { Flow } from "./_flow.js";
import type { FromScanner, ScannerData, ToScanner } from "./_scanWorker.js";
import type { NormalizedValidateOptions } from "./options.js";

const MAX_CHUNKS_IN_FLIGHT = 4;
/** Each thread's young generation (MB): streaming work needs little, and this bounds RSS. */
const YOUNG_GENERATION_MB = 4;

const SCAN_WORKER = "scan-worker.js";
const CHECK_WORKER = "check-worker.js";

/** Whether a parallel validation can run here: a second CPU and the worker scripts built in `workers`. */
export function jsonWorkersAvailable(workers: URL): boolean {
  return (
    availableParallelism() > 1 &&
    existsSync(fileURLToPath(new URL(SCAN_WORKER, workers))) &&
    existsSync(fileURLToPath(new URL(CHECK_WORKER, workers)))
  );
}

/**
 * Validates the file at `path`, or else `chunks`, on two worker threads, whose scripts are
 * built in `workers`. Chunks may be reused by the source after each step.
 */
export async function validateParallel(
  source: { chunks: AsyncIterable<Uint8Array>; path: string | null },
  options: NormalizedValidateOptions,
  workers: URL,
): Promise<Report> {
  const started = performance.now();
  const shared = { ...options, onProgress: null };
  const { port1, port2 } = new MessageChannel();
  const resourceLimits = { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB };
  const checker = new Worker(new URL(CHECK_WORKER, workers), {
    workerData: { options: shared, scanner: port2 },
    transferList: [port2],
    resourceLimits,
  });
  const scanner = new Worker(new URL(SCAN_WORKER, workers), {
    workerData: { options: shared, checker: port1, path: source.path } satisfies ScannerData,
    transferList: [port1],
    resourceLimits,
  });
  const flow = new Flow([checker, scanner], MAX_CHUNKS_IN_FLIGHT);
  const report = new Promise<Report>((resolve) => checker.once("message", resolve));
  // progress only rises, and ends at the bytes read: the scanning thread's last word on it may
  // come after the checking thread's report, on another port
  let told = 0;
  const tell = (bytes: number) => {
    if (bytes <= told) return;
    told = bytes;
    options.onProgress?.(bytes);
  };
  scanner.on("message", (message: FromScanner) => {
    if (message.type === "progress") tell(message.bytes);
    else flow.acknowledged(message.stopped);
  });
  try {
    if (source.path === null) await forward(source.chunks, scanner, flow, options.onProgress);
    const result = await flow.or(report);
    if (source.path !== null) tell(result.stats.bytes);
    result.stats.durationMs = Math.round(performance.now() - started);
    return result;
  } finally {
    await Promise.all([checker.terminate(), scanner.terminate()]);
  }
}

/** Sends `chunks` to the scanning thread, a few in flight at most, then the end. */
async function forward(
  chunks: AsyncIterable<Uint8Array>,
  scanner: Worker,
  flow: Flow,
  onProgress: ((bytes: number) => void) | null | undefined,
): Promise<void> {
  let bytes = 0;
  for await (const chunk of chunks) {
    const copy = new Uint8Array(chunk); // the source reuses its buffer; this one is handed over
    bytes += copy.length;
    flow.sent();
    scanner.postMessage({ type: "chunk", bytes: copy } satisfies ToScanner, [copy.buffer]);
    onProgress?.(bytes);
    await flow.room();
    if (flow.stopped) break;
  }
  scanner.postMessage({ type: "end" } satisfies ToScanner);
}
