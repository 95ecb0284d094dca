// One pass over a file, on the threads that suit it: CSV read on a second thread, JSON
// scanned and checked on two more (validation only), or everything on this one.

import { CsvAssembler } from "../csv/CsvAssembler.js";
import { CsvReader } from "../csv/CsvReader.js";
import type { DataRecord } from "../model/DataRecord.js";
import type { Report } from "../report/Report.js";
import type { NormalizedValidateOptions } from "./options.js";
import { csvParallelAvailable, readCsvParallel } from "./readCsvParallel.js";
import { Validation } from "./Validation.js";
import { ValidationCore } from "./ValidationCore.js";
import { parallelAvailable, validateParallel } from "./validateParallel.js";

/**
 * Validates `chunks` (valid until the next is requested); `tap` receives each record after
 * the checks. `parallel` asks for more threads where the format allows it.
 */
export async function runPass(
  chunks: AsyncIterable<Uint8Array>,
  options: NormalizedValidateOptions,
  tap: ((record: DataRecord) => void) | null,
  parallel: boolean,
): Promise<Report> {
  if (parallel && options.format === "csv" && csvParallelAvailable()) {
    const core = new ValidationCore(options, tap);
    const assembler = new CsvAssembler(core.sink, core.emails);
    const reader = new CsvReader(assembler, options);
    try {
      await readCsvParallel(chunks, reader, options.onProgress);
      assembler.end(reader.stopped);
      return core.end(reader.stopped, reader.bytes);
    } finally {
      assembler.dispose();
      core.dispose();
    }
  }
  // the JSON threads check records in a worker: they cannot hand them to a tap here
  if (parallel && options.format === "json" && !tap && parallelAvailable())
    return validateParallel(chunks, options);
  const { onProgress, ...rest } = options;
  const validation = new Validation(onProgress ? { ...rest, onProgress } : rest, tap);
  try {
    for await (const chunk of chunks) {
      validation.push(chunk);
      if (validation.stopped) break;
    }
    return validation.end();
  } finally {
    validation.dispose();
  }
}
