// `syncfile push` as a library call: the local check first (an invalid file is never sent),
// then the upload procedure and the sync, which waits while another sync runs.

import { extname } from "node:path";
import type { SyncSummary } from "../http/operations.js";
import type { Report } from "../report/Report.js";
import type { ValidateOptions } from "../validate/options.js";
import { validateFile } from "../validate/validate.js";
import type { Client, SyncOptions, UploadedFile } from "./createClient.js";

/** What `pushFile` needs beyond the client and the file. */
export interface PushOptions extends Omit<SyncOptions, "format"> {
  /** The app account to sync into. */
  appAccount: number;
  /** json or csv; default by extension (.csv is CSV). */
  format?: "json" | "csv";
  /** How the local check runs (maxErrors, strict, onProgress…). */
  validation?: Omit<ValidateOptions, "format">;
  /** Bytes sent to storage so far. */
  onUploadProgress?: (sent: number, total: number) => void;
  /** Told when each step starts. */
  onStep?: (step: "validate" | "upload" | "sync") => void;
}

/** The outcome: refused locally with the report, or synced with the file and the summary. */
export type PushResult =
  | { synced: false; report: Report }
  | { synced: true; report: Report; file: UploadedFile; summary: SyncSummary };

/** Checks `path`, and only when it is valid uploads it and syncs it into `options.appAccount`. */
export async function pushFile(client: Client, path: string, options: PushOptions): Promise<PushResult> {
  const format = options.format ?? (extname(path).toLowerCase() === ".csv" ? "csv" : "json");
  const signal = options.signal ? { signal: options.signal } : {};
  options.onStep?.("validate");
  const report = await validateFile(path, { ...(options.validation ?? {}), format });
  if (!report.valid) return { synced: false, report };
  options.onStep?.("upload");
  const file = await client.uploadFile(path, {
    ...signal,
    type: "customIntegrationData",
    contentType: format === "csv" ? "text/csv" : "application/json",
    ...(options.onUploadProgress ? { onProgress: options.onUploadProgress } : {}),
  });
  options.onStep?.("sync");
  const { waitMs, pollMs, onWaiting } = options;
  const summary = await client.sync(file.id, options.appAccount, {
    ...signal,
    format,
    ...(waitMs !== undefined ? { waitMs } : {}),
    ...(pollMs !== undefined ? { pollMs } : {}),
    ...(onWaiting ? { onWaiting } : {}),
  });
  return { synced: true, report, file, summary };
}
