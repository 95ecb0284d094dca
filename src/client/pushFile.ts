// `syncfile push` as a library call: the local check first (an invalid file is never sent),
// then the upload procedure and the sync, which waits while another sync runs. A workbook is
// checked and converted to JSON in one pass (into a private temporary file), and the JSON is
// what goes up.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { convertFile } from "../convert/convert.js";
import type { SyncSummary } from "../http/operations.js";
import { formatOf, type InputFormat, type ValidateOptions } from "../pass/options.js";
import type { Report } from "../report/Report.js";
import { validateFile } from "../validate/validate.js";
import type { Client, SyncOptions, UploadedFile } from "./createClient.js";

/** What `pushFile` needs beyond the client and the file. */
export interface PushOptions extends Omit<SyncOptions, "format"> {
  /** The app account to sync into. */
  appAccount: number;
  /** json, csv or xlsx (sent as JSON); default by extension (.csv, .xlsx). */
  format?: InputFormat;
  /** How the local check runs (maxErrors, strict, onProgress, a workbook's sheet…). */
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

/**
 * Checks `path`, and only when it is valid uploads it and syncs it into `options.appAccount`. A
 * workbook, and an export read through a mapping (a built-in profile or one of yours), go up as
 * the JSON they convert to: the service reads its own layout only.
 */
export async function pushFile(client: Client, path: string, options: PushOptions): Promise<PushResult> {
  const format = options.format ?? formatOf(path);
  const validation = options.validation ?? {};
  options.onStep?.("validate");
  const mapped = validation.mapping !== undefined || (validation.profile ?? "none") !== "none";
  if (format === "json" || (format === "csv" && !mapped)) {
    const report = await validateFile(path, { ...validation, format });
    if (!report.valid) return { synced: false, report };
    if (report.mapping === undefined) return upload(client, path, format, report, options);
    // the header was a built-in profile's: converted below
  }
  const dir = await mkdtemp(join(tmpdir(), "syncfile-push-"));
  try {
    // the JSON is uploaded under the file's name, .json instead of .xlsx or .csv
    const json = join(dir, `${basename(path).replace(/\.(xls[xm]|csv)$/i, "")}.json`);
    const report = await convertFile(path, json, { ...validation, format, to: "json" });
    delete report.output;
    return report.valid ? await upload(client, json, "json", report, options) : { synced: false, report };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Uploads the checked file at `path` and syncs it. */
async function upload(
  client: Client,
  path: string,
  format: "json" | "csv",
  report: Report,
  options: PushOptions,
): Promise<PushResult> {
  const signal = options.signal ? { signal: options.signal } : {};
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
