// The normalising pass over a Blob, in the calling thread: what a browser reads a file's
// sync-ready records with (normalizeFile's counterpart in Node). A workbook is read from the
// Blob by position, as a ZIP is; JSON and CSV are pushed through a pass chunk by chunk.

import { blobRange } from "../bytes/ByteRange.js";
import type { DocumentWriter } from "../model/DocumentWriter.js";
import { PriceConverter } from "../model/money.js";
import type { NormalizedValues } from "../model/normalize.js";
import { OnePass } from "../pass/OnePass.js";
import { normalizeValidateOptions, normalizeWorkbookOptions } from "../pass/options.js";
import { workbookPass } from "../pass/workbookPass.js";
import type { Report } from "../report/Report.js";
import type { PipeOptions } from "./options.js";
import { NormalizingRouter } from "./RecordRouter.js";

/**
 * Validates `blob` and hands the sync-ready form of each record to `writer` (normalize's
 * contract); `options.format` says how to read it (JSON unless given). Returns the report.
 */
export async function normalizeBlob(
  blob: Blob,
  writer: DocumentWriter<NormalizedValues>,
  options: Omit<PipeOptions, "normalize"> = {},
): Promise<Report> {
  const normalizing = { ...options, normalize: true };
  const router = new NormalizingRouter(writer, new PriceConverter(normalizing));
  const tap = router.record.bind(router);
  try {
    let report: Report;
    if (options.format === "xlsx") {
      report = await workbookPass(blobRange(blob), normalizeWorkbookOptions(normalizing), tap);
    } else {
      const pass = new OnePass(normalizeValidateOptions(normalizing), tap);
      try {
        const reader = blob.stream().getReader();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            pass.push(value);
            if (pass.stopped) break;
          }
        } finally {
          await reader.cancel().catch(() => {});
        }
        report = pass.end();
      } finally {
        pass.dispose();
      }
    }
    router.end();
    return report;
  } finally {
    router.dispose();
  }
}
