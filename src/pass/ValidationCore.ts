// The checking half of a validation pass: records and reader findings in, report out. It
// runs in the thread that scans (and, for a large CSV file, assembles) the records.

import { type Check, type CheckContext, checksByKind } from "../checks/Check.js";
import { defaultChecks } from "../checks/defaultChecks.js";
import type { DataRecord } from "../model/DataRecord.js";
import type { RecordSink } from "../model/RecordSink.js";
import { UserEmails } from "../model/UserEmails.js";
import type { Report, ReportMapping, ReportText } from "../report/Report.js";
import { type CollectedFindings, ReportCollector } from "../report/ReportCollector.js";
import { findingDetails } from "./_findingDetails.js";
import type { NormalizedValidateOptions } from "./options.js";

/** The users' emails a validation keeps in its hash table before they go to compact runs. */
const JSON_EMAILS_IN_TABLE = 512 * 1024;
/**
 * The bytes of their addresses kept in memory: a license user found among the users is
 * confirmed by the address while it is in memory (AddressSet.has), about the last 100 k users.
 */
const JSON_ADDRESS_BYTES = 4 * 1024 * 1024;

/**
 * Past this many users, a JSON validation compares the later ones at the end, by partitions on
 * disk (UserEmails' deferPast): memory stays flat however many users a file has. Tests lower it.
 */
export const jsonEmails = { deferPast: JSON_EMAILS_IN_TABLE, tableKeys: 64 * 1024, listedPast: 128 * 1024 };

/** Runs the checks on each record as it arrives, and collects every finding. */
export class ValidationCore {
  readonly #options: NormalizedValidateOptions;
  readonly #collector: ReportCollector;
  readonly #checks: Check[];
  /** The checks that look at each kind of record (most look at one). */
  readonly #byKind: Readonly<Record<DataRecord["kind"], Check[]>>;
  readonly #context: CheckContext;
  readonly #started = performance.now();
  /** The mapping a CSV reader read the rows through. */
  #mapping: ReportMapping | null = null;
  /** How a CSV reader read the text, when not UTF-8 with commas. */
  #text: ReportText | null = null;
  #recordErrorsBase = 0;
  #users = 0;
  #licenses = 0;
  #licenseUsers = 0;

  /**
   * The users' emails seen, shared by the duplicate-email and the license-user check. A JSON
   * file's users are all registered here (a CSV file's reader keeps its own, and this stays
   * empty): the first 512 k stay in the hash table, where every later user and license user is
   * looked up without searching the compact runs: faster for the files most have, for a little
   * more memory at the peak of a file of millions.
   */
  readonly #emails = new UserEmails(JSON_EMAILS_IN_TABLE, 0, {
    addressBytes: JSON_ADDRESS_BYTES,
    deferPast: jsonEmails.deferPast,
    tableKeys: jsonEmails.tableKeys,
    listedPast: jsonEmails.listedPast,
  });

  /** Where the reader sends records and its own findings. */
  readonly sink: RecordSink;

  readonly #tap: ((record: DataRecord) => void) | null;

  /** `tap`: also receives each record, after the checks (the converter's writer). */
  constructor(options: NormalizedValidateOptions, tap: ((record: DataRecord) => void) | null = null) {
    this.#options = options;
    this.#tap = tap;
    this.#checks = defaultChecks(this.#emails);
    this.#byKind = checksByKind(this.#checks);
    const collector = new ReportCollector(options);
    this.#collector = collector;
    const self = this;
    this.#context = {
      report: (code, record, spec = {}) => collector.add(code, () => findingDetails(record, spec)),
      get recordErrors() {
        return collector.errorCount - self.#recordErrorsBase;
      },
    };
    this.sink = {
      finding: (code, details) => collector.add(code, details),
      record: (record) => this.#record(record),
      mapped: (mapping) => {
        this.#mapping = mapping;
      },
      text: (text) => {
        this.#text = text;
      },
    };
  }

  /**
   * Ends the pass: unless reading stopped on a fatal problem, runs the checks that need the
   * whole file; releases what the checks hold; returns the report.
   */
  end(readingStopped: boolean, bytes: number): Report {
    try {
      if (!readingStopped) {
        this.#recordErrorsBase = this.#collector.errorCount;
        for (const check of this.#checks) check.end?.(this.#context);
        // a JSON document says so itself (users missing or []); rows that hold no user, and
        // no error that says why, a header alone, convert to a file the service refuses
        if (this.#options.format !== "json" && this.#users === 0 && this.#collector.errorCount === 0) {
          this.#collector.add("document.users.empty", {
            location: { line: 1, column: 1, offset: 0 },
            row: 0,
            hint: "no row holds a user (an email): the service needs at least one valid user in every file",
          });
        }
      }
    } finally {
      this.dispose();
    }
    const report = this.#collector.toReport({
      file: this.#options.file,
      format: this.#options.format,
      stats: {
        bytes,
        records: this.#users + this.#licenses + this.#licenseUsers,
        users: this.#users,
        licenses: this.#licenses,
        licenseUsers: this.#licenseUsers,
        durationMs: Math.round(performance.now() - this.#started),
      },
    });
    if (this.#mapping) report.mapping = this.#mapping;
    if (this.#text) {
      report.text = this.#text;
      // the parser's offsets are of the UTF-8 it read: in the file they would point elsewhere,
      // and an excerpt read back there would be garbled (lines are the file's own)
      if (this.#text.encoding) for (const finding of report.findings) delete finding.offset;
    }
    return report;
  }

  /**
   * The users of a license, checked on another thread (LicenseUserChecks) in place of being
   * recorded here: how many there are, and the findings about them, in their place.
   */
  checkedLicenseUsers(count: number, found: CollectedFindings | undefined): void {
    this.#licenseUsers += count;
    if (found) this.#collector.append(found);
  }

  /** Hands a record checked elsewhere (counted with checkedLicenseUsers) on to the tap. */
  handOn(record: DataRecord): void {
    this.#tap?.(record);
  }

  /** Releases temporary files of an abandoned pass (end() does this itself). */
  dispose(): void {
    for (const check of this.#checks) check.dispose?.();
    this.#emails.dispose();
  }

  #record(record: DataRecord): void {
    if (record.kind === "user") this.#users++;
    else if (record.kind === "license") this.#licenses++;
    else this.#licenseUsers++;
    this.#recordErrorsBase = this.#collector.errorCount;
    for (const check of this.#byKind[record.kind]) check.record?.(record, this.#context);
    this.#tap?.(record);
  }
}
