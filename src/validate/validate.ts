// Validate a data file from a path, a Node stream or a web stream: thin adapters over
// Validation (one thread) and validateParallel (two).

import { stat } from "node:fs/promises";
import type { Report } from "../report/Report.js";
import { readChunks } from "./_readChunks.js";
import { normalizeValidateOptions, type ValidateOptions } from "./options.js";
import { Validation } from "./Validation.js";
import { parallelAvailable, validateParallel } from "./validateParallel.js";

/** Chunk size for reading files: small enough that each decoded chunk dies young in V8's heap. */
export const READ_CHUNK = 64 * 1024;

/** Below this size a second thread costs more than it saves. */
const PARALLEL_FROM = 8 * 1024 * 1024;

const encoder = new TextEncoder();

/**
 * Validates everything `source` yields (a Node Readable, a web ReadableStream, any async
 * iterable of bytes or strings). Stops reading at the first fatal problem.
 */
export async function validateStream(
  source: AsyncIterable<Uint8Array | string>,
  options: ValidateOptions = {},
): Promise<Report> {
  const normalized = normalizeValidateOptions(options);
  const bytes = asBytes(source);
  if (normalized.parallel === true && normalized.format === "json" && parallelAvailable()) {
    return validateParallel(bytes, normalized);
  }
  const validation = new Validation(options);
  try {
    for await (const chunk of bytes) {
      validation.push(chunk);
      if (validation.stopped) break;
    }
  } catch (error) {
    validation.dispose();
    throw error;
  }
  return validation.end();
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
  let parallel = normalized.parallel === true && normalized.format === "json";
  if (normalized.parallel === "auto" && normalized.format === "json")
    parallel = (await stat(path)).size >= PARALLEL_FROM;
  if (parallel && parallelAvailable()) return validateParallel(readChunks(path, READ_CHUNK), normalized);
  return validateStream(readChunks(path, READ_CHUNK), {
    file: path,
    format: normalized.format,
    ...options,
    parallel: false,
  });
}

/** Validates a whole document held in memory. */
export function validateText(text: string | Uint8Array, options: ValidateOptions = {}): Report {
  const validation = new Validation(options);
  validation.push(typeof text === "string" ? encoder.encode(text) : text);
  return validation.end();
}

async function* asBytes(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) yield typeof chunk === "string" ? encoder.encode(chunk) : chunk;
}
