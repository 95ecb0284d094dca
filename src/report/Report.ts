// The versioned report object: what `validate --format json` prints and the server returns in a 400.

import type { Finding } from "./Finding.js";

/** Counts and sizes of one validation pass. */
export interface ReportStats {
  /** Bytes read from the source. */
  bytes: number;
  /** Users + licenses + license users seen. */
  records: number;
  users: number;
  licenses: number;
  licenseUsers: number;
  durationMs: number;
}

/** What a conversion wrote (convert reports only). */
export interface ReportOutput {
  /** The output file, or null for a stream (standard output). */
  file: string | null;
  format: "json" | "csv" | "xlsx";
  /** False when the input had errors and writing was not forced: nothing was written. */
  written: boolean;
  /** True when the records were written in their sync-ready form. */
  normalized: boolean;
  /** Currency of the prices written (normalised output only). */
  currency?: string;
  /** CSV cells written with a leading apostrophe so that spreadsheets do not run them. */
  formulasEscaped: number;
}

/** The mapping an export was read through (CSV and workbooks). */
export interface ReportMapping {
  /** The mapping's name: a built-in profile's, or the one its document gives. */
  name: string;
  title: string;
  /** Picked by the header (a built-in profile), named with --profile, or given as a document. */
  how: "detected" | "profile" | "file";
  /** Rows the mapping leaves out (its `exclude`). */
  rowsExcluded: number;
  /** Columns of the export the mapping does not read. */
  columnsIgnored: string[];
}

/** How a CSV file's text was read, when not as UTF-8 separated by commas. */
export interface ReportText {
  /** The encoding the text was decoded from, as its byte-order mark says (UTF-8 when absent). */
  encoding?: "UTF-16LE" | "UTF-16BE";
  /** The delimiter its first lines showed, when not a comma: a tab, `;` or `|`. */
  delimiter?: string;
}

/** The result of validating one data file. `reportVersion` changes only with incompatible changes. */
export interface Report {
  reportVersion: 1;
  /** True when there is no error (warnings allowed unless validated with `strict`). */
  valid: boolean;
  /** The file name as given, or null for a stream. */
  file: string | null;
  format: "json" | "csv" | "xlsx";
  /** The workbook's sheet that was read (xlsx only). */
  sheet?: string;
  /** The mapping the export was read through, when it was not in the service's layout. */
  mapping?: ReportMapping;
  /**
   * A CSV file's text, when not UTF-8 with commas. A file decoded from UTF-16 has findings
   * without `offset`: the parser counts the bytes of the UTF-8 it reads, not of the file.
   */
  text?: ReportText;
  stats: ReportStats;
  /** Exact totals, including findings beyond the `maxErrors` limit. */
  counts: { error: number; warning: number; byCode: Record<string, number> };
  /** True when some findings were not kept because of `maxErrors`. */
  truncated: boolean;
  /** How many findings were counted but not kept. */
  suppressed: number;
  /**
   * The findings kept, in the order one pass over the file found them, which is not quite source
   * order: record after record as each is read (a record's own findings in the order of the
   * checks, not of its properties), then what needs the whole file (license users not among the
   * users when the licenses come first, a document without a valid user). A CSV file's licenses
   * and license users are assembled after its last row, so their findings follow every row's.
   */
  findings: Finding[];
  /** What was written, when the report is of a conversion. */
  output?: ReportOutput;
}
