// The parsing thread of a parallel CSV pass: parses the bytes the reading thread forwards,
// as one continuing parse, and sends back one batch of raw records per chunk, in order. See
// readCsvParallel.ts.

import { parentPort, workerData } from "node:worker_threads";
import { CsvParser, type CsvParserOptions } from "../csv/CsvParser.js";
import { RowBatchWriter } from "../csv/RowBatch.js";

/** The next bytes of the file, and whether they are the last. */
export interface CsvBlock {
  bytes: Uint8Array;
  close: boolean;
}

const { options } = workerData as { options: CsvParserOptions };
const main = parentPort;
if (!main) throw new Error("csv-worker runs only as a worker thread");

const writer = new RowBatchWriter();
const parser = new CsvParser(writer, options);

main.on("message", (block: CsvBlock) => {
  parser.push(block.bytes);
  if (block.close) parser.end();
  const batch = writer.take();
  // a RowBatch, its arrays moved, not copied
  main.postMessage(batch, [batch.ends.buffer as ArrayBuffer, batch.records.buffer as ArrayBuffer]);
});
