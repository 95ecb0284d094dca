// The checking thread of a parallel validation: replays the scanning thread's batches into
// a RecordBuilder and the checks, and sends the report to the main thread. See validateParallel.ts.

import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { RecordBuilder } from "../json/RecordBuilder.js";
import { replayBatch, type ScanBatch } from "./_scanBatch.js";
import type { NormalizedValidateOptions } from "./options.js";
import { ValidationCore } from "./ValidationCore.js";

/** Messages from the scanning thread. */
export type ToChecker =
  | { type: "batch"; batch: ScanBatch }
  | { type: "end"; stopped: boolean; bytes: number };
/** Messages to the scanning thread. */
export type FromChecker = { type: "ack" } | { type: "stop" };

const { options, scanner } = workerData as { options: NormalizedValidateOptions; scanner: MessagePort };
const main = parentPort;
if (!main) throw new Error("check-worker runs only as a worker thread");

const core = new ValidationCore(options);
// a syntax error in a record ends reading: the scanning thread stops
const builder = new RecordBuilder(core.sink, () =>
  scanner.postMessage({ type: "stop" } satisfies FromChecker),
);

scanner.on("message", (message: ToChecker) => {
  if (message.type === "batch") {
    replayBatch(message.batch, builder);
    scanner.postMessage({ type: "ack" } satisfies FromChecker);
  } else {
    main.postMessage(core.end(message.stopped || builder.stopped, message.bytes));
    scanner.close();
  }
});
