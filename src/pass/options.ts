// Options of a validation pass, normalised once at the boundary.

/** The forms of the data file: the JSON document, CSV, or an Excel workbook's sheet. */
export type InputFormat = "json" | "csv" | "xlsx";

/** Every input format, for messages and choices. */
export const INPUT_FORMATS: readonly InputFormat[] = ["json", "csv", "xlsx"];

/** Options of `validate…()` and `readRecords()`. */
export interface ValidateOptions {
  /** The form of the input. Default: by the file's extension (`.csv`, `.xlsx`), else JSON. */
  format?: InputFormat;
  /** The workbook's sheet to read (xlsx only). Default: the first visible sheet. */
  sheet?: string | null;
  /** The file name put in the report (validateFile uses the path). Default null. */
  file?: string | null;
  /** Errors (and, separately, warnings) to keep in the report; totals stay exact. Default 1000. */
  maxErrors?: number;
  /** Treat warnings as errors. Default false. */
  strict?: boolean;
  /** Deepest nesting of arrays and objects accepted. Default 64 (the data file needs 5). */
  maxDepth?: number;
  /** Largest single record (a user, a license user, a license property), in bytes. Default 1 MiB. */
  maxRecordBytes?: number;
  /** Called with the bytes read so far, after each chunk. */
  onProgress?: (bytes: number) => void;
  /**
   * Use a worker thread: it decodes JSON, or parses CSV, while this thread checks the records.
   * `"auto"` (the default) does so for files of 8 MiB or more when a second CPU is there;
   * streams of unknown size are read in one thread unless this is `true`.
   */
  parallel?: boolean | "auto";
}

/** Options with every default applied. */
export interface NormalizedValidateOptions {
  format: InputFormat;
  sheet: string | null;
  file: string | null;
  maxErrors: number;
  strict: boolean;
  maxDepth: number;
  maxRecordBytes: number;
  onProgress: ((bytes: number) => void) | null;
  parallel: boolean | "auto";
}

/** Applies defaults and rejects bad values with a RangeError or TypeError that says which and why. */
export function normalizeValidateOptions(options: ValidateOptions = {}): NormalizedValidateOptions {
  if (options.format !== undefined && !INPUT_FORMATS.includes(options.format)) {
    throw new RangeError(`format must be "json", "csv" or "xlsx", got ${String(options.format)}`);
  }
  const format = options.format ?? formatOf(options.file);
  const sheet = options.sheet ?? null;
  if (sheet !== null && (typeof sheet !== "string" || format !== "xlsx")) {
    throw new RangeError("sheet names a workbook's sheet: it applies to xlsx input only");
  }
  return {
    format,
    sheet,
    file: options.file ?? null,
    maxErrors: wholeNumber("maxErrors", options.maxErrors, 1000, 0),
    strict: options.strict ?? false,
    maxDepth: wholeNumber("maxDepth", options.maxDepth, 64, 8),
    maxRecordBytes: wholeNumber("maxRecordBytes", options.maxRecordBytes, 1 << 20, 64),
    onProgress: options.onProgress ?? null,
    parallel: options.parallel ?? "auto",
  };
}

/**
 * normalizeValidateOptions for a pass that reads a workbook whatever its name (a Blob has none):
 * the format is xlsx, and another one given is a RangeError.
 */
export function normalizeWorkbookOptions(options: ValidateOptions = {}): NormalizedValidateOptions {
  if (options.format !== undefined && options.format !== "xlsx") {
    throw new RangeError(
      `a workbook is read as xlsx: leave format out, or give "xlsx", got ${String(options.format)}`,
    );
  }
  return normalizeValidateOptions({ ...options, format: "xlsx" });
}

/** CSV for a `.csv` name, a workbook for `.xlsx` (and `.xlsm`), JSON otherwise. */
export function formatOf(name: string | null | undefined): InputFormat {
  if (name && /\.csv$/i.test(name)) return "csv";
  return name && /\.xls[xm]$/i.test(name) ? "xlsx" : "json";
}

function wholeNumber(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be a whole number of at least ${min}, got ${String(value)}`);
  }
  return value;
}
