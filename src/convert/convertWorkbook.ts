// Convert a workbook given as a Blob into any sink of bytes: what a browser converts an .xlsx
// file with. The records of the same workbook pass as Node's (workbookPass) go to the writer as
// they are read, as convertFile's do, so the bytes are those `syncfile convert` writes.

import { blobRange } from "../bytes/ByteRange.js";
import type { BytesOut } from "../bytes/TextOut.js";
import { normalizeWorkbookOptions } from "../pass/options.js";
import { workbookPass } from "../pass/workbookPass.js";
import type { Report } from "../report/Report.js";
import { DocumentOutput } from "./DocumentOutput.js";
import { type ConvertOptions, outputFormat, priceConverter } from "./options.js";

/**
 * Converts the workbook (.xlsx) in `blob` into `out`, as JSON unless `options.to` says otherwise.
 * The output goes to `out` as it is written, whatever the workbook holds: whether to keep it is
 * the report's `output.written` (the workbook is valid, or `force`). Bad options reject with a
 * RangeError before anything is read.
 */
export async function convertWorkbook(blob: Blob, options: ConvertOptions, out: BytesOut): Promise<Report> {
  const normalized = normalizeWorkbookOptions(options);
  const to = outputFormat(options.to, null, normalized.format);
  const output = new DocumentOutput(to, out, options, priceConverter(options));
  const router = output.router;
  try {
    const report = await workbookPass(blobRange(blob), normalized, (record) => router.record(record));
    router.end();
    report.output = output.describe(null, report.valid || options.force === true);
    return report;
  } finally {
    router.dispose();
  }
}
