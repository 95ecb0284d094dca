// What the page and its worker say to each other. The worker reads the file the user chose
// (a File, which the page hands over without copying it) and runs the library on it: a
// validation, or a conversion whose bytes come back as a Blob.

import type { Change, DiffResult, Excerpt, InputFormat, Report } from "../browser.js";
import type { MappingDocument } from "../mapping/MappingDocument.js";
import type { ExportInspection } from "../validate/inspectExport.js";

/**
 * How the columns of a CSV file or workbook are read: as the header decides (nothing given), a
 * mapping document, or the text of one the user loaded (the worker reads it, or says where it
 * is wrong).
 */
export interface JobMapping {
  mapping?: MappingDocument;
  mappingText?: { name: string; text: string };
}

/** A file of a comparison: its bytes and how they are read. */
export interface DiffSideJob {
  file: Blob;
  format: InputFormat;
}

/**
 * A job for the worker: check `file`, convert it to `to`, look at an export's columns, or
 * compare a file to push (`now`) with the account's previous state (`old`).
 */
export type Job =
  | { type: "diff"; old: DiffSideJob; now: DiffSideJob; limit: number }
  | ({ type: "validate"; file: File; format: InputFormat } & JobMapping)
  | ({ type: "convert"; file: File; format: InputFormat; to: "json" | "csv" } & JobMapping)
  | { type: "inspect"; file: File; format: "csv" | "xlsx" };

/** What the worker says about the job it runs. */
export type JobMessage =
  | { type: "progress"; bytes: number; total: number }
  | {
      type: "report";
      report: Report;
      /** The source line of each finding that has one, by the finding's index. */
      excerpts: [number, Excerpt][];
      /** The mapping document read from a job's mappingText. */
      mapping?: MappingDocument;
    }
  | { type: "inspected"; inspection: ExportInspection }
  | { type: "converted"; report: Report; output: Blob | null }
  | {
      type: "diffed";
      result: DiffResult;
      /** The first changes of each kind, up to the job's limit. */
      listed: [Change["kind"], Change[]][];
      /** The first users taken away, up to the job's limit. */
      takenAway: string[];
    }
  | { type: "failed"; message: string };
