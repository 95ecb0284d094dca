// The decoding thread of a JSON pass on two threads: decodes the bytes of the file, which it
// reads itself (through the descriptor the main thread opened), or which the main thread reads
// from a stream and sends, and sends the text back with its marks (textMarks.ts): a batch every
// few chunks of a file, a batch a chunk sent. It reads no further ahead than a couple of
// batches that the main thread has not scanned yet. See jsonParallel.ts.

import { parentPort, workerData } from "node:worker_threads";
import { chunksOf, fdReader } from "../bytes/readChunks.js";
import { JsonDecoder, type TextSink } from "../json/JsonDecoder.js";
import { marksOf, type TextMarks } from "../json/textMarks.js";
import type { Code } from "../report/catalog.js";
import type { FindingDetails } from "../report/Finding.js";
import { SharedFlight } from "./_sharedFlight.js";

/**
 * Messages from the main thread: what to read (to a thread started before its pass), bytes of
 * a stream, or its end.
 */
export type ToDecoder =
  | ({ type: "start" } & ReadData)
  | { type: "chunk"; bytes: Uint8Array }
  | { type: "end" };

/**
 * Messages to the main thread. A batch is taken in this order: the decoder's own findings (a
 * file that is not text, a UTF-16 byte-order mark), the texts (each `bytes[k]` bytes of the
 * file, with its `marks[k]`, found here), a byte that is not UTF-8 after them, the end of the
 * input. Then, last, the bytes read and whether the decoder stopped.
 */
export type FromDecoder =
  | {
      type: "batch";
      findings: { code: Code; details: FindingDetails }[];
      texts: string[];
      bytes: number[];
      marks: TextMarks[];
      encoding: string | null;
      finish: boolean;
    }
  | { type: "end"; bytes: number; stopped: boolean };

/**
 * What to read: `fd`, the descriptor of the open regular file (the main thread closes it once
 * this thread has ended), or null for chunks sent.
 */
export interface ReadData {
  fd: number | null;
  /**
   * With `fd`, the memory of a SharedFlight: the batches sent and not yet scanned, which the
   * main thread counts down as it takes them (a message each cost both threads more).
   */
  flight: SharedArrayBuffer | null;
  /** The size of the file's chunks (tests make it small). */
  chunkSize: number | undefined;
}

/** What the main thread gives this one: what to read, or that a "start" message will say (prestart.ts). */
export interface DecoderData extends ReadData {
  deferred?: boolean;
}

/** Batches sent and not yet scanned. More cost peak RSS and gained no speed. */
const MAX_BATCHES_IN_FLIGHT = 2;

/**
 * The chunks of the file a batch holds. Each batch costs both threads a wake-up (its message,
 * then the answer); with four, validating 100 MB took 1.04 s against 1.14 s with one, for 4 MB
 * more at the peak (eight: no faster, 8 MB more).
 */
const CHUNKS_A_BATCH = 4;

const { deferred, ...data } = workerData as DecoderData;
const main = parentPort;
if (!main) throw new Error("json-worker runs only as a worker thread");

/** Collects what the decoder makes into the next batch. */
class Batch implements TextSink {
  readonly stopped = false; // the main thread ends this thread when it stops
  findings: { code: Code; details: FindingDetails }[] = [];
  texts: string[] = [];
  bytes: number[] = [];
  marks: TextMarks[] = [];
  encoding: string | null = null;
  finished = false;

  feed(text: string, byteLength: number): void {
    this.texts.push(text);
    this.bytes.push(byteLength);
    this.marks.push(marksOf(text));
  }

  finish(): void {
    this.finished = true;
  }

  encodingError(detail: string): void {
    this.encoding = detail;
  }

  /** Sends the batch (even an empty one) and starts the next. */
  send(): void {
    const { findings, texts, bytes, marks, encoding, finished: finish } = this;
    // the marks' arrays copied, not moved (see _posted.ts)
    main?.postMessage({
      type: "batch",
      findings,
      texts,
      bytes,
      marks,
      encoding,
      finish,
    } satisfies FromDecoder);
    this.findings = [];
    this.texts = [];
    this.bytes = [];
    this.marks = [];
    this.encoding = null;
    this.finished = false;
  }
}

const batch = new Batch();
const decoder = new JsonDecoder(batch, (code, details) => batch.findings.push({ code, details }));

const end = () => {
  decoder.end();
  batch.send();
  main.postMessage({ type: "end", bytes: decoder.bytes, stopped: decoder.stopped } satisfies FromDecoder);
};

/**
 * Reads the file open as `fd` in this thread, in chunks of `chunkSize`, waiting while
 * MAX_BATCHES_IN_FLIGHT batches are not scanned yet, until its end or until told to stop.
 */
async function read(fd: number, chunkSize: number | undefined, flight: SharedFlight): Promise<void> {
  let chunks = 0;
  for await (const chunk of chunksOf(fdReader(fd), chunkSize)) {
    if (flight.stopped) return;
    decoder.push(chunk);
    if (decoder.stopped) break;
    if (++chunks % CHUNKS_A_BATCH !== 0) continue;
    flight.sent();
    batch.send();
    flight.waitForRoom(MAX_BATCHES_IN_FLIGHT);
  }
  if (!flight.stopped) end();
}

/** Reads the file open as `fd`, if any; else waits for chunks. */
function begin({ fd, chunkSize, flight }: ReadData): void {
  if (fd === null || flight === null) return;
  // a failure to read ends the worker with it, which fails the pass in the main thread
  read(fd, chunkSize, new SharedFlight(flight)).catch((error: unknown) => {
    setImmediate(() => {
      throw error;
    });
  });
}

main.on("message", (message: ToDecoder) => {
  if (message.type === "start") begin(message);
  else if (message.type === "chunk") {
    // a batch for each chunk the main thread sends: its answer, whatever the chunk made
    if (!decoder.stopped) decoder.push(message.bytes);
    batch.send();
  } else end();
});

if (!deferred) begin(data);
