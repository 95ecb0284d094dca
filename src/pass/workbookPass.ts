// A pass over a workbook: its sheet read as CSV is (its rows assembled into records, checked by
// the core), each finding then placed in its cell. The one workbook pass there is: runPass
// gives it a file's bytes in Node, validateWorkbook and convertWorkbook a Blob's in a browser.

import type { ByteRange } from "../bytes/ByteRange.js";
import { CsvAssembler } from "../csv/CsvAssembler.js";
import type { DataRecord } from "../model/DataRecord.js";
import type { Report } from "../report/Report.js";
import { locateInSheet, readWorkbook } from "../xlsx/XlsxReader.js";
import type { NormalizedValidateOptions } from "./options.js";
import { ValidationCore } from "./ValidationCore.js";

/**
 * Reads and checks the workbook in `file`; `tap` receives each record after the checks. `read`
 * reads its sheet: readWorkbook in this thread, or a reader on another (xlsxParallel).
 */
export async function workbookPass(
  file: ByteRange,
  options: NormalizedValidateOptions,
  tap: ((record: DataRecord) => void) | null,
  read: typeof readWorkbook = readWorkbook,
): Promise<Report> {
  const core = new ValidationCore(options, tap);
  const assembler = new CsvAssembler(core.sink);
  try {
    const sheet = await read(file, assembler, {
      maxRecordBytes: options.maxRecordBytes,
      layout: options.layout,
      sheet: options.sheet,
      onProgress: options.onProgress,
    });
    assembler.end(sheet.stopped);
    const report = core.end(sheet.stopped, sheet.bytes);
    locateInSheet(report, sheet);
    if (sheet.sheet !== null) report.sheet = sheet.sheet;
    return report;
  } finally {
    assembler.dispose();
    core.dispose();
  }
}
