// Options of a validation pass, normalised once at the boundary.

import { checkMapping } from "../mapping/checkMapping.js";
import type { Layout } from "../mapping/layout.js";
import type { MappingDocument } from "../mapping/MappingDocument.js";
import { PROFILES, profileNamed } from "../mapping/profiles.js";
import { formatOf, INPUT_FORMATS, type InputFormat } from "./formatOf.js";

export { formatOf, INPUT_FORMATS, type InputFormat } from "./formatOf.js";

/** Options of `validate…()` and `readRecords()`. */
export interface ValidateOptions {
  /** The form of the input. Default: by the file's extension (`.csv`, `.xlsx`), else JSON. */
  format?: InputFormat;
  /** The workbook's sheet to read (xlsx only). Default: the first visible sheet. */
  sheet?: string | null;
  /**
   * How a CSV file's or a workbook's columns are read: a built-in profile by name
   * (`google-workspace`…), or `"none"` for the service's layout alone. Default: the header
   * decides (a built-in profile when it is one's, else the service's layout).
   */
  profile?: string;
  /** A mapping of your own (schemas/mapping.schema.json) to read a CSV file or a workbook with; not with `profile`. */
  mapping?: MappingDocument;
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
  layout: Layout;
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
    layout: layoutOf(options, format),
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

/** The layout the options ask for; a RangeError for a profile or mapping that cannot be used. */
function layoutOf(options: ValidateOptions, format: InputFormat): Layout {
  const { profile, mapping } = options;
  if (profile === undefined && mapping === undefined) return "detect";
  if (profile !== undefined && mapping !== undefined) {
    throw new RangeError("give a profile or a mapping, not both");
  }
  if (format === "json") {
    throw new RangeError("a profile or a mapping reads the columns of CSV files and workbooks, not JSON");
  }
  if (mapping !== undefined) {
    const problem = checkMapping(mapping);
    if (problem !== null) throw new RangeError(`the mapping ${problem}`);
    return { mapping, given: "file" };
  }
  if (profile === "none") return "none";
  const named = typeof profile === "string" ? profileNamed(profile) : undefined;
  if (!named) {
    const names = PROFILES.map((p) => p.name).join(", ");
    throw new RangeError(`profile must be one of ${names} or none, got ${String(profile)}`);
  }
  return { mapping: named, given: "profile" };
}

function wholeNumber(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be a whole number of at least ${min}, got ${String(value)}`);
  }
  return value;
}
