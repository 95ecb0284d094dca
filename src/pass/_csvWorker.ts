// The parsing thread of a parallel CSV pass: parses the bytes of the file, which it reads
// itself from where the reading thread's start of the file ended (through the descriptor that
// thread opened), or which the reading thread forwards from a stream, as one continuing parse,
// and sends back one batch of raw records per chunk, in order. It also matches the records to
// the header, as the reading thread does, to number each row's user (the users' emails are kept
// here), which it sends along. See csvParallel.ts.

import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { chunksOf, fdReader } from "../bytes/readChunks.js";
import type { ParseFailure, RawRecordSink } from "../csv/CsvParser.js";
import { CsvParser, type CsvParserOptions } from "../csv/CsvParser.js";
import { CsvRows } from "../csv/CsvRows.js";
import type { CsvReaderLimits } from "../csv/CsvSink.js";
import { type RowBatch, RowBatchWriter } from "../csv/RowBatch.js";
import { RowUsers } from "../csv/RowUsers.js";
import type { SourceLocation } from "../report/Finding.js";
import type { CollectedFindings, CollectorOptions } from "../report/ReportCollector.js";
import { LicenseUserChecks } from "./_licenseUserChecks.js";
import { type RenderedLicenses, RenderedLicenseUsers } from "./_renderedLicenseUsers.js";
import { SharedFlight } from "./_sharedFlight.js";

/** The next bytes of the file, and whether they are the last; or the end of the pass. */
export type CsvWorkerMessage = { bytes: Uint8Array; close: boolean } | { dispose: true };

/**
 * What the worker sends after the batch of the last bytes, when it checks license users: their
 * findings by license; null when it checked all of them and gave up (RowUsers.gaveUp).
 */
export interface CheckedLicenseUsers {
  licenseUsers: (CollectedFindings | undefined)[] | null;
  /** With `render`: every license's users as JsonWriter writes them. */
  rendered: RenderedLicenses | null;
}

/**
 * A batch, and how far the file has been read when this thread reads it: the bytes read up to
 * the batch's end, and whether the batch is the last (the file's end).
 */
export type CsvWorkerBatch = RowBatch & { read?: number; last?: boolean };

/**
 * The file this thread reads itself. `flight` is the memory of a SharedFlight: the batches sent
 * and not yet replayed, and whether the reading thread said to stop (a fatal problem, or the
 * pass ends).
 */
export interface CsvWorkerFile {
  /** The descriptor of the open file (the reading thread closes it once this thread has ended). */
  fd: number;
  /** The start of the file, which the reading thread read (up to `from`): parsed first. */
  start: Uint8Array;
  /** Where to read from. */
  from: number;
  flight: SharedArrayBuffer;
  /** The size of the chunks the file is read in (tests make it small). */
  chunkSize: number | undefined;
}

/** Batches sent and not yet replayed, at most, when this thread reads the file. */
const BATCHES_IN_FLIGHT = 8;

/** What the worker is started with. */
export interface CsvWorkerData {
  /** The file to read, or null: the reading thread forwards the bytes. */
  file: CsvWorkerFile | null;
  options: CsvParserOptions;
  limits: CsvReaderLimits;
  /**
   * Whether it checks the users of every other license (or with `all`, of every license): the
   * report's limits, and how many as their rows come.
   */
  licenseUsers: { limits: CollectorOptions; asRowsCome: number; all: boolean; render: boolean } | null;
}

const { file, options, limits, licenseUsers } = workerData as CsvWorkerData;
if (!parentPort) throw new Error("csv-worker runs only as a worker thread");
const main: MessagePort = parentPort;

const writer = new RowBatchWriter();
let checks = licenseUsers ? new LicenseUserChecks(licenseUsers.limits, licenseUsers.asRowsCome) : null;
// with `render` (a conversion to JSON), every license user as JsonWriter writes it (`all` too)
const rendered = licenseUsers?.render ? new RenderedLicenseUsers() : null;
const users = new RowUsers(
  (user, isNew) => writer.user(user, isNew),
  checks,
  licenseUsers?.all,
  rendered && ((license, email, licenseStatus) => rendered.add(license, email, licenseStatus)),
);

const rows = new CsvRows(users, limits, options.delimiter);
const both: RawRecordSink = {
  record(cells: string[], loc: SourceLocation, text?: string, block?: string, at?: number): void {
    writer.record(cells, loc, text, block, at);
    rows.record(cells, loc);
  },
  failure(failure: ParseFailure): void {
    writer.failure(failure);
    rows.failure(failure);
  },
};
const parser = new CsvParser(both, options);

/**
 * Parses `bytes` (the last when `close`) and sends their batch, with how far the file has been
 * read when this thread reads it; after the last, the license users' findings when asked.
 */
function step(bytes: Uint8Array, close: boolean, read?: number): void {
  parser.push(bytes);
  if (close) parser.end();
  if (users.gaveUp && checks) {
    checks.dispose();
    checks = null; // what it holds can go
  }
  const batch: CsvWorkerBatch = writer.take();
  if (read !== undefined) {
    batch.read = read;
    batch.last = close;
  }
  // a RowBatch, its arrays copied (see _posted.ts)
  main.postMessage(batch);
  if (!close) return;
  if (licenseUsers) {
    const checking = checks;
    if (checking) users.checkLicenseUsers((record) => checking.check(record));
    main.postMessage({
      licenseUsers: checking?.end() ?? null,
      rendered: rendered?.handOver() ?? null,
    } satisfies CheckedLicenseUsers);
  }
  users.dispose();
}

/**
 * Parses the start of the file, then reads it from `from` on, a batch a chunk, no further
 * ahead than BATCHES_IN_FLIGHT batches the reading thread has not replayed, until its end or
 * until the reading thread says to stop.
 */
async function readFile({ fd, start, from, flight: memory, chunkSize }: CsvWorkerFile): Promise<void> {
  const flight = new SharedFlight(memory);
  let read = from;
  flight.sent();
  step(start, false, read);
  for await (const chunk of chunksOf(fdReader(fd), chunkSize, from)) {
    if (flight.stopped) return;
    read += chunk.length;
    flight.sent();
    step(chunk, false, read);
    flight.waitForRoom(BATCHES_IN_FLIGHT);
  }
  if (flight.stopped) return;
  flight.sent();
  step(new Uint8Array(0), true, read);
}

main.on("message", (message: CsvWorkerMessage) => {
  if ("dispose" in message) {
    users.dispose();
    checks?.dispose();
    rendered?.dispose();
    process.exit(0);
  }
  step(message.bytes, message.close);
});

if (file) {
  // a failure to read ends the worker with it, which fails the pass in the reading thread
  readFile(file).catch((error: unknown) => {
    setImmediate(() => {
      throw error;
    });
  });
}
