// What the page and its worker say to each other. The worker reads the file the user chose
// (a File, which the page hands over without copying it) and runs the library on it: a
// validation, or a conversion whose bytes come back as a Blob.

import type { Excerpt, InputFormat, Report } from "../browser.js";

/** A job for the worker: check `file`, or convert it to `to`. */
export type Job =
  | { type: "validate"; file: File; format: InputFormat }
  | { type: "convert"; file: File; format: InputFormat; to: "json" | "csv" };

/** What the worker says about the job it runs. */
export type JobMessage =
  | { type: "progress"; bytes: number; total: number }
  | {
      type: "report";
      report: Report;
      /** The source line of each finding that has one, by the finding's index. */
      excerpts: [number, Excerpt][];
    }
  | { type: "converted"; report: Report; output: Blob | null }
  | { type: "failed"; message: string };
