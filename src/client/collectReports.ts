// `syncfile reports` as a library call: downloads the report archive of every finished
// (completed or archived) execution not downloaded before, remembering what it did in a state
// file in the folder, and comes back for executions whose report is still being generated.

import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Execution } from "syncfile/internal/http/operations.js";
import { isRunningBucket } from "syncfile/internal/http/tolerant.js";
import { type ReportState, readReportState, writeReportState } from "./_reportState.js";
import { ApiError } from "./ApiError.js";
import type { CallOptions, Client } from "./createClient.js";

/** Where a folder remembers what was downloaded, and the error of a state file that cannot be used. */
export { STATE_FILE, StateFileError } from "./_reportState.js";

/** What `collectReports` needs. */
export interface CollectOptions extends CallOptions {
  /** The folder of the archives and of the state file; created when missing. */
  dir: string;
  /** Only executions completed after this time. */
  since?: Date | string;
  /** Executions asked for per bucket: the largest the service allows by default (1000). */
  limit?: number;
  /** Told after each archive is saved. */
  onReport?: (report: CollectedReport) => void;
  /** Bytes of the archive being downloaded. */
  onProgress?: (execution: Execution, received: number, total: number | null) => void;
}

/** One archive saved. */
export interface CollectedReport {
  execution: Execution;
  path: string;
  bytes: number;
}

/** What one pass did. */
export interface CollectResult {
  downloaded: CollectedReport[];
  /** Finished executions whose report is still being generated: the next pass asks again. */
  pending: Execution[];
  /** Reports downloaded into the folder by earlier passes. */
  known: number;
  /** Buckets that came back with `limit` executions: older ones may lie beyond them. */
  full: string[];
  /** Reports the service refused to give (a 4xx): asked for again on the next pass. */
  failed: { execution: Execution; error: ApiError }[];
}

/** The service may list an execution a little after it completed: each pass looks back this far. */
export const LOOK_BACK_MS = 60 * 60_000;

/** A report still missing this long after it was first looked for no longer holds the passes back. */
export const PENDING_LOOK_BACK_MS = 7 * 24 * 3_600_000;

/** One pass: lists the executions, downloads what is new, saves the state. */
export async function collectReports(client: Client, options: CollectOptions): Promise<CollectResult> {
  const limit = options.limit ?? 1000;
  await mkdir(options.dir, { recursive: true });
  const state: ReportState = (await readReportState(options.dir)) ?? {
    version: 1,
    cursor: null,
    downloaded: {},
    pending: {},
  };
  const list = await client.listExecutions({
    limit,
    ...after(state, options.since, client.clock.now()),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const result: CollectResult = {
    downloaded: [],
    pending: [],
    known: Object.keys(state.downloaded).length,
    full: [],
    failed: [],
  };
  let seen = state.cursor === null ? Number.NEGATIVE_INFINITY : Date.parse(state.cursor);
  for (const [bucket, executions] of Object.entries(list.buckets)) {
    if (isRunningBucket(bucket)) continue;
    if ((list.sizes[bucket] ?? executions.length) >= limit) result.full.push(bucket);
    for (const execution of executions) {
      if (!execution.completionTime) continue;
      seen = Math.max(seen, Date.parse(execution.completionTime));
      const before = state.downloaded[execution.id];
      if (before && (execution.reportFileId === null || before.reportFileId === execution.reportFileId))
        continue;
      if (execution.reportFileId === null) {
        wait(state, execution.id, execution.completionTime, client.clock.now());
        result.pending.push(execution);
        continue;
      }
      let saved: CollectedReport;
      try {
        saved = await download(client, execution, execution.reportFileId, options);
      } catch (error) {
        // this report refused (gone, forbidden): the others still come; it is asked for again
        if (!(error instanceof ApiError) || error.status >= 500 || error.status === 429) throw error;
        wait(state, execution.id, execution.completionTime, client.clock.now());
        result.failed.push({ execution, error });
        continue;
      }
      state.downloaded[execution.id] = {
        reportFileId: execution.reportFileId,
        file: saved.path,
        completionTime: execution.completionTime,
        downloadedAt: new Date(client.clock.now()).toISOString(),
      };
      delete state.pending[execution.id];
      await writeReportState(options.dir, state);
      result.downloaded.push(saved);
      options.onReport?.(saved);
    }
  }
  // a full bucket may hide older executions: keep looking from where we were
  if (result.full.length === 0 && Number.isFinite(seen)) state.cursor = new Date(seen).toISOString();
  await writeReportState(options.dir, state);
  return result;
}

/**
 * The completedAfter of a pass at `now`: the cursor (less the look-back), or before the oldest
 * report still awaited (for at most PENDING_LOOK_BACK_MS after it was first awaited).
 */
function after(
  state: ReportState,
  since: Date | string | undefined,
  now: number,
): { completedAfter?: string } {
  const times: number[] = [];
  const cursor = state.cursor === null ? null : Date.parse(state.cursor);
  if (cursor !== null) times.push(cursor - LOOK_BACK_MS);
  for (const { completionTime, since } of Object.values(state.pending)) {
    if (Date.parse(since) > now - PENDING_LOOK_BACK_MS) times.push(Date.parse(completionTime) - 1);
  }
  let from = times.length > 0 ? Math.min(...times) : Number.NEGATIVE_INFINITY;
  if (since !== undefined) from = Math.max(from, since instanceof Date ? since.getTime() : Date.parse(since));
  return Number.isFinite(from) ? { completedAfter: new Date(from).toISOString() } : {};
}

/** Remembers that an execution's report is still to come (first awaited at `now`). */
function wait(state: ReportState, id: number, completionTime: string, now: number): void {
  state.pending[id] ??= { completionTime, since: new Date(now).toISOString() };
}

async function download(
  client: Client,
  execution: Execution,
  reportFileId: number,
  options: CollectOptions,
): Promise<CollectedReport> {
  const path = join(options.dir, `${slug(execution.campaignName)}-execution-${execution.id}.zip`);
  const { onProgress, signal } = options;
  const { bytes } = await client.downloadFile(reportFileId, path, {
    ...(signal ? { signal } : {}),
    ...(onProgress ? { onProgress: (received, total) => onProgress(execution, received, total) } : {}),
  });
  return { execution, path, bytes };
}

function slug(name: string): string {
  const text = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return text || "campaign";
}
