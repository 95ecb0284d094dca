// `syncfile push FILE --app-account N`: check the file here, and only a valid one is uploaded
// (upload URL, storage PUT, registration) and synced; a running sync is waited out.

import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { ApiError, refusedByGuard } from "@syncfile/client/internal/client/ApiError.js";
import type { UploadedFile } from "@syncfile/client/internal/client/createClient.js";
import {
  describeStateError,
  previousState,
  pushState,
  rememberSynced,
  serviceGuard,
  stateWarning,
} from "@syncfile/client/internal/client/previousState.js";
import type { PushChanges, StateFolderError } from "@syncfile/client/internal/client/pushFile.js";
import { Command } from "commander";
import { countLines } from "syncfile/internal/diff/counts.js";
import type { SyncSummary } from "syncfile/internal/http/operations.js";
import { formatBytes, groupDigits, plural } from "syncfile/internal/report/formatText.js";
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
import { EXIT, REMOTE_EXIT } from "./exitCodes.js";

interface PushFlags extends ReportFlags, RemoteFlags {
  appAccount: number;
  wait?: number;
  dryRun?: boolean;
  against?: string;
  compare: boolean;
  maxDeletes?: number;
  allowDeletes?: boolean;
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
    )
    .option(
      "--dry-run",
      "check and compare with the account's previous state, then stop: nothing is uploaded",
    )
    .option("--against <file>", "compare with this file, not with the last push to the account from here")
    .option("--no-compare", "neither compare nor guard (the pushed file is still kept for the next push)")
    .option(
      "--max-deletes <n>",
      "refuse a push that removes or deactivates more users (default: 500, or 10% of the active users when fewer, at least 10; 0: off)",
      wholeNumber("--max-deletes", 0),
    )
    .option("--allow-deletes", "go ahead whatever --max-deletes says");
  return addRemoteOptions(addReportOptions(command))
    .addHelpText(
      "after",
      `
The file is validated here first, with the same checks as \`syncfile validate\`; an invalid
file is refused without a single request. A valid one goes up in the three steps of the
upload procedure and is synced (PUT /v1.0/services/sync/custom, or …/sync/gluu for CSV).
A workbook (.xlsx), and an export read through a profile or mapping, are converted to JSON on
the way, and the JSON is uploaded.

Before it syncs, push compares the file with the account's previous state — the last file
pushed to that account of that service from this machine (kept in $SYNCFILE_STATE_DIR, by
default ~/.local/state/syncfile), or the service's record of the account when another file
made its state since (a service that keeps a history: syncfile serve), or --against FILE —
and prints what the sync will change.
A sync replaces the account's state: a push that would remove or deactivate more users than
--max-deletes is refused, nothing uploaded, with the first of them listed; so is one past the
service's own guard when it says one (syncfile serve --max-deletes), the stricter of the two.
--dry-run stops there, and fails as the push would; with --against FILE it needs no service
(without --base-url it is judged by --max-deletes alone).
While another sync is running the service answers 409: push tries again every 2 s until
--wait runs out. Rate limits are kept; a 429, a 5xx or a lost connection is retried.

The state folder is proved writable before anything is uploaded. A state file that cannot be
read (cut short by a crash, a link) is a warning; with no history on the service to compare
with instead, the guard then asks for --allow-deletes.

Exit codes: 0 synced (or a dry run done), 1 invalid file or a request the service refused,
2 usage error, 3 file unreadable or the state folder unwritable (nothing uploaded), 5 refused
by --max-deletes or the service's guard, ${REMOTE_EXIT.keyRefused}, ${REMOTE_EXIT.stillRunning},
${REMOTE_EXIT.unavailable},
9 synced but its state not saved (do not push again for the sync's sake), ${REMOTE_EXIT.interrupted}.

Examples:
  $ syncfile push users.json --app-account 42
  $ syncfile push hr-export.xlsx --sheet Users --app-account 42
  $ syncfile push users.json --app-account 42 --dry-run
  $ SYNCFILE_BASE_URL=https://api.example.com SYNCFILE_API_KEY=… syncfile push hr-export.csv --app-account 42 --wait 30m`,
    )
    .action(async (file: string, flags: PushFlags) => {
      result.code = await runPush(file, flags);
    });
}

async function runPush(file: string, flags: PushFlags): Promise<number> {
  checkInputFlags([file], flags);
  const { format, ...input } = await inputOptions(flags);
  // a dry run against a file needs no service; one is asked for its guard when it is named
  const client = flags.dryRun && flags.against !== undefined && !flags.baseUrl ? null : connect(flags);
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
  const { pushFile } = await import("@syncfile/client/internal/client/pushFile.js");
  const state = client ? pushState(flags) : null;
  const signal = interruptSignal();
  const scratch = await mkdtemp(join(tmpdir(), "syncfile-push-state-"));
  // found once the file is known valid: an invalid file is refused without a single request
  let label = flags.against ?? "";
  // said once the progress bar is gone
  const warnings: string[] = [];
  // the service's own guard (serve --max-deletes), said with the account's syncs
  let serviceMaxDeletes: number | null = null;
  const against =
    flags.against !== undefined || !client || state === null
      ? (flags.against ?? null)
      : async () => {
          const previous = await previousState(client, flags.appAccount, state, scratch, signal);
          label = previous.label;
          warnings.push(...previous.warnings);
          serviceMaxDeletes = previous.serviceMaxDeletes;
          return previous.state;
        };
  const serviceGuardOf = async () =>
    flags.against !== undefined && client
      ? serviceGuard(client, flags.appAccount, signal)
      : serviceMaxDeletes;
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
      ...(flags.compare ? { against, serviceMaxDeletes: serviceGuardOf } : {}),
      ...(flags.maxDeletes !== undefined ? { maxDeletes: flags.maxDeletes } : {}),
      ...(flags.allowDeletes ? { allowDeletes: true } : {}),
      ...(flags.dryRun ? { dryRun: true } : {}),
      ...(state !== null ? { saveAs: state } : {}),
      onStep: (step) => {
        progress.done();
        if (step === "compare")
          progress = new Progress(`comparing ${file} with the account's previous state`, null);
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
    const changes = outcome.changes;
    if (changes?.lost) {
      warnings.push(stateWarning(changes.lost.path, changes.lost.reason, "nothing to compare with"));
    }
    process.stderr.write(warnings.splice(0).join(""));
    if (changes && flags.format !== "json") {
      writeOut(process.stdout, describeChanges(changes, label, flags.appAccount));
    }
    if (!outcome.synced && outcome.stopped === "dry-run") {
      // JSON on stdout is one document: the note goes beside it
      if (flags.format === "json") writeOut(process.stdout, `${JSON.stringify({ changes })}\n`);
      writeOut(flags.format === "json" ? process.stderr : process.stdout, "dry run: nothing was uploaded\n");
      return EXIT.ok;
    }
    if (!outcome.synced && outcome.stopped === "guard" && changes) {
      if (flags.format === "json") writeOut(process.stdout, `${JSON.stringify({ changes })}\n`);
      process.stderr.write(refusal(changes, flags.appAccount));
      return EXIT.guard;
    }
    if (!outcome.synced) {
      writeOut(process.stdout, renderReport(outcome.report, file, flags, process.stdout));
      process.stderr.write(
        `syncfile: ${file} was not uploaded: fix its ${outcome.report.counts.error} error${outcome.report.counts.error === 1 ? "" : "s"} and push again\n`,
      );
      return EXIT.invalid;
    }
    const { file: uploaded, summary } = outcome;
    let notSaved = outcome.notSaved;
    if (!notSaved && state !== null) {
      // which file made the account's state, for the next push to tell whether it still does
      notSaved = await rememberSynced(state, uploaded.id).then(
        () => undefined,
        (error: NodeJS.ErrnoException) => error,
      );
    }
    writeOut(
      process.stdout,
      flags.format === "json"
        ? `${JSON.stringify({ file: uploaded, sync: summary, ...(changes ? { changes } : {}) })}\n`
        : describeSync(file, uploaded, summary),
    );
    if (notSaved) {
      process.stderr.write(
        `syncfile: the sync succeeded; the state was not saved: cannot write ${notSaved.path ?? state}: ${describeStateError(notSaved)}\n` +
          "syncfile: the next push from here may compare with an older state: make the folder writable (or set SYNCFILE_STATE_DIR) and push the same file again to save it\n",
      );
      return EXIT.notSaved;
    }
    return EXIT.ok;
  } catch (error) {
    progress.done();
    process.stderr.write(warnings.splice(0).join(""));
    if ((error as Error).name === "StateFolderError") {
      const { dir, cause } = error as StateFolderError;
      process.stderr.write(
        `syncfile: cannot keep the push state in ${dir}: ${describeStateError(cause)}; nothing was uploaded\n` +
          "syncfile: make it a folder you can write, or set SYNCFILE_STATE_DIR to one\n",
      );
      return EXIT.unreadable;
    }
    if ((error as Error).name === "PreviousStateError") {
      process.stderr.write(`syncfile: cannot compare: ${(error as Error).message}\n`);
      return EXIT.unreadable;
    }
    if (error instanceof ApiError && error.report) {
      // the service found what the local check did not: show it against the local file
      process.stderr.write(`syncfile: ${error.message}\n`);
      writeOut(process.stdout, renderReport(error.report, file, flags, process.stdout));
      return EXIT.invalid;
    }
    if (error instanceof ApiError && refusedByGuard(error.body)) {
      // the server's own guard (syncfile serve --max-deletes): the file is uploaded, not synced
      process.stderr.write(
        `syncfile: refused by the service: ${error.message.replace(/^.*? — /, "")}\nsyncfile: push again with --allow-deletes to go ahead\n`,
      );
      return EXIT.guard;
    }
    if (error instanceof ApiError && error.status === 409) {
      process.stderr.write(
        `syncfile: ${error.message}\nsyncfile: gave up after --wait ${formatDuration(wait)}: push again later, or with a longer --wait\n`,
      );
      return EXIT.stillRunning;
    }
    throw error;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** What push says when a guard refuses it: why, the first users it would take away, what to do. */
function refusal(changes: PushChanges, appAccount: number): string {
  if (changes.lost) {
    return (
      "syncfile: refused: without the account's previous state, what this push takes away is unknown; nothing was uploaded\n" +
      "syncfile: push again with --allow-deletes to push it as a first push (the state is written anew), or compare with --against FILE\n"
    );
  }
  const service = changes.guard === "service";
  const limit = service
    ? `the service's own guard allows (its --max-deletes ${changes.maxDeletes}), which would refuse the sync`
    : `--max-deletes ${changes.maxDeletes}`;
  const told = service ? ", which the service is told too (--max-deletes cannot raise its limit)" : "";
  return (
    `syncfile: refused: this push would remove or deactivate ${plural(changes.deletes, "user")} of app account ${appAccount}, more than ${limit}; nothing was uploaded\n` +
    `syncfile: the first of them: ${changes.firstDeletes.join(", ")}\n` +
    `syncfile: check the file (an export cut short? a filter, the wrong sheet?), or push again with --allow-deletes${told}\n`
  );
}

/** What the push changes, in a few lines. */
function describeChanges(changes: PushChanges, against: string, appAccount: number): string {
  if (changes.lost)
    return `the previous state of app account ${appAccount} is lost: nothing to compare with\n`;
  if (!changes.compared || !changes.counts) {
    return `no earlier push to app account ${appAccount} from here: nothing to compare with (a first push)\n`;
  }
  return [
    `changes against ${against}:`,
    ...countLines(changes.counts).map((line) => `  ${line}`),
    `  users taken away: ${changes.deletes} (${describeGuards(changes)})`,
    "",
  ].join("\n");
}

/** The thresholds a push is judged by: --max-deletes, and the service's guard when it has one. */
function describeGuards(changes: PushChanges): string {
  const off = (n: number | undefined) => (n === 0 ? "off" : String(n));
  if (changes.guard === "service") {
    return `the service's --max-deletes ${changes.maxDeletes}, stricter than this push's --max-deletes ${off(changes.pushMaxDeletes)}`;
  }
  const own = `--max-deletes ${off(changes.maxDeletes)}`;
  return changes.serviceMaxDeletes ? `${own}; the service's ${changes.serviceMaxDeletes}` : own;
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
