// One pass over a data file, chosen in one place: in this thread (OnePass, for JSON and CSV), JSON
// decoded on a worker thread, CSV parsed on one, or a workbook read from its file (workbookPass);
// with the core (checks and collector) and an optional tap that receives each record after the
// checks. Validation, conversion, normalisation and the server's sync all get their pass here.

import { type FileHandle, open } from "node:fs/promises";
import { fileRange } from "../bytes/fileRange.js";
import { withSpooledFile } from "../bytes/spool.js";
import { CsvAssembler } from "../csv/CsvAssembler.js";
import { startsAsUtf16 } from "../csv/CsvStart.js";
import { BatchUsers } from "../csv/RowBatch.js";
import { checkedByParser } from "../csv/RowUsers.js";
import type { DataRecord } from "../model/DataRecord.js";
import type { Report } from "../report/Report.js";
import type { CollectedFindings } from "../report/ReportCollector.js";
import { AS_ROWS_COME, LicenseUserChecks } from "./_licenseUserChecks.js";
import { peekStart } from "./_peekStart.js";
import { renderedItems } from "./_renderedLicenseUsers.js";
import { PARALLEL_FROM, WORKERS, workerAvailable } from "./_workers.js";
import { type CsvReadResult, csvParallel } from "./csvParallel.js";
import { jsonParallel } from "./jsonParallel.js";
import { OnePass } from "./OnePass.js";
import type { NormalizedValidateOptions } from "./options.js";
import type { PassSource } from "./passSource.js";
import { ValidationCore } from "./ValidationCore.js";

export { fileSource, type PassSource, streamSource } from "./passSource.js";

/** How a pass ran: in the calling thread, JSON decoded on a worker, or CSV parsed on one. */
export type PassThreads = "one" | "json-worker" | "csv-worker" | "xlsx-worker";

/** The report of a pass, and how it ran. */
export interface PassResult {
  report: Report;
  threads: PassThreads;
}

/** What a pass does besides checking, and where its worker scripts are. */
export interface PassOptions {
  /** Receives each record after the checks (the converter's writer). */
  tap?: ((record: DataRecord) => void) | null;
  /** The folder of the built worker scripts. Default: this module's (dist/). */
  workers?: URL;
  /** How many license users of a CSV file each thread checks as their rows come (tests make it small). */
  asRowsCome?: number;
  /** The size of the chunks a JSON or CSV file is read in on a worker (tests make it small). */
  chunkSize?: number;
  /**
   * Where a CSV file's license users may go as JsonWriter's items (JsonWriter.licenseUserItems),
   * license by license after the license's record, instead of as records through the tap: a
   * conversion to JSON as read. Its parsing thread then renders them as their rows come.
   */
  licenseUserItems?: ((license: number, count: number, items: Iterable<Uint8Array>) => void) | null;
}

/**
 * The largest CSV file whose license users its parsing thread renders for a conversion to JSON
 * (a stream, of unknown size, too). Past a million license users (about 115 MB of an HR
 * export), it checks the rest after the last row while the calling thread waits, holding what
 * checking the first million took meanwhile: a convert of 147 MB (1.2 M license users) peaked
 * at 227 MB so, and one of 1 GB (9.65 M users) at 308 MB; 195 and 283 MB with the calling
 * thread checking them after the last row, as one thread does, the parsing thread giving up.
 */
const RENDER_UP_TO = 128 * 1024 * 1024;

export { DIFF_WORKER_SCRIPT, PARALLEL_FROM, WORKERS } from "./_workers.js";

/** Whether a pass over `size` bytes (null: unknown, a stream) asks for worker threads. */
export function parallelFor(parallel: boolean | "auto", size: number | null): boolean {
  return parallel === "auto" ? size !== null && size >= PARALLEL_FROM : parallel;
}

/**
 * How a pass runs here: on a worker thread when asked for (`options.parallel`, "auto" by the
 * source's size) and the built script and a second CPU are there — JSON decoded there, CSV
 * parsed there, a workbook's sheet inflated and scanned there; the rest of the work, and the
 * tap, stay in this thread.
 */
export function threadsFor(
  options: NormalizedValidateOptions,
  source: PassSource,
  pass: PassOptions = {},
): PassThreads {
  if (!parallelFor(options.parallel, source.size)) return "one";
  const { format } = options;
  return workerAvailable(format, pass.workers ?? WORKERS) ? `${format}-worker` : "one";
}

/** Runs one pass over `source` and resolves to its report and how it ran; then closes the source. */
export async function runPass(
  source: PassSource,
  options: NormalizedValidateOptions,
  pass: PassOptions = {},
): Promise<PassResult> {
  try {
    return await passOver(source, options, pass);
  } finally {
    await source.close?.();
  }
}

async function passOver(
  source: PassSource,
  options: NormalizedValidateOptions,
  pass: PassOptions,
): Promise<PassResult> {
  let threads = threadsFor(options, source, pass);
  if (threads === "csv-worker") {
    // a UTF-16 file is decoded in this thread, as a small file is read: the worker would parse
    // the file's own bytes, which are not the UTF-8 it reads (the simplest correct thing; Excel's
    // "Unicode Text" exports are small)
    const peeked = await peekStart(source, 2);
    source = peeked.source;
    if (startsAsUtf16(peeked.start)) threads = "one";
  }
  const workers = pass.workers ?? WORKERS;
  const tap = pass.tap ?? null;
  if (threads === "json-worker") {
    return { report: await jsonParallel(source, options, workers, tap, pass.chunkSize), threads };
  }
  if (threads === "csv-worker") {
    const core = new ValidationCore(options, tap);
    const users = new BatchUsers();
    // The license users are checked apart. With no records to hand on, on both threads, every
    // other license each. With a tap, all of them on the parsing thread, which has time to
    // spare while this one writes, as their rows come, and handed on here unchecked; unless
    // they outnumber what both threads would check as their rows come: then the parsing
    // thread gives up, and they are checked here as in one thread.
    const limits = { maxErrors: options.maxErrors, strict: options.strict };
    // Converting to JSON as read, the parsing thread also renders them as the JSON writer writes
    // them, checks them all (what it does not take as their rows come, after the last row), and
    // they are only counted here; unless the file is so large that they most likely outnumber
    // what it takes as their rows come (see RENDER_UP_TO).
    const all = tap !== null;
    const items = all && (source.size ?? 0) <= RENDER_UP_TO ? (pass.licenseUserItems ?? null) : null;
    const asRowsCome = pass.asRowsCome ?? AS_ROWS_COME;
    const here = all ? null : new LicenseUserChecks(limits, asRowsCome);
    const assembler = new CsvAssembler(core.sink, users, here, items === null);
    let checkedHere: (CollectedFindings | undefined)[] = [];
    const split = {
      limits,
      asRowsCome: all ? 2 * asRowsCome : asRowsCome,
      all,
      render: items !== null,
      checkHere: () => {
        if (!here) return;
        assembler.checkLicenseUsers((record) => here.check(record));
        checkedHere = here.end();
      },
    };
    let read: CsvReadResult | null = null;
    try {
      read = await csvParallel(
        source,
        assembler,
        users,
        options,
        options.onProgress,
        workers,
        split,
        pass.chunkSize,
      );
      const { licenseUsers: found, rendered } = read;
      if (items && !read.stopped && !(found && rendered))
        throw new Error("the parsing thread did not render the license users"); // a bug
      if (all && found === null) assembler.end(read.stopped);
      else
        assembler.end(
          read.stopped,
          (license, count) =>
            core.checkedLicenseUsers(
              count,
              all || checkedByParser(license) ? found?.[license] : checkedHere[license],
            ),
          all
            ? (license, count, records) => {
                if (items && rendered) items(license, count, renderedUsers(rendered, license, count));
                else for (const record of records) core.handOn(record);
              }
            : undefined,
        );
      return { report: core.end(read.stopped, read.bytes), threads };
    } finally {
      read?.rendered?.file.close();
      here?.dispose();
      assembler.dispose();
      core.dispose();
    }
  }
  if (options.format === "xlsx") {
    // loaded here: a JSON or CSV pass does not load the workbook reader
    const { workbookPass } = await import("./workbookPass.js");
    const passOverFile = async (file: FileHandle, size: number) => {
      const range = fileRange(file, size);
      if (threads === "one") return workbookPass(range, options, tap);
      // the workbook read on a worker thread, which reads the file through its descriptor
      const { xlsxParallel } = await import("./xlsxParallel.js");
      return workbookPass(range, options, tap, (_, sink, read) =>
        xlsxParallel(file.fd, size, sink, read, workers),
      );
    };
    const report = source.file
      ? await passOverFile(source.file, source.size ?? 0)
      : await withSpooledFile(source.chunks, async (path) => {
          const spooled = await open(path, "r");
          try {
            return await passOverFile(spooled, (await spooled.stat()).size);
          } finally {
            await spooled.close();
          }
        });
    return { report, threads };
  }
  const one = new OnePass(options, tap);
  try {
    for await (const chunk of source.chunks) {
      one.push(chunk);
      if (one.stopped) break;
    }
    return { report: one.end(), threads };
  } finally {
    one.dispose();
  }
}

/** The items of the `count` users of `license` the parsing thread rendered. */
function renderedUsers(
  rendered: NonNullable<CsvReadResult["rendered"]>,
  license: number,
  count: number,
): Iterable<Uint8Array> {
  const range = rendered.ranges[license] ?? [0, 0, 0];
  if (range[2] !== count)
    throw new Error(`the parsing thread rendered ${range[2]} users of license ${license}, not ${count}`); // a bug
  return renderedItems(rendered.file, range);
}
