// `syncfile job check FILE`: a job file checked alone, before anything runs — its YAML, every
// ${VAR} it names, the schema (an unknown key, a wrong type), the secrets' files, the schedule —
// each mistake at its line and column; when it is right, each job in one line. No secret is
// printed: the service's URL only, through the one redaction.

import { Command } from "commander";
import type { Job } from "../jobs/Job.js";
import type { RunRecord } from "../jobs/runHistory.js";
import { redactUrl } from "../text/redact.js";
import { writeOut } from "./_io.js";
import { EXIT } from "./exitCodes.js";
import { UsageError } from "./UsageError.js";

/** The `job` command and its `check`; the exit code goes to `result.code`. */
export function jobCommand(result: { code: number }): Command {
  const check = new Command("check")
    .description("check a job file: its YAML, its ${VAR}s, its fields, its secrets' files, its schedule")
    .argument("<file>", "a job file (YAML; its schema is schemas/job.schema.json)")
    .addHelpText(
      "after",
      `
Each mistake is said at its line and column: a YAML error, an environment variable that is
not set, a field the schema does not know or a value of the wrong type, a secret's file
(apiKey_file, webhook_file, smtp_file) that cannot be read, a cron expression or a time zone
that cannot be used. Nothing is read from a source and nothing is sent.

Exit codes: 0 the file can be run, 2 it has mistakes (or is not there).

Examples:
  $ syncfile job check people.job.yaml
  $ SYNCFILE_API_KEY=… syncfile job check /etc/syncfile/jobs.yaml`,
    )
    .action(async (file: string) => {
      result.code = await runCheck(file);
    });
  return new Command("job")
    .description("job files: the jobs syncfile run runs")
    .addCommand(check.exitOverride());
}

interface RunFlags {
  job?: string;
  dryRun?: boolean;
  lockWait: number;
}

/** The `run` command: one run of each job of a job file, then exit; the exit code goes to `result.code`. */
export function runCommand(result: { code: number }): Command {
  return new Command("run")
    .description(
      "run each job of a job file once: read its source, check it, compare it, guard it, push it, record it",
    )
    .argument("<file>", "a job file (YAML; syncfile job check FILE checks it alone)")
    .option("--job <name>", "run this job only")
    .option("--dry-run", "everything but the push (as a job's mode: staging)")
    .option("--lock-wait <seconds>", "how long to wait for another run of a job to end", seconds, 60)
    .addHelpText(
      "after",
      `
Each job takes its lock (one run of a job at a time), copies its source into its state folder,
and stops there when the bytes are those it last pushed; else it checks them through its
profile or mapping, compares them with the file it last pushed, applies its guard, and pushes.
Every run is one line of the job's runs.jsonl, written before anything is printed.

Exit codes: 0 every job synced or unchanged, 1 a job's data invalid, 2 usage (the job file's
mistakes), 3 a job's source failed, 5 a job refused by its guard, 7 another run of a job still
running, 8 the service not reached or failing.

Examples:
  $ syncfile run people.job.yaml
  $ syncfile run /etc/syncfile/jobs.yaml --job people --dry-run`,
    )
    .action(async (file: string, flags: RunFlags) => {
      result.code = await runJobs(file, flags);
    });
}

async function runJobs(file: string, flags: RunFlags): Promise<number> {
  const { JobFileError, readJobFile } = await import("../jobs/readJobFile.js");
  const { JobBusyError, runJob } = await import("../jobs/runJob.js");
  let jobs: Job[];
  try {
    jobs = readJobFile(file);
  } catch (error) {
    if (!(error instanceof JobFileError)) throw error;
    process.stderr.write(`syncfile: the job file ${file} cannot be used:\n${error.message}\n`);
    return EXIT.usage;
  }
  const chosen = flags.job === undefined ? jobs : jobs.filter((j) => j.name === flags.job);
  if (chosen.length === 0) {
    throw new UsageError(
      `${file} has no job ${JSON.stringify(flags.job)}: its jobs are ${jobs.map((j) => j.name).join(", ")}`,
    );
  }
  let code: number = EXIT.ok;
  for (const job of chosen) {
    try {
      const record = await runJob(job, {
        lockWaitMs: flags.lockWait * 1000,
        ...(flags.dryRun ? { dryRun: true } : {}),
      });
      const said = record.message ? ` — ${record.message}` : "";
      writeOut(
        process.stdout,
        `${job.name}: ${record.outcome}${said}${counted(record)} (run ${record.id})\n`,
      );
      const failing = record.outcome === "failed" && record.step === "push" ? "unavailable" : record.outcome;
      code = Math.max(code, EXIT_OF[failing]);
    } catch (error) {
      if (!(error instanceof JobBusyError)) throw error;
      process.stderr.write(`syncfile: ${job.name}: ${error.message}\n`);
      code = Math.max(code, EXIT.stillRunning);
    }
  }
  return code;
}

/** A number of seconds ≥ 0, as a flag gives it. */
function seconds(text: string): number {
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !Number.isFinite(n)) {
    throw new UsageError(`--lock-wait must be a number of seconds ≥ 0, got ${JSON.stringify(text)}`);
  }
  return n;
}

/** A run's exit code by its outcome (a push that failed: the service's). */
const EXIT_OF: Readonly<Record<RunRecord["outcome"] | "unavailable", number>> = {
  synced: EXIT.ok,
  unchanged: EXIT.ok,
  recovered: EXIT.ok,
  invalid: EXIT.invalid,
  failed: EXIT.unreadable,
  refused: EXIT.guard,
  unavailable: EXIT.unavailable,
};

/** What a run changed, counted: "; 3 added, 1 removed; file 12, sync 7". */
function counted(record: RunRecord): string {
  const changes = Object.entries(record.changes ?? {})
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`);
  const ids =
    record.fileId !== undefined
      ? [`${record.users} users`, `file ${record.fileId}`, `sync ${record.syncId}`]
      : [];
  const listed = record.takenAway ?? [];
  const more = (record.deletes ?? listed.length) - listed.length;
  const taken =
    listed.length > 0 ? [`would take away ${listed.join(", ")}${more > 0 ? ` and ${more} more` : ""}`] : [];
  const parts = [changes.join(", "), ids.join(", "), ...taken].filter((p) => p !== "");
  return parts.length > 0 ? `; ${parts.join("; ")}` : "";
}

async function runCheck(file: string): Promise<number> {
  const { JobFileError, readJobFile } = await import("../jobs/readJobFile.js");
  let jobs: Job[];
  try {
    jobs = readJobFile(file);
  } catch (error) {
    if (!(error instanceof JobFileError)) throw error;
    process.stderr.write(`syncfile: the job file ${file} cannot be used:\n${error.message}\n`);
    return EXIT.usage;
  }
  writeOut(
    process.stdout,
    `${file}: ${jobs.length} ${jobs.length === 1 ? "job" : "jobs"}\n${jobs.map(describe).join("")}`,
  );
  return EXIT.ok;
}

/** A job in a line or two: what it reads, how, where it pushes, when. */
function describe(job: Job): string {
  const source =
    job.source.kind === "file"
      ? `file ${job.source.path}`
      : job.source.kind === "command"
        ? `command ${job.source.command.join(" ")}`
        : `http ${redactUrl(job.source.url)}`;
  const read = job.read.mapping
    ? `mapping ${job.read.mapping.path}`
    : job.read.profile
      ? `profile ${job.read.profile}`
      : "as its header says";
  const schedule = job.schedule
    ? `${job.schedule.cron}${job.schedule.timezone ? ` (${job.schedule.timezone})` : ""}`
    : "when run";
  const notify = job.notify.map((n) => (n.kind === "webhook" ? "a webhook" : `e-mail to ${n.to.join(", ")}`));
  return (
    `  ${job.name}: ${source}, read ${read}; ${job.mode === "staging" ? "staging (never pushed)" : "pushed"} to app account ${job.service.appAccount} of ${redactUrl(job.service.url)}\n` +
    `    schedule ${schedule}; state ${job.state}${notify.length > 0 ? `; notifies ${notify.join(", ")}` : ""}\n`
  );
}
