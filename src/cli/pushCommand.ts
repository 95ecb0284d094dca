// `syncfile push FILE --app-account N`: check the file here, and only a valid one is uploaded
// (upload URL, storage PUT, registration) and synced; a running sync is waited out.

import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { Command } from "commander";
import { ApiError } from "../client/ApiError.js";
import type { UploadedFile } from "../client/createClient.js";
import type { SyncSummary } from "../http/operations.js";
import { formatBytes, groupDigits, plural } from "../report/formatText.js";
import { describeIoError, wholeNumber, writeOut } from "./_io.js";
import { Progress } from "./_progress.js";
import {
  addRemoteOptions,
  connect,
  formatDuration,
  interruptSignal,
  parseDuration,
  type RemoteFlags,
} from "./_remote.js";
import {
  addReportOptions,
  checkInputFlags,
  inputOptions,
  type ReportFlags,
  renderReport,
} from "./_reportOptions.js";
import { EXIT } from "./exitCodes.js";

interface PushFlags extends ReportFlags, RemoteFlags {
  appAccount: number;
  wait?: number;
}

/** The `push` command; its exit code goes to `result.code`. */
export function pushCommand(result: { code: number }): Command {
  const command = new Command("push")
    .description("check a data file, then upload it and sync it into an app account")
    .argument("<file>", "the data file (JSON, or by extension CSV or an Excel workbook .xlsx)")
    .requiredOption("--app-account <id>", "the app account to sync into", wholeNumber("--app-account", 1))
    .option(
      "--wait <duration>",
      "how long to keep trying while another sync is running (0: not at all; default 10m)",
      (v: string) => parseDuration("--wait", v),
    );
  return addRemoteOptions(addReportOptions(command))
    .addHelpText(
      "after",
      `
The file is validated here first, with the same checks as \`syncfile validate\`; an invalid
file is refused without a single request. A valid one goes up in the three steps of the
upload procedure and is synced (PUT /v1.0/services/sync/custom, or …/custom/csv for CSV).
A workbook (.xlsx) is converted to JSON on the way, and the JSON is uploaded.
While another sync is running the service answers 409: push tries again every 2 s until
--wait runs out. Rate limits are kept; a 429, a 5xx or a lost connection is retried.

Exit codes: 0 synced, 1 invalid file or a failed request, 2 usage error, 3 file unreadable.

Examples:
  $ syncfile push users.json --app-account 42
  $ syncfile push hr-export.xlsx --sheet Users --app-account 42
  $ SYNCFILE_BASE_URL=https://api.example.com SYNCFILE_API_KEY=… syncfile push hr-export.csv --app-account 42 --wait 30m`,
    )
    .action(async (file: string, flags: PushFlags) => {
      result.code = await runPush(file, flags);
    });
}

async function runPush(file: string, flags: PushFlags): Promise<number> {
  checkInputFlags([file], flags);
  const { format, ...input } = await inputOptions(flags);
  const client = connect(flags);
  const wait = flags.wait ?? 10 * 60_000;
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw Object.assign(new Error(), { code: "EISDIR" });
    size = info.size;
  } catch (error) {
    process.stderr.write(`syncfile: cannot read ${file}: ${describeIoError(error)}\n`);
    return EXIT.unreadable;
  }
  const { pushFile } = await import("../client/pushFile.js");
  const signal = interruptSignal();
  let progress = new Progress(`validating ${file}`, size);
  let uploading = false;
  try {
    const outcome = await pushFile(client, file, {
      appAccount: flags.appAccount,
      ...(format ? { format } : {}),
      waitMs: wait,
      pollMs: 2000,
      signal,
      validation: {
        ...input,
        maxErrors: flags.maxErrors,
        strict: flags.strict === true,
        onProgress: (bytes) => progress.update(bytes),
      },
      onStep: (step) => {
        progress.done();
        uploading = step === "upload";
      },
      // what goes up is the file, or the JSON a workbook was converted to: its size comes here
      onUploadProgress: (sent, total) => {
        if (uploading) {
          uploading = false;
          progress = new Progress(`uploading ${file}`, total);
        }
        progress.update(sent);
      },
      onWaiting: ({ waitedMs, nextMs, message }) =>
        process.stderr.write(
          `syncfile: ${message.replace(/^.*? — /, "")}\nsyncfile: waiting: trying again in ${formatDuration(nextMs)} (waited ${formatDuration(waitedMs)} of ${formatDuration(wait)})\n`,
        ),
    });
    progress.done();
    if (!outcome.synced) {
      writeOut(process.stdout, renderReport(outcome.report, file, flags, process.stdout));
      process.stderr.write(
        `syncfile: ${file} was not uploaded: fix its ${outcome.report.counts.error} error${outcome.report.counts.error === 1 ? "" : "s"} and push again\n`,
      );
      return EXIT.invalid;
    }
    const { file: uploaded, summary } = outcome;
    writeOut(
      process.stdout,
      flags.format === "json"
        ? `${JSON.stringify({ file: uploaded, sync: summary })}\n`
        : describeSync(file, uploaded, summary),
    );
    return EXIT.ok;
  } catch (error) {
    progress.done();
    if (error instanceof ApiError && error.report) {
      // the service found what the local check did not: show it against the local file
      process.stderr.write(`syncfile: ${error.message}\n`);
      writeOut(process.stdout, renderReport(error.report, file, flags, process.stdout));
      return EXIT.invalid;
    }
    if (error instanceof ApiError && error.status === 409) {
      process.stderr.write(
        `syncfile: ${error.message}\nsyncfile: gave up after --wait ${formatDuration(wait)}: push again later, or with a longer --wait\n`,
      );
      return EXIT.invalid;
    }
    throw error;
  }
}

function describeSync(file: string, uploaded: UploadedFile, s: SyncSummary): string {
  // a workbook goes up as the JSON it was converted to
  const as = uploaded.name === basename(file) ? "" : ` as ${uploaded.name}`;
  const pushed = `pushed ${file}${as} (${formatBytes(uploaded.bytes)}) as file ${uploaded.id}`;
  const counts = [s.users, s.activeUsers, s.licenses, s.licenseUsers, s.warnings, s.durationMs];
  if (!counts.every((n) => typeof n === "number")) {
    // a service whose summary is not the one this project's server sends: show it as it came
    return `${pushed}, synced\n  the service answered: ${JSON.stringify(s)}\n`;
  }
  return [
    `${pushed}, synced into app account ${s.idAppAccount}`,
    `  ${plural(s.users, "user")} (${groupDigits(s.activeUsers)} active), ${plural(s.licenses, "license")}, ${plural(s.licenseUsers, "license user")}, ${plural(s.warnings, "warning")}`,
    `  prices in ${s.displayCurrency}; sync ${s.idSync} took ${formatDuration(s.durationMs)}`,
    "",
  ].join("\n");
}
