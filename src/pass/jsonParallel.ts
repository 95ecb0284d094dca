// A JSON pass on two threads: a worker decodes the bytes (JsonDecoder: strict UTF-8), reading
// the file itself (the one this thread opened) or taking a stream's chunks from this thread, and sends the text back with
// its marks (where its line feeds and key colons are: textMarks.ts); this
// thread scans it (JsonScanner, plain records read in runs), parses and checks the records
// (RecordBuilder, ValidationCore) and hands them to the tap. Decoding is the part of the work
// that moves without being done twice: the text crosses once, and nothing parsed has to. The
// report is the same as in one thread.

import type { FileHandle } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import { JsonScanner } from "../json/JsonScanner.js";
import { RecordBuilder } from "../json/RecordBuilder.js";
import type { DataRecord } from "../model/DataRecord.js";
import type { Report } from "../report/Report.js";
import { Flow } from "./_flow.js";
import type { DecoderData, FromDecoder, ReadData, ToDecoder } from "./_jsonWorker.js";
import { posted } from "./_posted.js";
import { SharedFlight } from "./_sharedFlight.js";
import { DECODER_YOUNG_GENERATION_MB, WORKER_SCRIPTS } from "./_workers.js";
import type { NormalizedValidateOptions } from "./options.js";
import { takeJsonWorker } from "./prestart.js";
import { ValidationCore } from "./ValidationCore.js";

/** A stream's chunks sent to the decoding thread and not yet scanned here. */
const MAX_CHUNKS_IN_FLIGHT = 4;

/**
 * Validates the open regular `file`, or else `chunks`, with the decoding on a worker thread whose
 * script is built in `workers`; each record goes to `tap` after the checks. Chunks may be
 * reused by the source after each step. `chunkSize`: the file's (tests make it small).
 */
export async function jsonParallel(
  source: { chunks: AsyncIterable<Uint8Array>; file: FileHandle | null },
  options: NormalizedValidateOptions,
  workers: URL,
  tap: ((record: DataRecord) => void) | null = null,
  chunkSize?: number,
): Promise<Report> {
  // the worker reads the file through this thread's descriptor: it is not opened again
  const flight = source.file ? new SharedFlight() : null;
  const read: ReadData = { fd: source.file?.fd ?? null, flight: flight?.buffer ?? null, chunkSize };
  const started = takeJsonWorker(workers);
  started?.postMessage({ type: "start", ...read } satisfies ToDecoder);
  const decoding =
    started ??
    new Worker(new URL(WORKER_SCRIPTS.json, workers), {
      workerData: read satisfies DecoderData,
      // it makes a chunk's text and sends it: a small young generation is enough, and bounds RSS
      resourceLimits: { maxYoungGenerationSizeMb: DECODER_YOUNG_GENERATION_MB },
    });
  const flow = new Flow([decoding], MAX_CHUNKS_IN_FLIGHT);
  const core = new ValidationCore(options, tap);
  try {
    let scanner: JsonScanner | null = null;
    const builder = new RecordBuilder(core.sink, () => scanner?.stop());
    scanner = new JsonScanner(builder, options);
    const stopped = () => (scanner as JsonScanner).stopped || builder.stopped;
    let scanned = 0; // bytes of the text scanned
    const report = new Promise<Report>((resolve) => {
      // the report is made once: batches still on their way after it are not looked at
      let finished = false;
      const done = (stoppedHere: boolean, bytes: number) => {
        finished = true;
        decoding.off("message", receive);
        resolve(core.end(stoppedHere, bytes));
      };
      // a failure here (the tap's write into a full disk) must fail the pass: thrown from an
      // event handler, it would end the process instead, with the temporary output left behind
      const take = (message: FromDecoder) => {
        if (finished) return;
        try {
          handle(message);
        } catch (error) {
          finished = true;
          decoding.off("message", receive);
          flow.fail(error as Error);
        }
      };
      // each batch is taken in a turn of the event loop of its own: a port hands this thread up
      // to a thousand messages in one go, and the worker has the next one ready at once (it is
      // told as soon as a batch is taken), so a server's requests waited seconds behind a sync
      const receive = (message: FromDecoder) => setImmediate(take, message);
      const handle = (message: FromDecoder) => {
        if (message.type === "end") {
          if (message.bytes > scanned) options.onProgress?.(message.bytes);
          done(message.stopped || stopped(), message.bytes);
          return;
        }
        for (const { code, details } of message.findings) builder.finding(code, details);
        for (let k = 0; k < message.texts.length && !stopped(); k++) {
          scanner.feed(message.texts[k] as string, message.bytes[k] as number, message.marks[k] ?? null);
          scanned += message.bytes[k] as number;
        }
        if (message.encoding !== null) scanner.encodingError(message.encoding);
        if (message.finish) scanner.finish();
        options.onProgress?.(scanned);
        // reading stops at a fatal problem: what was read is reported, as in one thread
        if (stopped()) done(true, scanned);
        if (flight === null) flow.acknowledged(stopped());
        else if (stopped()) flight.stop();
        else flight.taken();
      };
      decoding.on("message", receive);
    });
    if (source.file === null) await forward(source.chunks, decoding, flow);
    return await flow.or(report);
  } finally {
    flight?.stop();
    core.dispose();
    await decoding.terminate();
  }
}

/** Sends `chunks` to the decoding thread, a few not yet scanned at most, then the end. */
async function forward(chunks: AsyncIterable<Uint8Array>, decoding: Worker, flow: Flow): Promise<void> {
  for await (const chunk of chunks) {
    flow.sent();
    // copied as it is posted, before the source uses its buffer again (see _posted.ts)
    decoding.postMessage({ type: "chunk", bytes: posted(chunk) } satisfies ToDecoder);
    await flow.room();
    if (flow.stopped) return;
  }
  decoding.postMessage({ type: "end" } satisfies ToDecoder);
}
