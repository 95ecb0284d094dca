// The parsing thread of a parallel CSV pass: parses the bytes the reading thread forwards,
// as one continuing parse, and sends back one batch of raw records per chunk, in order. It
// also matches the records to the header, as the reading thread does, to number each row's
// user (the users' emails are kept here), which it sends along. See csvParallel.ts.

import { parentPort, workerData } from "node:worker_threads";
import type { ParseFailure, RawRecordSink } from "../csv/CsvParser.js";
import { CsvParser, type CsvParserOptions } from "../csv/CsvParser.js";
import { CsvRows } from "../csv/CsvRows.js";
import type { CsvReaderLimits } from "../csv/CsvSink.js";
import { RowBatchWriter } from "../csv/RowBatch.js";
import { RowUsers } from "../csv/RowUsers.js";
import type { SourceLocation } from "../report/Finding.js";
import type { CollectedFindings, CollectorOptions } from "../report/ReportCollector.js";
import { LicenseUserChecks } from "./_licenseUserChecks.js";

/** The next bytes of the file, and whether they are the last; or the end of the pass. */
export type CsvWorkerMessage = { bytes: Uint8Array; close: boolean } | { dispose: true };

/**
 * What the worker sends after the batch of the last bytes, when it checks license users: their
 * findings by license; null when it checked all of them and gave up (RowUsers.gaveUp).
 */
export interface CheckedLicenseUsers {
  licenseUsers: (CollectedFindings | undefined)[] | null;
}

/** What the worker is started with. */
export interface CsvWorkerData {
  options: CsvParserOptions;
  limits: CsvReaderLimits;
  /**
   * Whether it checks the users of every other license (or with `all`, of every license): the
   * report's limits, and how many as their rows come.
   */
  licenseUsers: { limits: CollectorOptions; asRowsCome: number; all: boolean } | null;
}

const { options, limits, licenseUsers } = workerData as CsvWorkerData;
const main = parentPort;
if (!main) throw new Error("csv-worker runs only as a worker thread");

const writer = new RowBatchWriter();
let checks = licenseUsers ? new LicenseUserChecks(licenseUsers.limits, licenseUsers.asRowsCome) : null;
const users = new RowUsers((user, isNew) => writer.user(user, isNew), checks, licenseUsers?.all);

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

main.on("message", (message: CsvWorkerMessage) => {
  if ("dispose" in message) {
    users.dispose();
    checks?.dispose();
    process.exit(0);
  }
  parser.push(message.bytes);
  if (message.close) parser.end();
  if (users.gaveUp && checks) {
    checks.dispose();
    checks = null; // what it holds can go
  }
  const batch = writer.take();
  // a RowBatch, its arrays moved, not copied
  main.postMessage(batch, [
    batch.ends.buffer as ArrayBuffer,
    batch.records.buffer as ArrayBuffer,
    batch.users.buffer as ArrayBuffer,
  ]);
  if (!message.close) return;
  if (licenseUsers) {
    const checking = checks;
    if (checking) users.checkLicenseUsers((record) => checking.check(record));
    main.postMessage({ licenseUsers: checking?.end() ?? null } satisfies CheckedLicenseUsers);
  }
  users.dispose();
});
