// @syncfile/jobs: job files and their runs as calls — what `syncfile job check`, `run`, `runs`
// and `approve` are thin over. Re-exports only.

export { headline, runLine, runSummary } from "./describeRun.js";
export type { Job, JobNotification, JobSource, Outcome } from "./Job.js";
export { JobFileError, type ReadJobOptions, readJobFile, readJobText } from "./readJobFile.js";
export { type Daemon, type DaemonLog, type DaemonOptions, startDaemon } from "./runDaemon.js";
export { RUNS_FILE, type RunRecord, readRuns } from "./runHistory.js";
export {
  type Approval,
  approve,
  JobBusyError,
  NothingToApproveError,
  type RunJobOptions,
  readApproval,
  runJob,
} from "./runJob.js";
