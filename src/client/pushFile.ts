// `syncfile push` as a library call: the local check first (an invalid file is never sent),
// then the upload procedure and the sync, which waits while another sync runs. A workbook is
// checked and converted to JSON in one pass (into a private temporary file), and the JSON is
// what goes up.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { copyStateFile, prepareStateFolder } from "syncfile/internal/bytes/stateFile.js";
import { convertFile } from "syncfile/internal/convert/convert.js";
import { type Change, defaultMaxDeletes, takesAway } from "syncfile/internal/diff/Change.js";
import { diffFiles } from "syncfile/internal/diff/diffFiles.js";
import type { SyncSummary } from "syncfile/internal/http/operations.js";
import { formatOf, type InputFormat } from "syncfile/internal/pass/formatOf.js";
import type { ValidateOptions } from "syncfile/internal/pass/options.js";
import type { Report } from "syncfile/internal/report/Report.js";
import { validateFile } from "syncfile/internal/validate/validate.js";
import type { Client, SyncOptions, UploadedFile } from "./createClient.js";

export { defaultMaxDeletes };

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
  onStep?: (step: "validate" | "compare" | "upload" | "sync") => void;
  /**
   * The account's previous state to compare with before syncing (see {@link PreviousState}), or
   * a function that finds it once the file is known valid (a service's record, say). Undefined:
   * no comparison, and no guard.
   */
  against?: PreviousState | (() => Promise<PreviousState>);
  /**
   * The guard: refuse a push that would remove or deactivate more users than this. Default: 500,
   * or 10 % of the previous state's active users when that is fewer, and never fewer than 10;
   * 0 turns it off.
   */
  maxDeletes?: number;
  /**
   * The service's own guard (syncfile serve --max-deletes, said in the account's syncs list), or
   * a function that finds it once the file is known valid: the compared push is judged by the
   * stricter of it and `maxDeletes`, so that what the service would refuse is never uploaded.
   * Null: the service says none (0: off).
   */
  serviceMaxDeletes?: number | null | (() => Promise<number | null>);
  /** Go ahead whatever the guards say (the sync is sent with the service's header for it). */
  allowDeletes?: boolean;
  /** Stop after the comparison: nothing is uploaded or synced. */
  dryRun?: boolean;
  /** Told each change the comparison finds (with `against`), as `syncfile diff` lists them. */
  onChange?: (change: Change) => void;

  /**
   * Where to copy what went up once it is synced, the next push's `against`: this path with
   * `.json` or `.csv` after it, as the file that went up (the other one removed), through the
   * helper of state files (never through a link). Its folder is made, and proved writable,
   * before anything is uploaded ({@link StateFolderError}); a copy that fails after the sync is
   * `notSaved` in the result.
   */
  saveAs?: string;
}

/**
 * The account's previous state: a data file to compare with; null when there is none (a first
 * push); `{kept}`, the copy `saveAs` made, which is lost rather than wrong when it is no valid
 * data file; or `{lost, reason}`, a kept state that cannot be read. A lost state compares with
 * nothing, and the guard refuses the push unless `allowDeletes` (or `maxDeletes` 0).
 */
export type PreviousState = string | null | { kept: string } | { lost: string; reason: string };

/** What a push would change against the account's previous state. */
export interface PushChanges {
  /** False for a first push (no previous state): nothing was compared. */
  compared: boolean;
  counts: Record<Change["kind"], number> | null;
  /** Users a sync takes away (active before, removed or deactivated). */
  deletes: number;
  /** The guard's threshold (0: off): the stricter of this push's and the service's. */
  maxDeletes: number;
  /** Whose threshold `maxDeletes` is: this push's (--max-deletes), or the service's own guard. */
  guard: "push" | "service";
  /** The service's threshold, when it says one (0: off). */
  serviceMaxDeletes?: number;
  /** This push's threshold, when the service's is the stricter (0: off). */
  pushMaxDeletes?: number;
  /** The first users taken away. */
  firstDeletes: string[];
  /** The previous state that was kept but cannot be read (not compared), and why. */
  lost?: { path: string; reason: string };
}

/**
 * The outcome: refused locally with the report (invalid, or stopped by the guard or a dry run,
 * with the changes), or synced with the file, the summary and the changes.
 */
export type PushResult =
  | { synced: false; report: Report; changes?: PushChanges; stopped?: "guard" | "dry-run" }
  | {
      synced: true;
      report: Report;
      file: UploadedFile;
      summary: SyncSummary;
      changes?: PushChanges;
      /** The copy `saveAs` could not be saved after the sync (which succeeded): why. */
      notSaved?: NodeJS.ErrnoException;
    };

/** How many taken-away users a refusal lists. */
const LISTED_DELETES = 20;

/**
 * Checks `path`, and only when it is valid uploads it and syncs it into `options.appAccount`. A
 * workbook, and an export read through a mapping (a built-in profile or one of yours), go up as
 * the JSON they convert to: the service reads its own layout only. `client` may be null for a
 * dry run with a previous state to compare with (`against` a file): it needs no service.
 */
export async function pushFile(
  client: Client | null,
  path: string,
  options: PushOptions,
): Promise<PushResult> {
  const format = options.format ?? formatOf(path);
  const validation = options.validation ?? {};
  options.onStep?.("validate");
  const mapped = validation.mapping !== undefined || (validation.profile ?? "none") !== "none";
  if (format === "json" || (format === "csv" && !mapped)) {
    const report = await validateFile(path, { ...validation, format });
    if (!report.valid) return { synced: false, report };
    // the file goes up as it is, unless the service would not read it so: the header was a
    // built-in profile's, or its text is UTF-16 (the service reads UTF-8): converted below
    if (report.mapping === undefined && report.text?.encoding === undefined)
      return compareAndUpload(client, path, format, report, options);
  }
  const dir = await mkdtemp(join(tmpdir(), "syncfile-push-"));
  try {
    // the JSON is uploaded under the file's name, .json instead of .xlsx, .csv, .tsv or .txt
    const json = join(dir, `${basename(path).replace(/\.(xls[xm]|csv|tsv|txt)$/i, "")}.json`);
    const report = await convertFile(path, json, { ...validation, format, to: "json" });
    delete report.output;
    return report.valid
      ? await compareAndUpload(client, json, "json", report, options)
      : { synced: false, report };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Compares the checked file at `path` with the account's previous state when asked, stops
 * there for the guard or a dry run, else uploads it, syncs it and keeps a copy as the next
 * previous state.
 */
async function compareAndUpload(
  client: Client | null,
  path: string,
  format: "json" | "csv",
  report: Report,
  options: PushOptions,
): Promise<PushResult> {
  let changes: PushChanges | undefined;
  if (options.against !== undefined) {
    options.onStep?.("compare");
    const previous = typeof options.against === "function" ? await options.against() : options.against;
    const local = await compare(previous, path, options.maxDeletes, options.onChange);
    const service =
      typeof options.serviceMaxDeletes === "function"
        ? await options.serviceMaxDeletes()
        : options.serviceMaxDeletes;
    changes = stricter(local, service ?? null);
    // without the previous state, what the push takes away is unknown
    const over = changes.lost !== undefined || changes.deletes > changes.maxDeletes;
    if (changes.maxDeletes > 0 && over && !options.allowDeletes) {
      return { synced: false, report, changes, stopped: "guard" };
    }
  }
  if (options.dryRun) return { synced: false, report, ...(changes ? { changes } : {}), stopped: "dry-run" };
  if (!client) throw new TypeError("pushFile: no client to upload with (only a dry run needs none)");
  if (options.saveAs) {
    const dir = dirname(options.saveAs);
    await prepareStateFolder(dir).catch((error: NodeJS.ErrnoException) => {
      throw new StateFolderError(dir, error);
    });
  }
  const done = await upload(client, path, format, report, options);
  // kept as the next push's previous state, compared or not
  if (done.synced && options.saveAs) {
    try {
      await copyStateFile(path, `${options.saveAs}.${format}`);
      await rm(`${options.saveAs}.${format === "json" ? "csv" : "json"}`, { force: true });
    } catch (error) {
      // the sync happened: that is the outcome, with what could not be kept
      return { ...done, ...(changes ? { changes } : {}), notSaved: error as NodeJS.ErrnoException };
    }
  }
  return changes ? { ...done, changes } : done;
}

/**
 * `changes` judged by the stricter of this push's guard and the service's (`service`, 0: off).
 * A lost state keeps this push's: the service compares with its own state, which is not lost.
 */
function stricter(changes: PushChanges, service: number | null): PushChanges {
  if (service === null) return changes;
  const told = { ...changes, serviceMaxDeletes: service };
  if (changes.lost || service === 0) return told;
  if (changes.maxDeletes !== 0 && changes.maxDeletes <= service) return told;
  return { ...told, maxDeletes: service, guard: "service", pushMaxDeletes: changes.maxDeletes };
}

/** The folder of `saveAs` cannot be made or written: found before anything was uploaded. */
export class StateFolderError extends Error {
  override readonly name = "StateFolderError";
  constructor(
    /** The folder. */
    readonly dir: string,
    /** The error of the file system. */
    override readonly cause: NodeJS.ErrnoException,
  ) {
    super(`cannot keep the push state in ${dir}: ${cause.message}`);
  }
}

/** What a sync of `path` changes against `previous` (null: none, a first push). */
async function compare(
  previous: PreviousState,
  path: string,
  maxDeletes?: number,
  onChange?: (change: Change) => void,
): Promise<PushChanges> {
  if (previous === null) {
    return {
      compared: false,
      counts: null,
      deletes: 0,
      maxDeletes: maxDeletes ?? 0,
      guard: "push",
      firstDeletes: [],
    };
  }
  if (typeof previous === "object" && "lost" in previous) {
    return {
      compared: false,
      counts: null,
      deletes: 0,
      maxDeletes: maxDeletes ?? defaultMaxDeletes(Number.POSITIVE_INFINITY),
      guard: "push",
      firstDeletes: [],
      lost: { path: previous.lost, reason: previous.reason },
    };
  }
  const file = typeof previous === "string" ? previous : previous.kept;
  const firstDeletes: string[] = [];
  const found = await diffFiles(file, path, (change) => {
    if (takesAway(change) && firstDeletes.length < LISTED_DELETES) firstDeletes.push(change.email);
    onChange?.(change);
  });
  if (!found.old.valid && typeof previous === "object") {
    const errors = found.old.counts.error;
    const reason = `not a valid data file: ${errors} error${errors === 1 ? "" : "s"}`;
    return compare({ lost: file, reason }, path, maxDeletes);
  }
  if (!found.old.valid) {
    throw new PreviousStateError(
      `the previous state ${file} is not a valid data file (${found.old.counts.error} errors): fix it, name another with --against, or push with --no-compare`,
    );
  }
  return {
    compared: true,
    counts: found.counts,
    deletes: found.deletes,
    maxDeletes: maxDeletes ?? defaultMaxDeletes(found.oldActiveUsers),
    guard: "push",
    firstDeletes,
  };
}

/** The account's previous state cannot be compared with: it is not a valid data file. */
export class PreviousStateError extends Error {
  override readonly name = "PreviousStateError";
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
    ...(options.allowDeletes ? { allowDeletes: true } : {}),
  });
  return { synced: true, report, file, summary };
}
