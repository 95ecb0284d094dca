// Iterate the records of a data file as they are parsed: each user, license and license
// user with its pointer and location, and the reader's own findings (malformed JSON).

import { readChunks } from "../bytes/readChunks.js";
import { JsonReader } from "../json/JsonReader.js";
import type { DataRecord } from "../model/DataRecord.js";
import { normalizeValidateOptions, type ValidateOptions } from "../pass/options.js";
import { catalog } from "../report/catalog.js";
import type { Finding } from "../report/Finding.js";
import { buildFinding } from "../report/ReportCollector.js";

/** What `readRecords` yields: a record, or a finding of the reader (syntax, encoding, shape). */
export type RecordEvent = { type: "record"; record: DataRecord } | { type: "finding"; finding: Finding };

/** A path, or bytes from a Node stream, a web stream or any async iterable. */
export type RecordSource = string | AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>;

const encoder = new TextEncoder();

/**
 * Yields every record of a data file as soon as it is parsed, in source order, with the
 * reader's findings among them. Memory stays bounded by the largest record. After a fatal
 * finding (syntax, encoding, depth) nothing more is read.
 */
export async function* readRecords(
  source: RecordSource,
  options: Pick<ValidateOptions, "maxDepth" | "maxRecordBytes"> = {},
): AsyncGenerator<RecordEvent> {
  const limits = normalizeValidateOptions(options);
  const queue: RecordEvent[] = [];
  const reader = new JsonReader(
    {
      record: (record) => queue.push({ type: "record", record }),
      finding: (code, details) =>
        queue.push({ type: "finding", finding: buildFinding(code, catalog[code].severity, details) }),
    },
    limits,
  );
  const chunks = typeof source === "string" ? readChunks(source) : (source as AsyncIterable<Uint8Array>);
  for await (const chunk of chunks) {
    reader.push(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
    yield* queue.splice(0);
    if (reader.stopped) return;
  }
  reader.end();
  yield* queue.splice(0);
}
