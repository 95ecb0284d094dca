// The reading thread of a workbook pass on two threads: opens the workbook through the
// descriptor the main thread opened, inflates and scans its sheet, and sends the rows back in
// batches (SheetRowBatch), with the workbook's own findings in their place among them. It
// reads no further ahead than a few batches the main thread has not replayed (a count both
// threads share). See xlsxParallel.ts.

import { parentPort, workerData } from "node:worker_threads";
import { fileRange } from "../bytes/fileRange.js";
import { fdReader } from "../bytes/readChunks.js";
import type { Code } from "../report/catalog.js";
import type { FindingDetails } from "../report/Finding.js";
import { readWorkbookSheet, type WorkbookSheetSink } from "../xlsx/readWorkbookSheet.js";
import { type SheetRowBatch, SheetRowBatchWriter } from "../xlsx/SheetRowBatch.js";
import { SharedFlight } from "./_sharedFlight.js";

/** What the main thread gives this one. */
export interface XlsxWorkerData {
  /** The descriptor of the open workbook (the main thread closes it once this thread has ended). */
  fd: number;
  size: number;
  maxRecordBytes: number;
  sheet: string | null;
  /** The memory of a SharedFlight: the batches sent and not yet replayed. */
  inFlight: SharedArrayBuffer;
}

/** Messages to the main thread, in the order of what reading told. */
export type FromXlsxWorker =
  | { type: "finding"; code: Code; details: FindingDetails }
  | { type: "sheet"; name: string; others: readonly string[] }
  | ({ type: "rows" } & SheetRowBatch)
  | { type: "end"; whole: boolean };

/** Batches sent and not yet replayed, at most: enough to keep both threads busy. */
const IN_FLIGHT = 4;

const { fd, size, maxRecordBytes, sheet, inFlight } = workerData as XlsxWorkerData;
const main = parentPort;
if (!main) throw new Error("xlsx-worker runs only as a worker thread");
// nothing is heard from the main thread, which ends this one once it has the end; listening
// keeps this thread alive until then
main.on("message", () => {});

const flight = new SharedFlight(inFlight);
const batches = new SheetRowBatchWriter();
const send = (message: FromXlsxWorker) => main.postMessage(message);
const flush = () => {
  if (batches.empty) return;
  const batch = batches.take();
  flight.sent();
  // its arrays copied, not moved (see _posted.ts)
  main.postMessage({ type: "rows", ...batch } satisfies FromXlsxWorker);
};

const sink: WorkbookSheetSink = {
  finding(code, details) {
    flush();
    send({ type: "finding", code, details });
  },
  sheet(name, others) {
    send({ type: "sheet", name, others });
  },
  row(number, cells, problems) {
    batches.row(number, cells, problems);
    if (!batches.full) return;
    flush();
    // waited for here, in the middle of a piece of the sheet: a piece of 256 KB may hold rows of
    // megabytes each (one large shared string used again and again), and no more may wait
    flight.waitForRoom(IN_FLIGHT);
  },
  tooLarge: (number, column, what) => batches.tooLarge(number, column, what),
};

const whole = await readWorkbookSheet(fileRange(fdReader(fd), size), sink, {
  maxRecordBytes,
  sheet,
  onProgress(bytes) {
    batches.progress = bytes;
  },
});
flush();
send({ type: "end", whole });
