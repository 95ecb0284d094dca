// CSV parsed on a worker thread (CsvParser: the fast path, csv-parse past the first irregular
// record). The calling thread reads the file and forwards its bytes; the worker parses them
// (strict UTF-8) and numbers each row's user (the users' emails are kept there), and sends
// back raw records and users in batches. The calling thread keeps the start of the file
// (CsvStart) and replays the records into CsvRows (header, rows, findings), then assembles
// (BatchUsers: the users numbered by the worker), checks and writes. When only a report is
// wanted, the worker also checks the users of every other license (this thread the rest), the
// first as their rows come, the others after the last row, at the same time as this thread,
// and sends their findings by license. When the records are written too, the worker checks
// the users of every license as their rows come, unless there are too many (see runPass.ts).
// Two cores are what this machine class has: a second parsing thread only fights the calling
// one for a core.

import { Worker } from "node:worker_threads";
import { CsvRows } from "../csv/CsvRows.js";
import type { CsvReaderLimits, CsvSink } from "../csv/CsvSink.js";
import { CsvStart } from "../csv/CsvStart.js";
import { type BatchUsers, type RowBatch, replayRows } from "../csv/RowBatch.js";
import type { CollectedFindings, CollectorOptions } from "../report/ReportCollector.js";
import type { CheckedLicenseUsers, CsvWorkerData, CsvWorkerMessage } from "./_csvWorker.js";
import { Flow } from "./_flow.js";
import { WORKER_SCRIPTS } from "./_workers.js";

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
}

/**
 * Reads the CSV in `chunks` into `sink`, as CsvReader does, with its parser on a worker thread
 * (the start of the file and the rows stay here). `users` answers the sink's assembler which
 * user each row is of, as the worker numbers them. `licenseUsers`: when the worker is to check
 * the users of its licenses (checkedByParser, or `all` of them), the report's limits, how many
 * as their rows come, and what checks this thread's kept ones meanwhile. Chunks may be reused
 * by the source after each step.
 */
export async function csvParallel(
  chunks: AsyncIterable<Uint8Array>,
  sink: CsvSink,
  users: BatchUsers,
  limits: CsvReaderLimits,
  onProgress: ((bytes: number) => void) | null,
  workers: URL,
  licenseUsers: {
    limits: CollectorOptions;
    asRowsCome: number;
    all: boolean;
    checkHere: () => void;
  } | null = null,
): Promise<CsvReadResult> {
  const start = new CsvStart((code, details) => sink.finding(code, details), limits.maxRecordBytes);
  let rows: CsvRows | null = null;
  const stopped = () => start.stopped || (rows?.stopped ?? false);
  let bytes = 0;
  let worker: Worker | null = null;
  let flow: Flow | null = null;
  let sent = 0;
  let replayed = 0;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let last = false;
  let checked: (value: CheckedLicenseUsers) => void = () => {};
  const licenseUsersChecked = new Promise<CheckedLicenseUsers>((resolve) => {
    checked = resolve;
  });

  const received = (message: RowBatch | CheckedLicenseUsers) => {
    if ("licenseUsers" in message) {
      checked(message);
      return;
    }
    const batch = message;
    replayed++;
    try {
      if (rows && !rows.stopped) replayRows(batch, rows, users);
    } catch (error) {
      flow?.fail(error as Error);
      return;
    }
    flow?.acknowledged(stopped());
    if (last && replayed === sent) finish();
  };
  const send = (bytes: Uint8Array, close: boolean) => {
    sent++;
    flow?.sent();
    (worker as Worker).postMessage({ bytes, close } satisfies CsvWorkerMessage, [
      bytes.buffer as ArrayBuffer,
    ]);
  };
  /** The file's start, until its body is known; then the worker that parses it. */
  const begin = (chunk: Uint8Array, end: boolean) => {
    const body = start.push(chunk, end);
    if (body === null) return;
    rows = new CsvRows(sink, limits, body.options.delimiter);
    worker = new Worker(new URL(WORKER_SCRIPTS.csv, workers), {
      workerData: {
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
        },
      } satisfies CsvWorkerData,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    flow = new Flow([worker], MAX_CHUNKS_IN_FLIGHT);
    worker.on("message", received);
    send(new Uint8Array(body.bytes), end);
  };

  try {
    for await (const chunk of chunks) {
      bytes += chunk.length;
      onProgress?.(bytes);
      // the source reuses its buffer: the worker gets a copy
      if (worker) send(new Uint8Array(chunk), false);
      else begin(chunk, false);
      if (flow) await (flow as Flow).room();
      if (stopped()) break;
    }
    if (!stopped()) {
      if (worker) send(new Uint8Array(0), true);
      else begin(new Uint8Array(0), true);
    }
    last = true;
    if (flow && replayed < sent && !stopped()) await (flow as Flow).or(done);
    (rows as CsvRows | null)?.finish();
    // the worker checks its license users after its last batch (an empty file's never started it)
    const started = flow as Flow | null;
    let found: CsvReadResult["licenseUsers"] = null;
    if (licenseUsers && started && !stopped()) {
      licenseUsers.checkHere();
      found = (await started.or(licenseUsersChecked)).licenseUsers;
    }
    return { bytes, stopped: stopped(), licenseUsers: found };
  } finally {
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
