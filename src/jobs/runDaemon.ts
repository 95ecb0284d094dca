// `syncfile run --daemon`: each job run on its own schedule (croner, in the job's time zone), in
// one long-lived process. One run of a job at a time: a tick that finds the job's last run still
// under way is skipped and logged, and one that finds its lock held by another process (a run by
// hand, another machine sharing the state folder) is skipped too, never waited for. A run's
// failure of any kind is logged and the next tick comes; stop() lets no new run start and
// resolves once the runs under way have ended.

import { Cron } from "croner";
import { runLine } from "./describeRun.js";
import type { Job } from "./Job.js";
import type { RunRecord } from "./runHistory.js";
import { JobBusyError, type RunJobOptions, runJob } from "./runJob.js";

/** Where the daemon says what it does: pino's signature (an object of fields, then the words). */
export interface DaemonLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** A daemon under way. */
export interface Daemon {
  /** When each job runs next (null: never again). */
  next(): { job: string; at: Date | null }[];
  /** Lets no new run start; resolves when the runs under way have ended. */
  stop(): Promise<void>;
}

/** How the daemon's runs are made (as runJob's, without the lock's wait: a held lock skips). */
export type DaemonOptions = Omit<RunJobOptions, "lockWaitMs"> & {
  log: DaemonLog;
  /** Told each run's record, once it is logged (tests, a caller's own counting). */
  onRun?: (record: RunRecord) => void;
};

/** The outcomes logged as warnings: someone should look. */
const WORRYING: readonly RunRecord["outcome"][] = ["refused", "failed", "invalid"];

/** Starts running each of `jobs` on its schedule; every job must have one. */
export function startDaemon(jobs: readonly Job[], options: DaemonOptions): Daemon {
  const { log, onRun, ...runOptions } = options;
  const underway = new Map<string, Promise<void>>();
  const crons = jobs.map((job) => {
    if (!job.schedule) throw new TypeError(`startDaemon: the job ${job.name} has no schedule`);
    const tick = () => {
      const running = underway.get(job.name);
      if (running) {
        log.warn({ job: job.name }, `${job.name}: tick skipped: the job's last run is still under way`);
        return;
      }
      const run = runOnce(job).finally(() => underway.delete(job.name));
      underway.set(job.name, run);
    };
    return new Cron(
      job.schedule.cron,
      { name: job.name, ...(job.schedule.timezone ? { timezone: job.schedule.timezone } : {}) },
      tick,
    );
  });

  async function runOnce(job: Job): Promise<void> {
    log.info({ job: job.name }, `${job.name}: run started`);
    try {
      const record = await runJob(job, {
        ...runOptions,
        lockWaitMs: 0,
        delivery: {
          ...runOptions.delivery,
          onFailure: (message) => log.warn({ job: job.name }, `${job.name}: ${message}`),
        },
      });
      const level = WORRYING.includes(record.outcome) ? "warn" : "info";
      log[level]({ job: job.name, run: record }, runLine(record));
      onRun?.(record);
    } catch (error) {
      if (error instanceof JobBusyError) {
        log.warn({ job: job.name }, `${job.name}: run skipped: ${error.message}`);
        return;
      }
      // a fault of this machine (its disk, its state folder): said, and the next tick comes
      const message = (error as Error).message ?? String(error);
      log.error({ job: job.name }, `${job.name}: the run broke off: ${message}`);
    }
  }

  return {
    next: () => crons.map((cron, i) => ({ job: jobs[i]?.name ?? "", at: cron.nextRun() })),
    async stop() {
      for (const cron of crons) cron.stop();
      await Promise.all(underway.values());
    },
  };
}
