// CSV parsed on a worker thread (CsvParser: the fast path, csv-parse past the first irregular
// record). The calling thread reads the start of the file, up to the header's end; the worker
// reads the rest of a regular file itself, through the descriptor this thread opened (a
// stream's bytes this thread forwards), parses them (strict UTF-8) and numbers each row's user
// (the users' emails are kept there), and sends back raw records and users in batches. The
// calling thread keeps the start of the file (CsvStart) and replays the records into CsvRows (header, rows, findings), then assembles
// (BatchUsers: the users numbered by the worker), checks and writes. When only a report is
// wanted, the worker also checks the users of every other license (this thread the rest), the
// first as their rows come, the others after the last row, at the same time as this thread,
// and sends their findings by license. When the records are written too, the worker checks
// the users of every license as their rows come, unless there are too many (see runPass.ts);
// converting to JSON as read, it also renders them as the JSON writer writes them, and hands
// them over in a file after the last row (_renderedLicenseUsers.ts).
// Two cores are what this machine class has: a second parsing thread only fights the calling
// one for a core.

import type { FileHandle } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import { CsvRows } from "../csv/CsvRows.js";
import type { CsvReaderLimits, CsvSink } from "../csv/CsvSink.js";
import { CsvStart, textOf } from "../csv/CsvStart.js";
import { type BatchUsers, replayRows } from "../csv/RowBatch.js";
import type { CollectedFindings, CollectorOptions } from "../report/ReportCollector.js";
import { type SpillFile, takeSpill } from "../spill/spill.js";
import type {
  CheckedLicenseUsers,
  CsvWorkerBatch,
  CsvWorkerData,
  CsvWorkerFile,
  CsvWorkerMessage,
} from "./_csvWorker.js";
import { Flow } from "./_flow.js";
import { posted } from "./_posted.js";
import type { RenderedLicenses } from "./_renderedLicenseUsers.js";
import { SharedFlight } from "./_sharedFlight.js";
import { WORKER_SCRIPTS } from "./_workers.js";

/** A stream's chunks sent to the worker and not yet replayed here, at most. */
const MAX_CHUNKS_IN_FLIGHT = 16;
/**
 * The worker's young generation (MB): room for the short-lived strings of csv-parse and the
 * license users' checks (a larger one raised a conversion's peak RSS, and gained no speed).
 */
const YOUNG_GENERATION_MB = 8;

/** What reading gave: the bytes read, whether a fatal problem stopped it, and the worker's findings about license users. */
export interface CsvReadResult {
  bytes: number;
  stopped: boolean;
  /**
   * By license index, when the worker checked the license users and reading was not stopped
   * (not when it was to check all of them and gave up).
   */
  licenseUsers: (CollectedFindings | undefined)[] | null;
  /**
   * When the worker rendered the license users (`render`) and reading was not stopped: the file
   * of their items, this thread's to close, and where each license's are in it.
   */
  rendered: { file: SpillFile; ranges: RenderedLicenses["ranges"] } | null;
}

/**
 * Reads the CSV in `source` into `sink`, as CsvReader does, with its parser on a worker thread
 * (the start of the file and the rows stay here): the worker reads the rest of `source.file`,
 * when it is an open regular file, or else is sent `source.chunks`; the chunks are read here
 * up to the header's end either way, from where the file is. `users` answers the sink's
 * assembler which user each row is of, as the worker numbers them. `licenseUsers`: when the worker is to check
 * the users of its licenses (checkedByParser, or `all` of them), the report's limits, how many
 * as their rows come, and what checks this thread's kept ones meanwhile. Chunks may be reused
 * by the source after each step.
 */
export async function csvParallel(
  source: { chunks: AsyncIterable<Uint8Array>; file: FileHandle | null },
  sink: CsvSink,
  users: BatchUsers,
  limits: CsvReaderLimits,
  onProgress: ((bytes: number) => void) | null,
  workers: URL,
  licenseUsers: {
    limits: CollectorOptions;
    asRowsCome: number;
    all: boolean;
    /** With `all`: the worker renders every license user as JsonWriter writes it. */
    render: boolean;
    checkHere: () => void;
  } | null = null,
  chunkSize?: number,
): Promise<CsvReadResult> {
  const start = new CsvStart((code, details) => sink.finding(code, details), limits.maxRecordBytes);
  let rows: CsvRows | null = null;
  const stopped = () => start.stopped || (rows?.stopped ?? false);
  let bytes = 0;
  let worker: Worker | null = null;
  let flow = null as Flow | null; // set by begin(), which the compiler does not follow
  let sent = 0;
  let replayed = 0;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let last = false;
  /** Who reads the rest of the file: this thread, or the worker (a regular file's). */
  let reading = "here" as "here" | "worker";
  // when the worker reads the file: the batches it sent and this thread has not replayed yet,
  // and whether it is to stop reading
  const flight = source.file ? new SharedFlight() : null;
  // how far reading got, told once for each new length (the worker's first batch is of the
  // start this thread read and told already)
  let told = -1;
  const progress = (read: number) => {
    if (read <= told) return;
    told = read;
    onProgress?.(read);
  };
  let checked: (value: CheckedLicenseUsers) => void = () => {};
  const licenseUsersChecked = new Promise<CheckedLicenseUsers>((resolve) => {
    checked = resolve;
  });

  let failed = false;
  const replay = (batch: CsvWorkerBatch) => {
    if (failed) return;
    replayed++;
    try {
      if (rows && !rows.stopped) replayRows(batch, rows, users);
      if (batch.read !== undefined) {
        bytes = batch.read;
        if (!stopped()) progress(bytes);
      }
    } catch (error) {
      // a failure here (the tap's write into a full disk) fails the pass
      failed = true;
      flight?.stop();
      flow?.fail(error as Error);
      return;
    }
    if (batch.read !== undefined && flight) {
      // the worker reads the file: it is told that the batch is replayed, or to stop
      if (stopped()) flight.stop();
      else flight.taken();
      if (stopped() || batch.last) finish();
      return;
    }
    flow?.acknowledged(stopped());
    if (last && replayed === sent) finish();
  };
  // the batches of the worker's own reading are taken one a turn of the event loop: it has the
  // next one ready as soon as one is counted off, a port hands this thread all that wait in one
  // go, and so do immediates queued at once (a server's requests would wait behind a sync)
  const waiting: CsvWorkerBatch[] = [];
  const takeOne = () => {
    replay(waiting.shift() as CsvWorkerBatch);
    if (waiting.length > 0) setImmediate(takeOne);
  };
  let rendered: CsvReadResult["rendered"] = null;
  const dropRendered = () => rendered?.file.close(); // when it does not reach the caller
  const received = (message: CsvWorkerBatch | CheckedLicenseUsers) => {
    if ("licenseUsers" in message) {
      // the rendered users' file is this thread's from here on (deleted at exit too)
      if (message.rendered)
        rendered = { file: takeSpill(message.rendered.folder), ranges: message.rendered.ranges };
      checked(message);
    } else if (message.read === undefined) replay(message);
    else if (waiting.push(message) === 1) setImmediate(takeOne);
  };
  const send = (bytes: Uint8Array, close: boolean) => {
    sent++;
    flow?.sent();
    // copied as it is posted, before the source uses its buffer again (see _posted.ts)
    (worker as Worker).postMessage({ bytes: posted(bytes), close } satisfies CsvWorkerMessage);
  };
  /** The file's start, until its body is known; then the worker that parses it. */
  const begin = (chunk: Uint8Array, end: boolean) => {
    const body = start.push(chunk, end);
    if (body === null) return;
    // a UTF-16 file is read in one thread (runPass looks at its start first): the worker parses
    // the file's own bytes, which are not the UTF-8 it reads
    if (body.decoder) throw new Error("csvParallel was given a UTF-16 file"); // a bug
    const text = textOf(body);
    if (text) sink.text?.(text);
    rows = new CsvRows(sink, limits, body.options.delimiter);
    // the worker reads the rest of a regular file itself, from where this thread stopped
    const file: CsvWorkerFile | null =
      source.file && flight && !end
        ? {
            fd: source.file.fd,
            start: new Uint8Array(body.bytes),
            from: bytes,
            flight: flight.buffer,
            chunkSize,
          }
        : null;
    worker = new Worker(new URL(WORKER_SCRIPTS.csv, workers), {
      workerData: {
        file,
        options: body.options,
        limits: {
          maxRecordBytes: limits.maxRecordBytes,
          ...(limits.layout ? { layout: limits.layout } : {}),
          usersOnly: true,
        },
        licenseUsers: licenseUsers && {
          limits: licenseUsers.limits,
          asRowsCome: licenseUsers.asRowsCome,
          all: licenseUsers.all,
          render: licenseUsers.render,
        },
      } satisfies CsvWorkerData,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    flow = new Flow([worker], MAX_CHUNKS_IN_FLIGHT);
    worker.on("message", received);
    if (file) reading = "worker";
    else send(body.bytes, end);
  };

  try {
    for await (const chunk of source.chunks) {
      bytes += chunk.length;
      progress(bytes);
      if (worker) send(chunk, false);
      else begin(chunk, false);
      if (reading === "worker" || stopped()) break;
      if (flow) await flow.room();
      if (stopped()) break;
    }
    if (reading === "worker") {
      if (flow && !stopped()) await flow.or(done);
    } else {
      if (!stopped()) {
        if (worker) send(new Uint8Array(0), true);
        else begin(new Uint8Array(0), true);
      }
      last = true;
      if (flow && replayed < sent && !stopped()) await flow.or(done);
    }
    (rows as CsvRows | null)?.finish();
    // the worker checks its license users after its last batch (an empty file's never started it)
    let found: CsvReadResult["licenseUsers"] = null;
    if (licenseUsers && flow && !stopped()) {
      licenseUsers.checkHere();
      found = (await flow.or(licenseUsersChecked)).licenseUsers;
    }
    const result = { bytes, stopped: stopped(), licenseUsers: found, rendered };
    rendered = null; // the caller's now
    return result;
  } finally {
    dropRendered();
    flight?.stop();
    if (worker) await closeWorker(worker);
  }
}

/** Ends the worker once it has deleted its temporary files (after the chunks still in flight). */
async function closeWorker(worker: Worker): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  if (worker.threadId === -1) return; // it exited already
  worker.postMessage({ dispose: true } satisfies CsvWorkerMessage);
  await exited;
}
