// `syncfile job check FILE`: a job file checked alone, before anything runs — its YAML, every
// ${VAR} it names, the schema (an unknown key, a wrong type), the secrets' files, the schedule —
// each mistake at its line and column; when it is right, each job in one line. No secret is
// printed: the service's URL only, through the one redaction.

import { once } from "node:events";
import { createReadStream } from "node:fs";
import { join } from "node:path";
import { runLine, runSummary } from "@syncfile/jobs/internal/jobs/describeRun.js";
import type { Job } from "@syncfile/jobs/internal/jobs/Job.js";
import type { RunRecord } from "@syncfile/jobs/internal/jobs/runHistory.js";
import { describeSource } from "@syncfile/jobs/internal/sources/describeSource.js";
import { Command, Option } from "commander";
import { LOG_LEVELS, type LogLevel } from "syncfile/internal/report/logLevels.js";
import { redactUrl } from "syncfile/internal/text/redact.js";
import { describeIoError, writeOut } from "./_io.js";
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
  daemon?: boolean;
  logLevel?: LogLevel;
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
    .option("--daemon", "stay up and run each job on its schedule (cron, in its time zone) until SIGTERM")
    .addOption(
      new Option(
        "--log-level <level>",
        "with --daemon: how much the log (JSON lines on standard output) says",
      )
        .choices([...LOG_LEVELS])
        .env("SYNCFILE_LOG_LEVEL")
        .default("info"),
    )
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

With --daemon, the process stays up and runs each job on its schedule: a tick that finds the
job's last run still under way, or its lock held elsewhere, is skipped and logged. The log is
JSON, a line each (a run's line holds its record). SIGTERM or Ctrl-C lets the runs under way
end, then exits 0; a second one exits at once.

Examples:
  $ syncfile run people.job.yaml
  $ syncfile run /etc/syncfile/jobs.yaml --job people --dry-run
  $ syncfile run /etc/syncfile/jobs.yaml --daemon`,
    )
    .action(async (file: string, flags: RunFlags) => {
      result.code = await runJobs(file, flags);
    });
}

async function runJobs(file: string, flags: RunFlags): Promise<number> {
  const { JobBusyError, runJob } = await import("@syncfile/jobs/internal/jobs/runJob.js");
  const chosen = await chosenJobs(file, flags.job);
  if (chosen === null) return EXIT.usage;
  if (flags.daemon) return runDaemon(chosen, flags);
  let code: number = EXIT.ok;
  for (const job of chosen) {
    try {
      const record = await runJob(job, {
        lockWaitMs: flags.lockWait * 1000,
        onLockWait: (holder) =>
          process.stderr.write(
            `syncfile: ${job.name}: waiting up to ${flags.lockWait} s for another run of the job to end (${holder})\n`,
          ),
        ...(flags.dryRun ? { dryRun: true } : {}),
      });
      writeOut(process.stdout, `${runLine(record)}\n`);
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

/** Runs `jobs` on their schedules until a signal; resolves to the exit code. */
async function runDaemon(jobs: readonly Job[], flags: RunFlags): Promise<number> {
  const unscheduled = jobs.filter((j) => j.schedule === null).map((j) => j.name);
  if (unscheduled.length > 0) {
    throw new UsageError(
      `--daemon runs each job on its schedule, and ${unscheduled.join(", ")} ${unscheduled.length === 1 ? "has" : "have"} none: add schedule: {cron: "0 2 * * *"}, or choose the jobs that do with --job`,
    );
  }
  const [{ startDaemon }, { createDaemonLog }] = await Promise.all([
    import("@syncfile/jobs/internal/jobs/runDaemon.js"),
    import("@syncfile/jobs/internal/jobs/daemonLog.js"),
  ]);
  const log = createDaemonLog({
    level: flags.logLevel ?? "info",
    destination: process.stdout,
    pretty: process.stdout.isTTY === true,
  });
  const daemon = startDaemon(jobs, { log, ...(flags.dryRun ? { dryRun: true } : {}) });
  const next = daemon.next().map(({ job, at }) => ({ job, next: at?.toISOString() ?? null }));
  log.info({ jobs: next }, `daemon started: ${jobs.length} ${jobs.length === 1 ? "job" : "jobs"}`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once("SIGTERM", () => resolve("SIGTERM")).once("SIGINT", () => resolve("SIGINT"));
  });
  log.info({ signal }, "stopping: no run starts now; the runs under way are let end");
  // a second signal does not wait: a run's lock left behind is taken over by the next run
  const hurry = (again: NodeJS.Signals) => {
    log.warn({ signal: again }, "stopped at once: the runs under way are cut short");
    process.exit(again === "SIGINT" ? 130 : 143);
  };
  process.once("SIGTERM", hurry).once("SIGINT", hurry);
  await daemon.stop();
  log.info({}, "stopped");
  return EXIT.ok;
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

async function runCheck(file: string): Promise<number> {
  const jobs = await jobsOf(file);
  if (jobs === null) return EXIT.usage;
  writeOut(
    process.stdout,
    `${file}: ${jobs.length} ${jobs.length === 1 ? "job" : "jobs"}\n${jobs.map(describe).join("")}`,
  );
  return EXIT.ok;
}

/** A job in a line or two: what it reads, how, where it pushes, when. */
function describe(job: Job): string {
  const source = describeSource(job.source);
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

/** The `approve` command: a refused run's data let through once; the exit code goes to `result.code`. */
export function approveCommand(result: { code: number }): Command {
  return new Command("approve")
    .description("let the data of a job's refused run through once, on its next run (or now)")
    .argument("<file>", "the job file")
    .requiredOption("--job <name>", "the job whose last run was refused")
    .option("--now", "run the job at once")
    .addHelpText(
      "after",
      `
Approves exactly the data the last run read (by its SHA-256): a later export that differs is
judged by the guard again. The approval is used by the next run that reads that data, once.

Exit codes: 0 approved (with --now: the run's, as syncfile run's), 2 usage, or no refused run
to approve.

Examples:
  $ syncfile approve people.job.yaml --job people
  $ syncfile approve people.job.yaml --job people --now`,
    )
    .action(async (file: string, flags: { job: string; now?: boolean }) => {
      const jobs = await jobsOf(file);
      if (jobs === null) {
        result.code = EXIT.usage;
        return;
      }
      const job = jobs.find((j) => j.name === flags.job);
      if (!job) {
        throw new UsageError(
          `${file} has no job ${JSON.stringify(flags.job)}: its jobs are ${jobs.map((j) => j.name).join(", ")}`,
        );
      }
      const { approve, NothingToApproveError } = await import("@syncfile/jobs/internal/jobs/runJob.js");
      try {
        const approval = await approve(job);
        writeOut(
          process.stdout,
          `${job.name}: the data of run ${approval.run} goes through on the ${flags.now ? "run now" : "next run"}\n`,
        );
      } catch (error) {
        if (!(error instanceof NothingToApproveError)) throw error;
        throw new UsageError(error.message);
      }
      result.code = flags.now ? await runJobs(file, { job: job.name, lockWait: 60 }) : EXIT.ok;
    });
}

/** The `runs` command and its `show`: a job file's history; the exit code goes to `result.code`. */
export function runsCommand(result: { code: number }): Command {
  const show = new Command("show")
    .description("print one run: its record, where its changes and their page are kept")
    .argument("<file>", "the job file")
    .argument("<run>", "the run's id (as syncfile runs lists it), or last")
    .option("--job <name>", "the job whose run it is (needed for last when the file has several jobs)")
    .option("--changes", "print the run's changes instead, a JSON line each (as syncfile diff --format json)")
    .addOption(
      new Option("--format <format>", "text, or json: the record as runs.jsonl keeps it")
        .choices(["text", "json"])
        .default("text"),
    )
    .addHelpText(
      "after",
      `
A run that compared its data with the file last pushed keeps its changes in the job's state
folder: runs/RUN.changes.jsonl, every change, and runs/RUN.html, the page of them.

Exit codes: 0 printed, 2 usage (no such run).

Examples:
  $ syncfile runs show people.job.yaml last --job people
  $ syncfile runs show people.job.yaml 20261128T020000Z-3fa2c1 --changes | jq -r 'select(.kind == "user.removed") | .email'`,
    )
    .action(async (file: string, id: string, flags: ShowFlags) => {
      result.code = await showRun(file, id, flags);
    });
  return (
    new Command("runs")
      .description("list the runs of a job file's jobs, newest last; runs show prints one")
      // show's --job and --format are its own, not the list's
      .enablePositionalOptions()
      .argument("<file>", "the job file")
      .option("--job <name>", "this job's runs only")
      .addOption(
        new Option("--format <format>", "text, or json: a run record a line")
          .choices(["text", "json"])
          .default("text"),
      )
      .addHelpText(
        "after",
        `
Each run: when it ended, its outcome and what it said, its id. --format json prints the records
as the job's runs.jsonl keeps them. Runs are kept for the job's keep: days (30 by default).

Exit codes: 0 listed, 2 usage.

Examples:
  $ syncfile runs people.job.yaml
  $ syncfile runs people.job.yaml --job people --format json | jq 'select(.outcome == "refused")'
  $ syncfile runs show people.job.yaml last --job people`,
      )
      .action(async (file: string, flags: { job?: string; format: "text" | "json" }) => {
        const chosen = await chosenJobs(file, flags.job);
        if (chosen === null) {
          result.code = EXIT.usage;
          return;
        }
        const { readRuns } = await import("@syncfile/jobs/internal/jobs/runHistory.js");
        for (const job of chosen) {
          const runs = await readRuns(job.state);
          if (flags.format === "json") {
            writeOut(process.stdout, runs.map((r) => `${JSON.stringify(r)}\n`).join(""));
          } else {
            const lines = runs.map((r) => `  ${r.end}  ${runLine(r)}\n`);
            writeOut(
              process.stdout,
              `${job.name}: ${runs.length} ${runs.length === 1 ? "run" : "runs"}\n${lines.join("")}`,
            );
          }
        }
        result.code = EXIT.ok;
      })
      .addCommand(show)
  );
}

interface ShowFlags {
  job?: string;
  changes?: boolean;
  format: "text" | "json";
}

async function showRun(file: string, id: string, flags: ShowFlags): Promise<number> {
  const chosen = await chosenJobs(file, flags.job);
  if (chosen === null) return EXIT.usage;
  if (id === "last" && chosen.length > 1) {
    throw new UsageError(
      `${file} has ${chosen.length} jobs: say whose last run with --job (${chosen.map((j) => j.name).join(", ")})`,
    );
  }
  const { readRuns } = await import("@syncfile/jobs/internal/jobs/runHistory.js");
  for (const job of chosen) {
    const runs = await readRuns(job.state);
    const record = id === "last" ? runs.at(-1) : runs.find((r) => r.id === id);
    if (record === undefined) continue;
    const files = record.files && {
      changes: join(job.state, record.files.changes),
      report: join(job.state, record.files.report),
    };
    if (flags.changes) {
      if (!files) throw new UsageError(`run ${record.id} compared nothing: it has no changes to print`);
      await copyOut(files.changes).catch((error) => {
        throw new UsageError(`the changes of run ${record.id} cannot be read: ${describeIoError(error)}`);
      });
    } else if (flags.format === "json") {
      writeOut(process.stdout, `${JSON.stringify(record)}\n`);
    } else {
      const kept = files ? `changes: ${files.changes}\npage: ${files.report}\n` : "";
      const notified = record.notified ? "notified\n" : "";
      writeOut(process.stdout, `${runSummary(record)}\nmode: ${record.mode}\n${notified}${kept}`);
    }
    return EXIT.ok;
  }
  const whose = chosen.length === 1 ? `the job ${chosen[0]?.name}` : file;
  throw new UsageError(
    id === "last"
      ? `${whose} has not run yet (or its runs are older than it keeps)`
      : `${whose} has no run ${JSON.stringify(id)} (syncfile runs ${file} lists those it keeps)`,
  );
}

/** The file at `path` written to standard output, as fast as it takes it. */
async function copyOut(path: string): Promise<void> {
  for await (const chunk of createReadStream(path)) {
    if (!process.stdout.write(chunk)) await once(process.stdout, "drain");
  }
}

/** The jobs of `file` that `name` picks (all without it); null with the file's mistakes said. */
export async function chosenJobs(file: string, name: string | undefined): Promise<Job[] | null> {
  const jobs = await jobsOf(file);
  if (jobs === null) return null;
  const chosen = name === undefined ? jobs : jobs.filter((j) => j.name === name);
  if (chosen.length === 0) {
    throw new UsageError(
      `${file} has no job ${JSON.stringify(name)}: its jobs are ${jobs.map((j) => j.name).join(", ")}`,
    );
  }
  return chosen;
}

/** The jobs of `file`, or null with its mistakes said. */
async function jobsOf(file: string): Promise<Job[] | null> {
  const { JobFileError, readJobFile } = await import("@syncfile/jobs/internal/jobs/readJobFile.js");
  try {
    return readJobFile(file);
  } catch (error) {
    if (!(error instanceof JobFileError)) throw error;
    process.stderr.write(`syncfile: the job file ${file} cannot be used:\n${error.message}\n`);
    return null;
  }
}
