// The reading thread of a parallel CSV pass: checks the bytes the main thread reads as UTF-8,
// parses them with csv-parse and matches the header (CsvReader), and sends the rows back in
// one batch per chunk. The main thread assembles, checks and writes. See readCsvParallel.ts.

import { parentPort, workerData } from "node:worker_threads";
import { type RowBatch, RowBatchWriter } from "../csv/_rowBatch.js";
import { CsvReader, type CsvReaderLimits } from "../csv/CsvReader.js";

/** Messages from the main thread. */
export type ToCsvReader = { type: "chunk"; bytes: Uint8Array } | { type: "end" };
/** Messages to the main thread: a batch per chunk, then the end. */
export type FromCsvReader =
  | { type: "rows"; batch: RowBatch | null; stopped: boolean }
  | { type: "end"; batch: RowBatch | null; stopped: boolean; bytes: number };

const { limits } = workerData as { limits: CsvReaderLimits };
const main = parentPort;
if (!main) throw new Error("csv-worker runs only as a worker thread");

const writer = new RowBatchWriter();
const reader = new CsvReader(writer, limits);

const post = (message: FromCsvReader) => {
  const batch = message.batch;
  main.postMessage(
    message,
    batch ? [batch.ends.buffer as ArrayBuffer, batch.rows.buffer as ArrayBuffer] : [],
  );
};

main.on("message", (message: ToCsvReader) => {
  if (message.type === "chunk") {
    reader.push(message.bytes);
    post({ type: "rows", batch: writer.take(), stopped: reader.stopped });
  } else {
    reader.end();
    post({ type: "end", batch: writer.take(), stopped: reader.stopped, bytes: reader.bytes });
  }
});
