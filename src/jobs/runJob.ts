// One run of a job: its lock taken; its source's bytes copied into the run's folder; nothing
// more when they are the bytes last pushed; else the existing push — the mapped check, the
// comparison with the last file this job pushed, the guard, the three steps and the sync, the
// copy kept for the next run — and the run recorded, before anything reports it (STYLE 24).
// No path of its own validates, compares or uploads anything.

import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { ApiError } from "@syncfile/client/internal/client/ApiError.js";
import { ConnectionError } from "@syncfile/client/internal/client/ConnectionError.js";
import { type Client, createClient } from "@syncfile/client/internal/client/createClient.js";
import {
  type Previous,
  previousState,
  rememberSynced,
} from "@syncfile/client/internal/client/previousState.js";
import { type PushResult, pushFile } from "@syncfile/client/internal/client/pushFile.js";
import { describeIoError } from "syncfile/internal/bytes/ioError.js";
import { prepareStateFolder, readStateFile, writeStateFile } from "syncfile/internal/bytes/stateFile.js";
import { redactText } from "syncfile/internal/text/redact.js";
import { fetchSource, SourceError } from "../sources/fetchSource.js";
import type { Job, Outcome } from "./Job.js";
import { JobLock } from "./JobLock.js";
import { type DeliveryOptions, notifyRun, worthTelling } from "./notify.js";
import { RunChanges } from "./runChanges.js";
import { appendRun, type RunRecord, readRuns } from "./runHistory.js";
import { sourceReading } from "./sourceReading.js";

/** How a run is made. */
export interface RunJobOptions {
  /** Everything but the push (as the job's staging mode). */
  dryRun?: boolean;
  /** How long to wait for another run of the job to end before giving up. Default 60 s. */
  lockWaitMs?: number;
  /** Told when the run starts waiting for another run of the job to end (who holds it). */
  onLockWait?: (holder: string) => void;
  /** Aborts the run's requests to the service. */
  signal?: AbortSignal;
  /** The client to push with (tests); default one made of the job's service. */
  client?: Client;
  /** The time, for the record and a file's settle time. */
  now?: () => number;
  /** How notifications are delivered (their tries, where a failure is said). */
  delivery?: DeliveryOptions;
}

/** What a run ended as, beyond its record: another run held the job. */
export class JobBusyError extends Error {
  override readonly name = "JobBusyError";
}

/** The file this job last pushed, kept in its state folder (with .json or .csv after it). */
const LAST = "last-pushed";

/** One run of `job`: its record, appended to the job's history before it is returned. */
export async function runJob(job: Job, options: RunJobOptions = {}): Promise<RunRecord> {
  const now = options.now ?? Date.now;
  await prepareStateFolder(job.state);
  const lock = await JobLock.take(join(job.state, "lock"), options.lockWaitMs ?? 60_000, options.onLockWait);
  if (lock === null) {
    throw new JobBusyError(
      `another run of the job ${job.name} is still running (its lock: ${join(job.state, "lock")})`,
    );
  }
  const started = now();
  const id = `${new Date(started)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")}-${randomBytes(3).toString("hex")}`;
  const folder = join(job.state, "work", id);
  try {
    await mkdir(folder, { recursive: true });
    const history = await readRuns(job.state);
    const previous = history.at(-1) ?? null;
    const pushed = history.findLast((r) => r.outcome === "synced" || r.outcome === "recovered") ?? null;
    // whatever breaks a run off is its outcome, recorded and told like any other
    const ended = await attempt(job, id, folder, options, now, pushed).catch(
      (error: unknown): Ended => ({
        outcome: "failed",
        step: "internal",
        message: redactText(`the run broke off: ${(error as Error).message ?? String(error)}`),
      }),
    );
    const record: RunRecord = {
      id,
      job: job.name,
      start: new Date(started).toISOString(),
      end: new Date(now()).toISOString(),
      mode: options.dryRun ? "dry-run" : job.mode,
      ...ended,
      outcome: recovered(ended, previous),
    };
    const told = job.notify.some((n) => n.on.includes(record.outcome)) && worthTelling(record, history);
    if (told) record.notified = true;
    await appendRun(job.state, record, job.keepDays, now());
    // told from the record, once it is written: a notification never changes the run
    if (told) await notifyRun(record, job.notify, options.delivery ?? {});
    return record;
  } finally {
    await rm(folder, { recursive: true, force: true });
    await lock.release();
  }
}

type Ended = Omit<RunRecord, "id" | "job" | "start" | "end" | "mode">;

/** The run's steps, and how they ended. */
async function attempt(
  job: Job,
  id: string,
  folder: string,
  options: RunJobOptions,
  now: () => number,
  pushed: RunRecord | null,
): Promise<Ended> {
  let fetched: Awaited<ReturnType<typeof fetchSource>>;
  try {
    fetched = await fetchSource(job.source, folder, { now });
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    return { outcome: "failed", step: "source", message: error.message };
  }
  if (fetched.kind === "waiting") return { outcome: "unchanged", step: "source", message: fetched.reason };
  const source = fetched.file;
  const said = {
    source: { from: source.from, name: source.name, bytes: source.bytes, sha256: source.sha256 },
  };
  if (source.bytes === 0) {
    return job.guard.allowEmpty
      ? { ...said, outcome: "unchanged", step: "source", message: EMPTY_ALLOWED }
      : {
          ...said,
          outcome: "failed",
          step: "source",
          message:
            "the source gave no bytes: nothing is pushed (a job whose export may be empty says guard.allowEmpty: true)",
        };
  }
  const client = options.client ?? createClient({ baseUrl: job.service.url, apiKey: job.service.apiKey });
  const last = join(job.state, LAST);
  // what the account holds: the file this job last pushed, unless the service says another file
  // made its state since (a push by hand) or this folder lost it (a CI cache gone): then the
  // service's record of the account, downloaded; and the service's own guard
  let previous: Previous;
  try {
    previous = await previousState(
      client,
      job.service.appAccount,
      last,
      folder,
      options.signal ?? new AbortController().signal,
    );
  } catch (error) {
    if (error instanceof ApiError || error instanceof ConnectionError) {
      return { ...said, outcome: "failed", step: "push", message: redactText(error.message) };
    }
    throw error;
  }
  const notes = previous.warnings.map((w) => w.replace(/^syncfile: warning: /, "").trim());
  const ours = previous.state !== null && typeof previous.state === "object" && "kept" in previous.state;
  if (ours && pushed?.source?.sha256 === source.sha256) {
    return { ...said, outcome: "unchanged", step: "compare", message: SAME_AS_PUSHED };
  }
  const staging = options.dryRun === true || job.mode === "staging";
  // an admin let this very data through once (syncfile approve): the guard does not stop it
  const approval = await readApproval(job.state);
  const approved = approval !== null && approval.sha256 === source.sha256;
  const reading = await sourceReading(job, source);
  if (!reading.ok) return { ...said, outcome: "invalid", step: "check", message: reading.message };
  const changes = new RunChanges(folder);
  let result: PushResult;
  try {
    result = await pushFile(client, source.path, {
      appAccount: job.service.appAccount,
      format: reading.format,
      validation: reading.validation,
      ...(options.signal ? { signal: options.signal } : {}),
      against: previous.state,
      serviceMaxDeletes: previous.serviceMaxDeletes,
      ...(job.guard.maxDeletes !== null ? { maxDeletes: job.guard.maxDeletes } : {}),
      dryRun: staging,
      saveAs: last,
      ...(approved ? { allowDeletes: true } : {}),
      onChange: changes.add,
    });
  } catch (error) {
    if (error instanceof ApiError || error instanceof ConnectionError) {
      return { ...said, outcome: "failed", step: "push", message: redactText(error.message) };
    }
    throw error;
  } finally {
    changes.close();
  }
  const ended: Ended = {
    ...said,
    ...outcomeOf(result, staging, job.guard.allowEmpty),
    ...(approved ? { approved: approval.run } : {}),
  };
  const counts = result.changes?.compared ? result.changes.counts : null;
  if (counts) {
    const title = `${job.name}, run ${id}: ${source.name} against ${previous.label}`;
    try {
      ended.files = await changes.keep(job.state, id, title, counts);
    } catch (error) {
      notes.push(`the run's changes could not be kept (${describeIoError(error)})`);
    }
  }
  if (result.synced && !result.notSaved) {
    // which file made the account's state, for the next run to tell whether it still does
    await rememberSynced(last, result.file.id).catch((error: unknown) => {
      notes.push(`which file was synced could not be kept (${describeIoError(error)})`);
    });
  }
  if (notes.length > 0) ended.message = [ended.message, ...notes].filter((m) => m !== "").join("; ");
  if (approved && result.synced) await rm(join(job.state, APPROVAL), { force: true }); // once
  return ended;
}

/** What a push's result makes of the run. */
function outcomeOf(result: PushResult, staging: boolean, allowEmpty: boolean): Omit<Ended, "source"> {
  const counts = result.changes?.counts ?? null;
  const changes = counts ? { changes: counts, deletes: result.changes?.deletes ?? 0 } : {};
  if (!result.synced) {
    if (result.stopped === "guard") {
      const c = result.changes;
      return {
        outcome: "refused",
        step: "guard",
        ...changes,
        takenAway: c?.firstDeletes ?? [],
        message: c?.lost
          ? `the last pushed file cannot be read (${c.lost.reason}): what this run takes away is unknown`
          : `this run takes away ${c?.deletes} users, more than the guard's ${c?.maxDeletes}`,
      };
    }
    // an export cut off before its first row: the service takes no file without users, and a
    // job that may see one (guard.allowEmpty) lets it pass as nothing to do
    if (result.report.stats.users === 0) {
      return allowEmpty
        ? { outcome: "unchanged", step: "check", users: 0, message: EMPTY_ALLOWED }
        : {
            outcome: "refused",
            step: "guard",
            users: 0,
            message:
              "the data holds no users: nothing is pushed (a job whose export may be empty says guard.allowEmpty: true)",
          };
    }
    if (result.stopped === "dry-run") {
      return {
        outcome: "unchanged",
        step: "compare",
        ...changes,
        message: staging ? "staging: compared, not pushed" : "",
      };
    }
    return {
      outcome: "invalid",
      step: "check",
      errors: result.report.counts.error,
      message: `the data is invalid: ${result.report.counts.error} ${result.report.counts.error === 1 ? "error" : "errors"} (syncfile validate says where)`,
    };
  }
  return {
    outcome: "synced",
    step: "push",
    ...changes,
    fileId: result.file.id,
    syncId: result.summary.idSync,
    users: result.summary.users,
    message: result.notSaved
      ? `synced, but the copy for the next run could not be kept: ${result.notSaved.message}`
      : "",
  };
}

/**
 * A run that goes through after runs that did not is a recovery: one that synced, or whose data
 * is again what the account holds (the export the guard refused came back whole).
 */
function recovered(ended: Ended, previous: RunRecord | null): Outcome {
  const failing: readonly Outcome[] = ["refused", "failed", "invalid"];
  const through = ended.outcome === "synced" || ended.message === SAME_AS_PUSHED;
  return through && previous !== null && failing.includes(previous.outcome) ? "recovered" : ended.outcome;
}

/** What a run of an empty export says, when its job allows one. */
const EMPTY_ALLOWED =
  "the export holds no users, as the job allows (guard.allowEmpty): nothing is pushed, the account is left as it is";

/** What a run whose source is the file last pushed says. */
const SAME_AS_PUSHED = "the source is what this job last pushed: nothing was uploaded";

/** What `syncfile approve` lets through once: the data of a refused run, by its hash. */
export interface Approval {
  sha256: string;
  /** The refused run it was given for. */
  run: string;
  at: string;
}

/** The approval in a job's state folder. */
export const APPROVAL = "approval.json";

/** The approval waiting in `state`, or null. */
export async function readApproval(state: string): Promise<Approval | null> {
  const text = await readStateFile(join(state, APPROVAL));
  if (text === null) return null;
  try {
    const approval = JSON.parse(text) as Approval;
    return typeof approval.sha256 === "string" ? approval : null;
  } catch {
    return null;
  }
}

/**
 * Lets the data of the job's last run, refused by its guard, through once, on the next run;
 * throws when the last run was not a refusal.
 */
export async function approve(job: Job, now: number = Date.now()): Promise<Approval> {
  const last = (await readRuns(job.state)).at(-1);
  if (last?.outcome !== "refused" || last.source === undefined) {
    throw new NothingToApproveError(
      last === undefined
        ? `the job ${job.name} has not run yet: nothing to approve`
        : `the last run of the job ${job.name} (${last.id}) was ${last.outcome}, not refused: nothing to approve`,
    );
  }
  if (last.users === 0) {
    throw new NothingToApproveError(
      `the last run of the job ${job.name} (${last.id}) read no users: such an export is never pushed (the service takes none); a job whose export may be empty says guard.allowEmpty: true`,
    );
  }
  const approval: Approval = { sha256: last.source.sha256, run: last.id, at: new Date(now).toISOString() };
  await writeStateFile(join(job.state, APPROVAL), `${JSON.stringify(approval)}\n`);
  return approval;
}

/** No refused run to approve. */
export class NothingToApproveError extends Error {
  override readonly name = "NothingToApproveError";
}
