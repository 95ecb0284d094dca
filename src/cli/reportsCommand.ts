// `syncfile reports [--out DIR] [--since TS] [--limit N] [--watch [--interval 1m]]`: every
// access-review report archive not downloaded before, and with --watch the new ones as they
// appear, without anyone watching.

import {
  type CollectedReport,
  type CollectResult,
  collectReports,
  STATE_FILE,
  StateFileError,
} from "@syncfile/client/internal/client/collectReports.js";
import { watchReports } from "@syncfile/client/internal/client/watchReports.js";
import { Command, InvalidArgumentError } from "commander";
import type { Execution } from "syncfile/internal/http/operations.js";
import { formatBytes } from "syncfile/internal/report/formatText.js";
import { writeFailure, writeOut } from "./_io.js";
import { Progress } from "./_progress.js";
import {
  addRemoteOptions,
  connect,
  formatDuration,
  interruptSignal,
  parseDuration,
  type RemoteFlags,
} from "./_remote.js";
import { EXIT, REMOTE_EXIT_CODES } from "./exitCodes.js";
import { UsageError } from "./UsageError.js";

interface ReportsFlags extends RemoteFlags {
  out: string;
  since?: Date;
  limit: number;
  watch?: boolean;
  interval?: number;
}

/** The `reports` command; its exit code goes to `result.code`. */
export function reportsCommand(result: { code: number }): Command {
  const command = new Command("reports")
    .description("download the report archive of every completed and archived access-review execution")
    .option("--out <dir>", "the folder for the archives and the state file", ".")
    .option("--since <timestamp>", "only executions completed after this time (ISO 8601)", parseSince)
    .option(
      "--limit <n>",
      "executions asked for per bucket (1–1000)",
      (v: string) => {
        if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 1000)
          throw new InvalidArgumentError(`--limit takes a whole number from 1 to 1000, not "${v}"`);
        return Number(v);
      },
      1000,
    )
    .option("--watch", "keep polling for new reports until interrupted (Ctrl-C)")
    .option("--interval <duration>", "with --watch: time between polls (default 1m)", (v: string) =>
      parseDuration("--interval", v),
    );
  return addRemoteOptions(command)
    .addHelpText(
      "after",
      `
What was downloaded is remembered in ${STATE_FILE} in the folder: a run downloads only
what is new. An execution whose report is still being generated is asked for again on the
next run (or poll). Each archive is saved whole or not at all, as
<campaign>-execution-<id>.zip.

Exit codes: 0 done (some archives may still be pending), 1 a request the service refused,
2 usage error, 3 the folder unwritable, ${REMOTE_EXIT_CODES}

Examples:
  $ syncfile reports --out reviews/
  $ syncfile reports --out reviews/ --since 2026-01-01T00:00:00Z
  $ syncfile reports --out reviews/ --watch --interval 5m`,
    )
    .action(async (flags: ReportsFlags) => {
      result.code = await runReports(flags);
    });
}

function parseSince(text: string): Date {
  const time = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(time)) {
    throw new InvalidArgumentError(
      `--since takes an ISO 8601 time such as 2026-01-31T00:00:00Z, not "${text}"`,
    );
  }
  return new Date(time);
}

/** The exit code of a command that Ctrl-C (or SIGTERM) stopped. */
const INTERRUPTED = 130;

async function runReports(flags: ReportsFlags): Promise<number> {
  if (flags.interval !== undefined && !flags.watch) throw new UsageError("--interval goes with --watch");
  if (flags.interval !== undefined && flags.interval < 1000)
    throw new UsageError("--interval must be at least 1s");
  const client = connect(flags);
  const signal = interruptSignal();
  let progress = null as Progress | null;
  const options = {
    dir: flags.out,
    limit: flags.limit,
    signal,
    ...(flags.since ? { since: flags.since } : {}),
    onProgress: (execution: Execution, received: number, total: number | null) => {
      progress ??= new Progress(`report of execution ${execution.id}`, total);
      progress.update(received);
    },
    onReport: (report: CollectedReport) => {
      progress?.done();
      progress = null;
      writeOut(process.stdout, describeReport(report));
    },
  };
  try {
    if (!flags.watch) {
      writeOut(process.stdout, describePass(await collectReports(client, options), flags.limit));
      return EXIT.ok;
    }
    const intervalMs = flags.interval ?? 60_000;
    process.stderr.write(
      `syncfile: watching for reports every ${formatDuration(intervalMs)}; Ctrl-C stops\n`,
    );
    let pending: string | null = null;
    await watchReports(client, {
      ...options,
      intervalMs,
      onPass: (pass) => {
        // the first pass, then only when something changed
        const now = pass.pending.map((e) => e.id).join(",");
        if (pass.downloaded.length > 0 || now !== pending)
          writeOut(process.stdout, describePass(pass, flags.limit));
        pending = now;
      },
      onError: (error) => process.stderr.write(`syncfile: ${error.message}; trying again at the next poll\n`),
    });
    // a watch ends only when it is interrupted: the shell's code for it, as every command's
    return signal.aborted ? INTERRUPTED : EXIT.ok;
  } catch (error) {
    const failure = error instanceof StateFileError ? error.message : writeFailure(error);
    if (failure === null) throw error;
    process.stderr.write(`syncfile: ${failure}\n`);
    return EXIT.unreadable;
  }
}

function describeReport({ execution: e, path, bytes }: CollectedReport): string {
  return `saved ${path} (${formatBytes(bytes)}): execution ${e.id} of "${e.campaignName}", ${e.state}, completed ${e.completionTime}\n`;
}

function describePass(pass: CollectResult, limit: number): string {
  const lines: string[] = [];
  for (const bucket of pass.full) {
    lines.push(
      `warning: ${bucket} came back with ${limit} executions, the most asked for: older ones may be missing${limit < 1000 ? " (raise --limit, up to 1000)" : " (the service lists the newest first)"}`,
    );
  }
  for (const { execution, error } of pass.failed) {
    lines.push(
      `warning: the report of execution ${execution.id} could not be downloaded (asked for again next time): ${error.message}`,
    );
  }
  const parts = [`${pass.downloaded.length} new report${pass.downloaded.length === 1 ? "" : "s"}`];
  if (pass.pending.length > 0) {
    parts.push(
      `${pass.pending.length} still being generated (execution ${pass.pending.map((e) => e.id).join(", ")}: asked for again next time)`,
    );
  }
  parts.push(`${pass.known} downloaded before`);
  lines.push(parts.join(", "));
  return `${lines.join("\n")}\n`;
}
