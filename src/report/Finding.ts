// The unit of every report: one problem (or caution) found in a data file, as plain data.

/** How serious a finding is: errors make a file invalid, warnings do not (unless `strict`). */
export type Severity = "error" | "warning";

/** One problem found in a data file. Plain data: safe to serialise, compare and send over HTTP. */
export interface Finding {
  /** Stable code from the catalog, e.g. `user.email.format`. */
  code: string;
  severity: Severity;
  /** One sentence, rendered from the catalog template. */
  message: string;
  /** How to fix it. */
  hint?: string;
  /** JSON pointer into the (JSON-equivalent) document, e.g. `/users/41/email`. */
  pointer?: string;
  /** 1-based line in the source file. */
  line?: number;
  /** 1-based column in the source file, in characters (UTF-16 code units); JSON only (CSV gives row and field). */
  column?: number;
  /** 0-based byte offset in the source file. */
  offset?: number;
  /** CSV record number (the header is 0); in a workbook, the sheet's row number as Excel shows it. */
  row?: number;
  /** The workbook cell concerned, as Excel names it: `Users!E3` (a whole row: `Users!3:3`). */
  cell?: string;
  /** The CSV column or JSON property concerned. */
  field?: string;
  /** The offending value, strings truncated to 200 characters. */
  value?: unknown;
}

/** A place in a source file. */
export interface SourceLocation {
  /** 1-based line. */
  line: number;
  /** 1-based column in characters (UTF-16 code units). */
  column: number;
  /** 0-based byte offset. */
  offset: number;
}

/** What an emitter supplies for one finding; built only when the finding is kept. */
export interface FindingDetails {
  /** Values for the catalog template placeholders. */
  params?: Readonly<Record<string, string | number>>;
  /** A more specific hint than the catalog's. */
  hint?: string;
  pointer?: string;
  location?: SourceLocation;
  row?: number;
  cell?: string;
  field?: string;
  value?: unknown;
}
