// `syncfile job check FILE`: a job file checked alone, before anything runs — its YAML, every
// ${VAR} it names, the schema (an unknown key, a wrong type), the secrets' files, the schedule —
// each mistake at its line and column; when it is right, each job in one line. No secret is
// printed: the service's URL only, through the one redaction.

import { Command } from "commander";
import type { Job } from "../jobs/Job.js";
import { redactUrl } from "../text/redact.js";
import { writeOut } from "./_io.js";
import { EXIT } from "./exitCodes.js";

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
    ? `mapping ${job.read.mapping}`
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
