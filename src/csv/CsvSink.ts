// What the CSV reader hands on and what bounds it: the header, a row, the sink that receives
// them, the limits. A file of their own, not CsvReader.ts: CsvRows, which CsvReader drives,
// needs them too, and the two would import each other.

import type { Layout } from "../mapping/layout.js";
import type { Code } from "../report/catalog.js";
import type { FindingDetails, SourceLocation } from "../report/Finding.js";
import type { ReportMapping, ReportText } from "../report/Report.js";
import type { ColumnKey } from "./columns.js";

/** A data row as read: cells by column index. */
export interface CsvRow {
  /** Record number: the header is row 0. */
  row: number;
  /** Where the record starts (column 1 of its first line). */
  loc: SourceLocation;
  cells: string[];
}

/** The header: which column each cell index holds (null for unknown columns), and its text. */
export interface CsvHeader {
  keys: (ColumnKey | null)[];
  names: string[];
  /** Index of each known column. */
  index: Partial<Record<ColumnKey, number>>;
  delimiter: string;
  /** A mapped export's own header names, when the names above are those behind the mapped columns. */
  sourceNames?: readonly string[];
  /** An export's layout, one row per user: a user's email on a second row is a duplicate, in any case. */
  oneRowPerUser?: boolean;
  /**
   * The raw layout's header found below the first row: the rows above it (a title), and where
   * it is, counted as a mapping's headerRow counts (`row`) and as a text editor does (`line`).
   */
  below?: { above: readonly (readonly string[])[]; row: number; line: number };
}

/** Receives the header, each row and each finding, in order. */
export interface CsvSink {
  header(header: CsvHeader): void;
  row(row: CsvRow): void;
  finding(code: Code, details: FindingDetails): void;
  /** After the last row, when the rows were read through a mapping: which, and what it left out. */
  mapped?(mapping: ReportMapping): void;
  /** Before the header, when the text is not UTF-8 with commas: how it is read. */
  text?(text: ReportText): void;
}

/** Limits of the reader, and how it reads the columns. */
export interface CsvReaderLimits {
  maxRecordBytes: number;
  /** Default "detect". */
  layout?: Layout;
  /**
   * A mapped row's email and licenses only, its other cells left empty: the parsing thread of a
   * parallel pass, which numbers users and checks license users (the other thread reads all).
   */
  usersOnly?: boolean;
}
