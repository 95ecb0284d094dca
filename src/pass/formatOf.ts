// The forms of the data file, and which a file's name gives: a module of its own, with no
// imports, so that the page and the command line's start load nothing else for it.

/** The forms of the data file: the JSON document, CSV, or an Excel workbook's sheet. */
export type InputFormat = "json" | "csv" | "xlsx";

/** Every input format, for messages and choices. */
export const INPUT_FORMATS: readonly InputFormat[] = ["json", "csv", "xlsx"];

/**
 * CSV for a `.csv` name, and for `.tsv` and `.txt` (text a spreadsheet saves: tab-separated, or
 * Excel's "Unicode Text"; the reader tells the delimiter and the encoding), a workbook for
 * `.xlsx` (and `.xlsm`), JSON otherwise.
 */
export function formatOf(name: string | null | undefined): InputFormat {
  if (name && /\.(csv|tsv|txt)$/i.test(name)) return "csv";
  return name && /\.xls[xm]$/i.test(name) ? "xlsx" : "json";
}
