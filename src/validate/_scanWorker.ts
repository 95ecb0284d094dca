// The scanning thread of a parallel validation: decodes and scans the bytes the main thread
// reads, and sends the captures in batches to the checking thread. It acknowledges a chunk
// once its batch is on its way and few enough are waiting, so the main thread reads no
// further ahead than the checks can follow. See validateParallel.ts.

import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { JsonDecoder } from "../json/JsonDecoder.js";
import { JsonScanner } from "../json/JsonScanner.js";
import type { FromChecker, ToChecker } from "./_checkWorker.js";
import { BatchWriter } from "./_scanBatch.js";
import type { NormalizedValidateOptions } from "./options.js";

/** Messages from the main thread. */
export type ToScanner = { type: "chunk"; bytes: Uint8Array } | { type: "end" };
/** Messages to the main thread. */
export type FromScanner = { type: "ack"; stopped: boolean };

const MAX_BATCHES_IN_FLIGHT = 4;

const { options, checker } = workerData as { options: NormalizedValidateOptions; checker: MessagePort };
const main = parentPort;
if (!main) throw new Error("scan-worker runs only as a worker thread");

const writer = new BatchWriter();
const decoder = new JsonDecoder(new JsonScanner(writer, options), (code, details) =>
  writer.finding(code, details),
);
let inFlight = 0;
let owed = 0; // chunks scanned but not yet acknowledged to the main thread
let checkerStopped = false;

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

checker.on("message", (message: FromChecker) => {
  if (message.type === "ack") inFlight--;
  else checkerStopped = true;
  settle();
});

main.on("message", (message: ToScanner) => {
  if (message.type === "chunk") {
    if (!stopped()) decoder.push(message.bytes);
    flush();
    owed++;
    settle();
  } else {
    if (!stopped()) decoder.end();
    flush();
    send({ type: "end", stopped: stopped(), bytes: decoder.bytes });
  }
});
