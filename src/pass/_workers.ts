// Whether a pass can run on worker threads here, for each input format: a second CPU, and the
// format's worker script built into the folder of scripts.

import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import type { InputFormat } from "./formatOf.js";

/** The worker script of each format's parallel pass, in the folder of built scripts. */
export const WORKER_SCRIPTS = {
  json: "json-worker.js",
  csv: "csv-worker.js",
  xlsx: "xlsx-worker.js",
} as const satisfies Record<InputFormat, string>;

/** The worker thread of a diff, which reads OLD while NEW is read (src/diff/_sideWorker.ts). */
export const DIFF_WORKER_SCRIPT = "diff-worker.js";

/**
 * The folder of the built scripts for a module at `url`: a chunk or an entry sits in dist/, an
 * internal entry (what another package imports by name) in dist/internal/, and its folders.
 */
function builtScripts(url: string): URL {
  const internal = url.lastIndexOf("/internal/");
  return new URL(internal < 0 ? "." : url.slice(0, internal + 1), url);
}

/** The folder of the built worker scripts (dist/), wherever the build put this module. */
export const WORKERS = builtScripts(import.meta.url);

/** Below this size a second thread costs more than it saves. */
export const PARALLEL_FROM = 8 * 1024 * 1024;

/** The JSON decoding thread's young generation (MB): it makes a chunk's text and sends it. */
export const DECODER_YOUNG_GENERATION_MB = 4;

/** Whether a pass over `format` can run on a worker thread started from `workers`. */
export function workerAvailable(format: InputFormat, workers: URL): boolean {
  return availableParallelism() > 1 && existsSync(fileURLToPath(new URL(WORKER_SCRIPTS[format], workers)));
}
