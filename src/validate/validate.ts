// Validate a data file from a path, a Node stream or a web stream: thin adapters over
// runPass (one thread, or more for large files).

import { stat } from "node:fs/promises";
import type { Report } from "../report/Report.js";
import { readChunks } from "./_readChunks.js";
import { runPass } from "./_runPass.js";
import { normalizeValidateOptions, type ValidateOptions } from "./options.js";
import { Validation } from "./Validation.js";

/** Bytes or text in pieces: a Node Readable, any async iterable, or an array of chunks. */
export type ByteSource = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

/** Chunk size for reading files: small enough that each decoded chunk dies young in V8's heap. */
export const READ_CHUNK = 64 * 1024;

/** Below this size a second thread costs more than it saves. */
const PARALLEL_FROM = 8 * 1024 * 1024;

const encoder = new TextEncoder();

/**
 * Validates everything `source` yields (a Node Readable, a web ReadableStream, any async
 * iterable of bytes or strings). Stops reading at the first fatal problem.
 */
export async function validateStream(source: ByteSource, options: ValidateOptions = {}): Promise<Report> {
  const normalized = normalizeValidateOptions(options);
  return runPass(asBytes(source), normalized, null, normalized.parallel === true);
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
  return runPass(
    readChunks(path, READ_CHUNK),
    normalized,
    null,
    await useParallel(path, normalized.parallel),
  );
}

/** Whether to use more threads for the file at `path`: as asked, or by its size ("auto"). */
export async function useParallel(path: string, parallel: boolean | "auto"): Promise<boolean> {
  return parallel === "auto" ? (await stat(path)).size >= PARALLEL_FROM : parallel;
}

/** Validates a whole document held in memory. */
export function validateText(text: string | Uint8Array, options: ValidateOptions = {}): Report {
  const validation = new Validation(options);
  validation.push(typeof text === "string" ? encoder.encode(text) : text);
  return validation.end();
}

/** Strings from `source` as UTF-8 bytes. */
export async function* asBytes(source: ByteSource): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) yield typeof chunk === "string" ? encoder.encode(chunk) : chunk;
}
