// The parsing thread of a parallel CSV pass: parses the bytes the reading thread forwards,
// as one continuing parse, and sends back one batch of raw records per chunk. See
// readCsvParallel.ts.

import { parentPort, workerData } from "node:worker_threads";
import { type RowBatch, RowBatchWriter } from "../csv/_rowBatch.js";
import { CsvParser, type CsvParserOptions } from "../csv/CsvParser.js";

/** Bytes of the file: where they start, and whether they start or end the parse. */
export interface CsvBlock {
  seq: number;
  bytes: Uint8Array;
  line: number;
  offset: number;
  open: boolean;
  close: boolean;
}

/** The batch of one block. */
export interface CsvBlockResult {
  seq: number;
  batch: RowBatch;
}

const { options } = workerData as { options: Omit<CsvParserOptions, "line" | "offset"> };
const main = parentPort;
if (!main) throw new Error("csv-worker runs only as a worker thread");

const writer = new RowBatchWriter();
let parser: CsvParser | null = null;

main.on("message", (block: CsvBlock) => {
  if (block.open || !parser)
    parser = new CsvParser(writer, { ...options, line: block.line, offset: block.offset });
  parser.push(block.bytes);
  if (block.close) parser.end();
  const batch = writer.take();
  main.postMessage({ seq: block.seq, batch } satisfies CsvBlockResult, [
    batch.ends.buffer as ArrayBuffer,
    batch.records.buffer as ArrayBuffer,
  ]);
});
