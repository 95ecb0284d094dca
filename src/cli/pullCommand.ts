// `syncfile pull FILE --job NAME [-o OUT]`: what a job's run would push, written down and not
// pushed — its source read as the run reads it (the same fetch, the same profile or mapping,
// records' columns as the run maps them), checked, and converted to the service's JSON (or CSV
// with -o x.csv), with its report. What an admin runs while writing the job: nothing is sent,
// no lock is taken and the job's state is not touched.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeSource } from "@syncfile/jobs/internal/sources/describeSource.js";
import { Command } from "commander";
import { writeOut } from "./_io.js";
import { renderReport } from "./_reportOptions.js";
import { EXIT } from "./exitCodes.js";
import { chosenJobs } from "./jobCommand.js";
import { UsageError } from "./UsageError.js";

interface PullFlags {
  job?: string;
  output?: string;
}

/** The `pull` command; the exit code goes to `result.code`. */
export function pullCommand(result: { code: number }): Command {
  return new Command("pull")
    .description("write what a job's run would push, from its source, and push nothing")
    .argument("<file>", "the job file")
    .option("--job <name>", "the job (needed when the file has several)")
    .option("-o, --output <file>", "where to write it: .json (the default, to standard output) or .csv")
    .addHelpText(
      "after",
      `
The job's source is read as syncfile run reads it — a file, a command, an HTTP API, a query, a
directory, a SCIM endpoint, a bucket — through its profile or mapping, checked, and converted:
the service's JSON, or its CSV layout with -o x.csv. The report says what the check found.
Nothing is sent, no lock is taken, and the job's history is left as it is.

Exit codes: 0 written, 1 the data is invalid (nothing written), 2 usage, 3 the source failed
or has nothing to read yet.

Examples:
  $ syncfile pull people.job.yaml --job people -o people.json
  $ syncfile pull people.job.yaml | jq '.users | length'`,
    )
    .action(async (file: string, flags: PullFlags) => {
      result.code = await runPull(file, flags);
    });
}

async function runPull(file: string, flags: PullFlags): Promise<number> {
  const jobs = await chosenJobs(file, flags.job);
  if (jobs === null) return EXIT.usage;
  const [job] = jobs;
  if (job === undefined || jobs.length > 1) {
    throw new UsageError(
      `${file} has ${jobs.length} jobs: say which with --job (${jobs.map((j) => j.name).join(", ")})`,
    );
  }
  const output = flags.output ?? "-";
  const to = /\.csv$/i.test(output) ? "csv" : "json";
  const [{ fetchSource, SourceError }, { sourceReading }, { convertFile }] = await Promise.all([
    import("@syncfile/jobs/internal/sources/fetchSource.js"),
    import("@syncfile/jobs/internal/jobs/sourceReading.js"),
    import("syncfile/internal/convert/convert.js"),
  ]);
  const folder = await mkdtemp(join(tmpdir(), "syncfile-pull-"));
  try {
    let fetched: Awaited<ReturnType<typeof fetchSource>>;
    try {
      fetched = await fetchSource(job.source, folder);
    } catch (error) {
      if (!(error instanceof SourceError)) throw error;
      process.stderr.write(`syncfile: ${job.name}: the source failed: ${error.message}\n`);
      return EXIT.unreadable;
    }
    if (fetched.kind === "waiting") {
      process.stderr.write(`syncfile: ${job.name}: nothing to read yet: ${fetched.reason}\n`);
      return EXIT.unreadable;
    }
    const source = fetched.file;
    const reading = await sourceReading(job, source);
    if (!reading.ok) {
      process.stderr.write(`syncfile: ${job.name}: ${reading.message}\n`);
      return EXIT.invalid;
    }
    const report = await convertFile(source.path, output === "-" ? process.stdout : output, {
      ...reading.validation,
      format: reading.format,
      to,
      file: `${job.name}: ${describeSource(job.source)}`,
    });
    const stream = output === "-" ? process.stderr : process.stdout;
    writeOut(stream, renderReport(report, source.path, { format: "text", maxErrors: 1000 }, stream));
    return report.valid ? EXIT.ok : EXIT.invalid;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
