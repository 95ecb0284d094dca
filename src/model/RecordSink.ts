// Where a reader (JSON or CSV) sends what it reads: each record, and its own findings.

import type { Code } from "../report/catalog.js";
import type { FindingDetails } from "../report/Finding.js";
import type { ReportMapping, ReportText } from "../report/Report.js";
import type { DataRecord } from "./DataRecord.js";

/** Receives records and reader findings, synchronously, in the order the reader emits them. */
export interface RecordSink {
  record(record: DataRecord): void;
  finding(code: Code, details: FindingDetails): void;
  /** The mapping an export was read through (a CSV reader says so after its last row). */
  mapped?(mapping: ReportMapping): void;
  /** How a CSV file's text is read, when not UTF-8 with commas (said before its first record). */
  text?(text: ReportText): void;
}
