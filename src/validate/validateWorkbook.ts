// Validate a workbook given as a Blob (a File a page was given): what a browser validates an
// .xlsx file with, where validateFile has no path to read. The same workbook pass as Node's
// (workbookPass), reading the ZIP from the Blob by position, so the report is validateFile's.

import { blobRange } from "../bytes/ByteRange.js";
import { normalizeWorkbookOptions, type ValidateOptions } from "../pass/options.js";
import { workbookPass } from "../pass/workbookPass.js";
import type { Report } from "../report/Report.js";

/**
 * Validates the workbook (.xlsx) in `blob`, read as a workbook whatever its name; the report
 * names `options.file`. `options.onProgress` is told the bytes read as the sheet is. Bad options
 * reject with a RangeError; a damaged workbook, or no workbook at all, is a finding.
 */
export async function validateWorkbook(blob: Blob, options: ValidateOptions = {}): Promise<Report> {
  return workbookPass(blobRange(blob), normalizeWorkbookOptions(options), null);
}
