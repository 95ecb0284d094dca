// Access-review executions as the interface shows them: an execution's state follows the
// clock — in progress until its completion time, then completed, ended early or archived —
// and its report archive (reportArchive.ts) appears a few seconds after it finishes
// (reportFileId stays null until then), made by whichever server claims it first.

import type { Execution, ExecutionList } from "syncfile/internal/http/operations.js";
import { reportArchive } from "./reportArchive.js";
import type { AccessReviewsRepository, StoredExecution } from "./repositories/types.js";
import type { ObjectStore } from "./storage/types.js";

// a claim older than this is taken to be of a server that died while making the archive
const CLAIM_TIMEOUT_MS = 60_000;

/** What the report archives' generation tells the server's log and metrics. */
export interface ReportEvents {
  /** An archive was made for `execution`, of `bytes`. */
  made(execution: number, bytes: number): void;
  /** A run failed (it is tried again at the next). */
  failed(error: Error): void;
}

const STDERR_EVENTS: ReportEvents = {
  made: () => {},
  failed: (error) => process.stderr.write(`syncfile serve: report generation failed: ${error.message}\n`),
};

/** Access reviews over a repository and a blob store. */
export class AccessReviews {
  readonly #repository: AccessReviewsRepository;
  readonly #blobs: ObjectStore;
  readonly #reportDelayMs: number;
  readonly #clock: () => number;
  #generating: Promise<number> | null = null;

  constructor(
    repository: AccessReviewsRepository,
    blobs: ObjectStore,
    reportDelayMs: number,
    clock: () => number,
    readonly events: ReportEvents = STDERR_EVENTS,
  ) {
    this.#repository = repository;
    this.#blobs = blobs;
    this.#reportDelayMs = reportDelayMs;
    this.#clock = clock;
  }

  /** The executions in buckets, newest first, at most `limit` each; finished ones after `completedAfter` only. */
  async list(limit: number, completedAfter: Date | null): Promise<ExecutionList> {
    const now = new Date(this.#clock());
    const { completed, archived, running } = await this.#repository.executions(limit, completedAfter, now);
    const shown = (list: StoredExecution[]) => list.map((e) => execution(e, now));
    return {
      completedExecutions: shown(completed),
      archivedExecutions: shown(archived),
      inProgressExecutions: shown(running),
    };
  }

  /** Makes the report archives that are due now (one run at a time); resolves to how many. */
  generateDue(): Promise<number> {
    this.#generating ??= this.#generate().finally(() => {
      this.#generating = null;
    });
    return this.#generating;
  }

  /** Runs generateDue every `everyMs` until the returned function is called. */
  schedule(everyMs: number): () => void {
    const timer = setInterval(() => {
      this.generateDue().catch((error: Error) => this.events.failed(error));
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Resolves when no generation is under way. */
  async settled(): Promise<void> {
    await this.#generating?.catch(() => {});
  }

  async #generate(): Promise<number> {
    const now = this.#clock();
    const due = await this.#repository.claimReports(
      new Date(now),
      new Date(now - this.#reportDelayMs),
      new Date(now - CLAIM_TIMEOUT_MS),
    );
    for (const execution of due) {
      const zip = await reportArchive(execution);
      const path = `reports/execution-${execution.id}.zip`;
      await this.#blobs.write(path, zip, "application/zip");
      await this.#repository.attachReport(execution.id, path, zip.length);
      this.events.made(execution.id, zip.length);
    }
    return due.length;
  }
}

function execution(stored: StoredExecution, now: Date): Execution {
  const done = stored.completionTime !== null && stored.completionTime <= now;
  return {
    id: stored.id,
    campaignId: stored.campaignId,
    campaignName: stored.campaignName,
    state: done ? stored.finalState : "inProgress",
    startTime: stored.startTime.toISOString(),
    completionTime: done ? (stored.completionTime as Date).toISOString() : null,
    reportFileId: done ? stored.reportFileId : null,
  };
}
