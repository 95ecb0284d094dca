// A workbook read on a worker thread: the worker opens it through this thread's descriptor,
// inflates and scans its sheet and sends the rows back in batches; this thread replays them
// into WorkbookRows (the rows as CSV's, with their findings), which hands them on to the
// assembler and the checks. Reading the sheet and checking its rows then each have a core.
// What is told, and in what order, is exactly what readWorkbook tells in one thread.

import { Worker } from "node:worker_threads";
import type { CsvSink } from "../csv/CsvSink.js";
import { replaySheetRows } from "../xlsx/SheetRowBatch.js";
import { type WorkbookOptions, type WorkbookRead, WorkbookRows } from "../xlsx/XlsxReader.js";
import { SharedFlight } from "./_sharedFlight.js";
import { WORKER_SCRIPTS } from "./_workers.js";
import type { FromXlsxWorker, XlsxWorkerData } from "./_xlsxWorker.js";

/** The worker's young generation (MB): room for a batch's cells. */
const YOUNG_GENERATION_MB = 16;

/**
 * Reads the sheet of the workbook open as `fd` (`size` bytes) into `sink`, as readWorkbook does,
 * on a worker thread started from `workers`. The descriptor stays open until this resolves.
 */
export async function xlsxParallel(
  fd: number,
  size: number,
  sink: CsvSink,
  options: WorkbookOptions,
  workers: URL,
): Promise<WorkbookRead> {
  const rows = new WorkbookRows(sink, options, size);
  const flight = new SharedFlight();
  const worker = new Worker(new URL(WORKER_SCRIPTS.xlsx, workers), {
    workerData: {
      fd,
      size,
      maxRecordBytes: options.maxRecordBytes,
      sheet: options.sheet ?? null,
      inFlight: flight.buffer,
    } satisfies XlsxWorkerData,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  try {
    const whole = await new Promise<boolean>((resolve, reject) => {
      worker.on("message", (message: FromXlsxWorker) => {
        try {
          if (message.type === "rows") {
            replaySheetRows(message, rows);
            options.onProgress?.(message.progress);
            flight.taken();
          } else if (message.type === "finding") rows.finding(message.code, message.details);
          else if (message.type === "sheet") rows.sheet(message.name, message.others);
          else resolve(message.whole);
        } catch (error) {
          reject(error);
        }
      });
      worker.on("error", reject);
      worker.on("exit", (code) =>
        reject(new Error(`the workbook's reading thread exited early (code ${code})`)),
      );
    });
    rows.end(whole);
    return rows.read;
  } finally {
    await worker.terminate();
  }
}
