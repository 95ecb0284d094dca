// Validate a data file from a path, a Node stream or a web stream: thin adapters over
// runPass (one thread, or more for large files).

import type { ByteSource } from "../bytes/byteSource.js";
import { normalizeValidateOptions, type ValidateOptions } from "../pass/options.js";
import { fileSource, runPass, streamSource } from "../pass/runPass.js";
import type { Report } from "../report/Report.js";
import { Validation } from "./Validation.js";

export type { ByteSource } from "../bytes/byteSource.js";

const encoder = new TextEncoder();

/**
 * Validates everything `source` yields (a Node Readable, a web ReadableStream, any async
 * iterable of bytes or strings). Stops reading at the first fatal problem.
 */
export async function validateStream(source: ByteSource, options: ValidateOptions = {}): Promise<Report> {
  return (await runPass(streamSource(source), normalizeValidateOptions(options))).report;
}

/** Validates a web ReadableStream of bytes (fetch bodies, Blob streams). */
export function validateWebStream(
  stream: ReadableStream<Uint8Array>,
  options: ValidateOptions = {},
): Promise<Report> {
  return validateStream(stream as unknown as AsyncIterable<Uint8Array>, options);
}

/** Validates the file at `path`; the report names it unless `options.file` says otherwise. I/O errors reject. */
export async function validateFile(path: string, options: ValidateOptions = {}): Promise<Report> {
  const normalized = normalizeValidateOptions({ file: path, ...options });
  return (await runPass(await fileSource(path), normalized)).report;
}

/** Validates a whole document held in memory. */
export function validateText(text: string | Uint8Array, options: ValidateOptions = {}): Report {
  const validation = new Validation(options);
  validation.push(typeof text === "string" ? encoder.encode(text) : text);
  return validation.end();
}
