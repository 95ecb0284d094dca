// The scanning thread of a parallel validation: decodes and scans the bytes of the file, which
// it reads itself, or which the main thread reads from a stream and sends, and sends the
// captures in batches to the checking thread. It reads, or acknowledges a chunk, once few
// enough batches are waiting, so no thread reads further ahead than the checks can follow.
// See validateParallel.ts.

import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { readChunks } from "../_internal/readChunks.js";
import { JsonDecoder } from "../json/JsonDecoder.js";
import { JsonScanner } from "../json/JsonScanner.js";
import type { FromChecker, ToChecker } from "./_checkWorker.js";
import { BatchWriter } from "./_scanBatch.js";
import type { NormalizedValidateOptions } from "./options.js";

/** Messages from the main thread. */
export type ToScanner = { type: "chunk"; bytes: Uint8Array } | { type: "end" };
/** Messages to the main thread: a chunk acknowledged, or how far this thread has read the file. */
export type FromScanner = { type: "ack"; stopped: boolean } | { type: "progress"; bytes: number };
/** What the main thread gives this one: `path`, the file to read, or null for chunks sent. */
export interface ScannerData {
  options: NormalizedValidateOptions;
  checker: MessagePort;
  path: string | null;
}

const MAX_BATCHES_IN_FLIGHT = 4;
/** Progress is told to the main thread every this many bytes read. */
const PROGRESS_BYTES = 1024 * 1024;

const { options, checker, path } = workerData as ScannerData;
const main = parentPort;
if (!main) throw new Error("scan-worker runs only as a worker thread");

const writer = new BatchWriter();
const decoder = new JsonDecoder(new JsonScanner(writer, options), (code, details) =>
  writer.finding(code, details),
);
let inFlight = 0;
let owed = 0; // chunks scanned but not yet acknowledged to the main thread
let checkerStopped = false;
let wake: (() => void) | null = null; // the file's reading, waiting for a batch's acknowledgement

const stopped = () => decoder.stopped || checkerStopped;
const send = (message: ToChecker) => checker.postMessage(message);
const flush = () => {
  const batch = writer.take();
  if (batch) {
    inFlight++;
    send({ type: "batch", batch });
  }
};
const settle = () => {
  while (owed > 0 && inFlight < MAX_BATCHES_IN_FLIGHT) {
    owed--;
    main.postMessage({ type: "ack", stopped: stopped() } satisfies FromScanner);
  }
};

const end = () => {
  if (!stopped()) decoder.end();
  flush();
  send({ type: "end", stopped: stopped(), bytes: decoder.bytes });
};

checker.on("message", (message: FromChecker) => {
  if (message.type === "ack") inFlight--;
  else checkerStopped = true;
  settle();
  wake?.();
});

/** Reads the file at `path` in this thread: the main thread only waits for the report. */
async function read(path: string): Promise<void> {
  let told = 0;
  for await (const chunk of readChunks(path)) {
    decoder.push(chunk);
    flush();
    if (stopped()) break;
    if (decoder.bytes - told >= PROGRESS_BYTES) {
      told = decoder.bytes;
      main?.postMessage({ type: "progress", bytes: told } satisfies FromScanner);
    }
    while (inFlight >= MAX_BATCHES_IN_FLIGHT && !checkerStopped) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = null;
    }
    if (stopped()) break; // the checks stopped while this thread waited: read no further
  }
  main?.postMessage({ type: "progress", bytes: decoder.bytes } satisfies FromScanner);
  end();
}

if (path !== null) {
  // a failure to read ends the worker with it, which fails the pass in the main thread
  read(path).catch((error: unknown) => {
    setImmediate(() => {
      throw error;
    });
  });
} else {
  main.on("message", (message: ToScanner) => {
    if (message.type === "chunk") {
      if (!stopped()) decoder.push(message.bytes);
      flush();
      owed++;
      settle();
    } else end();
  });
}
