// The reading thread of a workbook pass on two threads: opens the workbook through the
// descriptor the main thread opened, inflates and scans its sheet, and sends the rows back in
// batches (SheetRowBatch), with the workbook's own findings in their place among them. It
// reads no further ahead than a few batches the main thread has not replayed. See
// xlsxParallel.ts.

import { parentPort, workerData } from "node:worker_threads";
import { fileRange } from "../bytes/fileRange.js";
import { fdReader } from "../bytes/readChunks.js";
import type { Code } from "../report/catalog.js";
import type { FindingDetails } from "../report/Finding.js";
import { readWorkbookSheet, type WorkbookSheetSink } from "../xlsx/readWorkbookSheet.js";
import { type SheetRowBatch, SheetRowBatchWriter } from "../xlsx/SheetRowBatch.js";

/** What the main thread gives this one. */
export interface XlsxWorkerData {
  /** The descriptor of the open workbook (the main thread closes it once this thread has ended). */
  fd: number;
  size: number;
  maxRecordBytes: number;
  sheet: string | null;
}

/** Messages to the main thread, in the order of what reading told. */
export type FromXlsxWorker =
  | { type: "finding"; code: Code; details: FindingDetails }
  | { type: "sheet"; name: string; others: readonly string[] }
  | ({ type: "rows" } & SheetRowBatch)
  | { type: "end"; whole: boolean };

/** Batches sent and not yet replayed, at most: enough to keep both threads busy. */
const IN_FLIGHT = 4;

const { fd, size, maxRecordBytes, sheet } = workerData as XlsxWorkerData;
const main = parentPort;
if (!main) throw new Error("xlsx-worker runs only as a worker thread");

let inFlight = 0;
let wake: (() => void) | null = null;
// the main thread's only message: a batch replayed
main.on("message", () => {
  inFlight--;
  wake?.();
});

const batches = new SheetRowBatchWriter();
const send = (message: FromXlsxWorker) => main.postMessage(message);
const flush = () => {
  if (batches.empty) return;
  const batch = batches.take();
  inFlight++;
  main.postMessage({ type: "rows", ...batch } satisfies FromXlsxWorker, [
    batch.ends.buffer as ArrayBuffer,
    batch.rows.buffer as ArrayBuffer,
  ]);
};

const sink: WorkbookSheetSink = {
  finding(code, details) {
    flush();
    send({ type: "finding", code, details });
  },
  sheet(name, others) {
    send({ type: "sheet", name, others });
  },
  row: (number, cells, problems) => batches.row(number, cells, problems),
  tooLarge: (number, column, what) => batches.tooLarge(number, column, what),
};

const whole = await readWorkbookSheet(fileRange(fdReader(fd), size), sink, {
  maxRecordBytes,
  sheet,
  onProgress(bytes) {
    batches.progress = bytes;
  },
  async pace() {
    if (!batches.full) return;
    flush();
    while (inFlight >= IN_FLIGHT) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  },
});
flush();
// the main thread ends this one once it has the end
send({ type: "end", whole });
