// Validate a data file from a path, a Node stream or a web stream: thin adapters over Validation.

import type { Report } from "../report/Report.js";
import { readChunks } from "./_readChunks.js";
import type { ValidateOptions } from "./options.js";
import { Validation } from "./Validation.js";

/** Chunk size for reading files: small enough that each decoded chunk dies young in V8's heap. */
export const READ_CHUNK = Number(process.env.SYNCFILE_READ_CHUNK ?? 64 * 1024);

const encoder = new TextEncoder();

/**
 * Validates everything `source` yields (a Node Readable, a web ReadableStream, any async
 * iterable of bytes or strings). Stops reading at the first fatal problem.
 */
export async function validateStream(
  source: AsyncIterable<Uint8Array | string>,
  options: ValidateOptions = {},
): Promise<Report> {
  const validation = new Validation(options);
  try {
    for await (const chunk of source) {
      validation.push(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
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
export function validateFile(path: string, options: ValidateOptions = {}): Promise<Report> {
  return validateStream(readChunks(path, READ_CHUNK), { file: path, ...options });
}

/** Validates a whole document held in memory. */
export function validateText(text: string | Uint8Array, options: ValidateOptions = {}): Report {
  const validation = new Validation(options);
  validation.push(typeof text === "string" ? encoder.encode(text) : text);
  return validation.end();
}
