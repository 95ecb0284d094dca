// CSV read on a second thread: the worker decodes and parses (csv-parse is half the work of a
// CSV pass), the calling thread replays the rows into its CsvSink (assembly, checks, writing).
// A few chunks in flight at most, so memory stays bounded whichever side is slower.

import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { replayRows } from "../csv/_rowBatch.js";
import type { CsvReaderLimits, CsvSink } from "../csv/CsvReader.js";
import type { FromCsvReader, ToCsvReader } from "./_csvWorker.js";
import { Flow } from "./_flow.js";

const MAX_CHUNKS_IN_FLIGHT = 16;
/** The worker's young generation (MB): room for csv-parse's short-lived strings. */
const YOUNG_GENERATION_MB = 16;

// built next to this module (dist/)
const CSV_WORKER = new URL("./csv-worker.js", import.meta.url);

/** Whether CSV can be read on a second thread here: a second CPU and the built worker script. */
export function csvParallelAvailable(): boolean {
  return availableParallelism() > 1 && existsSync(fileURLToPath(CSV_WORKER));
}

/**
 * Reads the CSV in `chunks` on a worker thread and delivers its header, rows and findings to
 * `sink` on this one, in order. Resolves with the bytes read and whether a fatal problem
 * stopped reading. Chunks may be reused by the source after each step.
 */
export async function readCsvParallel(
  chunks: AsyncIterable<Uint8Array>,
  sink: CsvSink,
  limits: CsvReaderLimits,
  onProgress: ((bytes: number) => void) | null,
): Promise<{ bytes: number; stopped: boolean }> {
  const worker = new Worker(CSV_WORKER, {
    workerData: { limits: { maxRecordBytes: limits.maxRecordBytes } },
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  const flow = new Flow([worker], MAX_CHUNKS_IN_FLIGHT);
  let finish: (end: { bytes: number; stopped: boolean }) => void = () => {};
  const ended = new Promise<{ bytes: number; stopped: boolean }>((resolve) => {
    finish = resolve;
  });
  worker.on("message", (message: FromCsvReader) => {
    try {
      if (message.batch) replayRows(message.batch, sink);
    } catch (error) {
      flow.fail(error as Error);
      return;
    }
    if (message.type === "rows") flow.acknowledged(message.stopped);
    else finish({ bytes: message.bytes, stopped: message.stopped });
  });
  let bytes = 0;
  try {
    for await (const chunk of chunks) {
      const copy = new Uint8Array(chunk); // the source reuses its buffer; this one is handed over
      bytes += copy.length;
      flow.sent();
      worker.postMessage({ type: "chunk", bytes: copy } satisfies ToCsvReader, [copy.buffer]);
      onProgress?.(bytes);
      await flow.room();
      if (flow.stopped) break;
    }
    worker.postMessage({ type: "end" } satisfies ToCsvReader);
    return await flow.or(ended);
  } finally {
    await worker.terminate();
  }
}
