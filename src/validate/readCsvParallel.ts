// CSV parsed on a worker thread: csv-parse is about half the work of a CSV pass. The calling
// thread reads the file and forwards its bytes; the worker parses them (strict UTF-8,
// csv-parse) and sends back raw records in batches; the calling thread replays them into its
// CsvReader (header, rows, findings), then assembles, checks and writes. Two cores are what
// this machine class has: a second parsing thread only fights the calling one for a core.

import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { CsvReader } from "../csv/CsvReader.js";
import { type RowBatch, replayRows } from "../csv/RowBatch.js";
import type { CsvBlock } from "./_csvWorker.js";
import { Flow } from "./_flow.js";

const MAX_CHUNKS_IN_FLIGHT = 16;
/** The worker's young generation (MB): room for csv-parse's short-lived strings. */
const YOUNG_GENERATION_MB = 16;

const CSV_WORKER = "csv-worker.js";

/** Whether CSV can be parsed on another thread here: a second CPU and the worker script built in `workers`. */
export function csvWorkerAvailable(workers: URL): boolean {
  return availableParallelism() > 1 && existsSync(fileURLToPath(new URL(CSV_WORKER, workers)));
}

/**
 * Reads the CSV in `chunks` into `reader` (its `begin`, `record`, `failure` and `finish`),
 * parsing on a worker thread. Chunks may be reused by the source after each step.
 */
export async function readCsvParallel(
  chunks: AsyncIterable<Uint8Array>,
  reader: CsvReader,
  onProgress: ((bytes: number) => void) | null,
  workers: URL,
): Promise<void> {
  let worker: Worker | null = null;
  let flow: Flow | null = null;
  let sent = 0;
  let replayed = 0;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let last = false;

  const send = (bytes: Uint8Array, close: boolean) => {
    if (!worker) {
      worker = new Worker(new URL(CSV_WORKER, workers), {
        workerData: { options: reader.parserOptions() },
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      });
      flow = new Flow([worker], MAX_CHUNKS_IN_FLIGHT);
      worker.on("message", received);
    }
    const block: CsvBlock = { bytes, close };
    sent++;
    flow?.sent();
    worker.postMessage(block, [bytes.buffer as ArrayBuffer]);
  };
  const received = (batch: RowBatch) => {
    replayed++;
    try {
      if (!reader.stopped) replayRows(batch, reader);
    } catch (error) {
      flow?.fail(error as Error);
      return;
    }
    flow?.acknowledged(reader.stopped);
    if (last && replayed === sent) finish();
  };

  try {
    for await (const chunk of chunks) {
      reader.countBytes(chunk.length);
      onProgress?.(reader.bytes);
      // the source reuses its buffer: the worker gets a copy
      if (worker) send(new Uint8Array(chunk), false);
      else {
        const body = reader.begin(chunk, false);
        if (body !== null) send(new Uint8Array(body), false);
      }
      if (flow) await (flow as Flow).room();
      if (reader.stopped) break;
    }
    if (!reader.stopped) {
      if (!worker) {
        const body = reader.begin(new Uint8Array(0), true);
        if (body !== null) send(new Uint8Array(body), true);
      } else send(new Uint8Array(0), true);
    }
    last = true;
    if (flow && replayed < sent && !reader.stopped) await (flow as Flow).or(done);
    reader.finish();
  } finally {
    await (worker as Worker | null)?.terminate();
  }
}
