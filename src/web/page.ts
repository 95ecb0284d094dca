// The page `syncfile serve` shows at /: drop or pick a data file, see whether it is right and
// where it is wrong (checked in this browser, by the library, in a worker), download it as
// JSON or CSV, push it to the service, and fetch the access-review report archives. The
// report is shown with the same section as `syncfile validate --format html`.

import "./page.css";
import type { Excerpt, Finding, Report } from "../browser.js";
import { type Change, type ChangeCounts, defaultMaxDeletes } from "../diff/Change.js";
import { countLines, describeChange, totalOf } from "../diff/counts.js";
import type { Execution, SyncSummary } from "../http/operations.js";
import { isRunningBucket } from "../http/tolerant.js";
import type { MappingDocument } from "../mapping/MappingDocument.js";
import { formatOf, type InputFormat } from "../pass/formatOf.js";
import { catalog } from "../report/catalog.js";
import { REPORT_STYLE, reportSection } from "../report/formatHtml.js";
import { formatBytes } from "../report/formatText.js";
import { MappingStep } from "./mappingStep.js";
import type { Job, JobMapping, JobMessage } from "./protocol.js";
import {
  downloadFile,
  listExecutions,
  previousState,
  pushFile,
  type Service,
  ServiceError,
} from "./service.js";

const KEY_STORAGE = "syncfile.key";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const ui = {
  drop: $("drop"),
  file: $<HTMLInputElement>("file"),
  format: $<HTMLSelectElement>("format"),
  progressRow: $("progress-row"),
  progress: $<HTMLProgressElement>("progress"),
  progressText: $("progress-text"),
  cancel: $<HTMLButtonElement>("cancel"),
  message: $("message"),
  resultSection: $("result-section"),
  result: $("result"),
  downloadJson: $<HTMLButtonElement>("download-json"),
  downloadCsv: $<HTMLButtonElement>("download-csv"),
  downloadNote: $("download-note"),
  pushForm: $<HTMLFormElement>("push-form"),
  base: $<HTMLInputElement>("base"),
  key: $<HTMLInputElement>("key"),
  account: $<HTMLInputElement>("account"),
  push: $<HTMLButtonElement>("push"),
  pushCancel: $<HTMLButtonElement>("push-cancel"),
  pushStatus: $("push-status"),
  pushWait: $("push-wait"),
  pushResult: $("push-result"),
  previous: $<HTMLInputElement>("previous"),
  pushChanges: $("push-changes"),
  pushGuard: $("push-guard"),
  pushAnyway: $<HTMLButtonElement>("push-anyway"),
  reviews: $<HTMLButtonElement>("reviews"),
  reviewsStatus: $("reviews-status"),
  reviewsWait: $("reviews-wait"),
  reviewsResult: $("reviews-result"),
  codes: $("codes"),
  codesDetails: $<HTMLDetailsElement>("codes-details"),
  mappingCheck: $<HTMLButtonElement>("mapping-check"),
  mappingSave: $<HTMLButtonElement>("mapping-save"),
  mappingFile: $<HTMLInputElement>("mapping-file"),
};

const step = new MappingStep({
  root: $("mapping"),
  note: $("mapping-note"),
  columns: $<HTMLTableElement>("mapping-columns").tBodies[0] as HTMLTableSectionElement,
  statusTable: $<HTMLTableElement>("mapping-status"),
  status: $<HTMLTableElement>("mapping-status").tBodies[0] as HTMLTableSectionElement,
  previewHead: $<HTMLTableElement>("mapping-preview").tHead as HTMLTableSectionElement,
  preview: $<HTMLTableElement>("mapping-preview").tBodies[0] as HTMLTableSectionElement,
});

/**
 * The file chosen, how it is read (its format, and the mapping the user chose: none, as the
 * header decides), and its report once checked.
 */
let chosen: {
  file: File;
  format: InputFormat;
  mapping: MappingDocument | null;
  report: Report | null;
} | null = null;
/** The worker running a job, if one runs; `stop(byUser)` ends it (saying so when the user asked). */
let running: { worker: Worker; stop: (byUser: boolean) => void } | null = null;

// ── the file ──

ui.file.addEventListener("change", () => {
  const file = ui.file.files?.[0];
  // emptied, so that picking the same file again (fixed in the spreadsheet) checks it again
  ui.file.value = "";
  if (file) void check(file);
});
ui.format.addEventListener("change", () => {
  if (chosen) void check(chosen.file);
});
for (const type of ["dragenter", "dragover"]) {
  ui.drop.addEventListener(type, (event) => {
    event.preventDefault();
    ui.drop.classList.add("over");
  });
}
ui.drop.addEventListener("dragleave", () => ui.drop.classList.remove("over"));
ui.drop.addEventListener("drop", (event) => {
  event.preventDefault();
  ui.drop.classList.remove("over");
  const file = (event as DragEvent).dataTransfer?.files[0];
  if (file) void check(file);
});
ui.cancel.addEventListener("click", () => {
  running?.stop(true);
  ui.file.focus(); // the Cancel button is gone with the progress bar
});

/**
 * Validates `file` (through `how`'s mapping, else as its header decides) and shows its report;
 * a CSV file or workbook not in the service's layout gets the mapping step above it.
 */
async function check(file: File, how: JobMapping = {}): Promise<void> {
  const format = (ui.format.value as InputFormat | "") || formatOf(file.name);
  const same = chosen?.file === file;
  chosen = { file, format, mapping: how.mapping ?? null, report: null };
  showMessage(null);
  ui.resultSection.hidden = true;
  if (!same) step.hide();
  setDownloads(null);
  const done = await runJob({ type: "validate", file, format, ...how }, `Checking ${file.name}`);
  if (done?.type !== "report" || chosen?.file !== file) return;
  chosen.report = done.report;
  if (done.mapping) chosen.mapping = done.mapping;
  await showMappingStep(file, format, done.report);
  const excerpts = new Map<Finding, Excerpt>(
    done.excerpts.map(([i, excerpt]) => [done.report.findings[i] as Finding, excerpt]),
  );
  showReport(ui.result, done.report, excerpts);
  ui.resultSection.hidden = false;
  setDownloads(done.report);
  ui.result.querySelector<HTMLElement>(".banner")?.focus();
}

/** The mapping step, for a CSV file or workbook read through a mapping or not in the service's layout. */
async function showMappingStep(file: File, format: InputFormat, report: Report): Promise<void> {
  const unread = report.findings.some(
    (f) => f.code === "csv.header.missing" || f.code === "csv.header.unknown",
  );
  if (format === "json" || (report.mapping === undefined && !unread)) {
    step.hide();
    return;
  }
  const done = await runJob({ type: "inspect", file, format }, `Reading the columns of ${file.name}`);
  if (done?.type !== "inspected" || chosen?.file !== file || done.inspection.header === null) return;
  const mapping = chosen.mapping ?? done.inspection.suggestion.document;
  const note = report.mapping
    ? `Read as ${report.mapping.title}. Change a column or a value below, then check again.`
    : "This file is not in the service's layout: choose what each column gives and what each status means, then check it with this mapping.";
  step.show(done.inspection, mapping, note);
}

ui.mappingCheck.addEventListener("click", () => {
  const mapping = step.document;
  if (chosen && mapping) void check(chosen.file, { mapping });
});
ui.mappingSave.addEventListener("click", () => {
  const mapping = step.document;
  if (!mapping) return;
  const blob = new Blob([`${JSON.stringify(mapping, null, 2)}\n`], { type: "application/json" });
  save(blob, `${mapping.name}.mapping.json`);
});
ui.mappingFile.addEventListener("change", async () => {
  const file = ui.mappingFile.files?.[0];
  ui.mappingFile.value = "";
  if (!file || !chosen) return;
  await check(chosen.file, { mappingText: { name: file.name, text: await file.text() } });
});

/** Runs `job` in a fresh worker with the progress bar showing; its last message, or null when stopped. */
function runJob(job: Job, doing: string): Promise<JobMessage | null> {
  running?.stop(false);
  const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
  ui.progressRow.hidden = false;
  ui.progress.value = 0;
  ui.progressText.textContent = `${doing}…`;
  return new Promise((resolve) => {
    const finish = (message: JobMessage | null) => {
      worker.terminate();
      if (running?.worker === worker) running = null;
      ui.progressRow.hidden = true;
      resolve(message);
    };
    running = {
      worker,
      stop: (byUser) => {
        if (byUser) showMessage(`${doing}: stopped.`);
        finish(null);
      },
    };
    worker.onmessage = (event: MessageEvent<JobMessage>) => {
      const message = event.data;
      if (message.type === "progress") {
        ui.progress.value = message.total > 0 ? message.bytes / message.total : 1;
        ui.progressText.textContent = `${doing}: ${formatBytes(message.bytes)} of ${formatBytes(message.total)}`;
        return;
      }
      if (message.type === "failed") showMessage(`${doing} failed: ${message.message}`);
      finish(message);
    };
    worker.onerror = (event) => {
      showMessage(`${doing} failed: ${event.message || "the worker stopped"}`);
      finish(null);
    };
    worker.postMessage(job);
  });
}

function showMessage(text: string | null): void {
  ui.message.hidden = text === null;
  ui.message.textContent = text ?? "";
}

// ── the report ──

// the report's look, from the same source as the HTML report's (no inline style: CSP)
const reportSheet = new CSSStyleSheet();
reportSheet.replaceSync(REPORT_STYLE);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, reportSheet];

/** Shows `report` in `into`, its filters working and its codes linked to their explanation. */
function showReport(into: HTMLElement, report: Report, excerpts = new Map<Finding, Excerpt>()): void {
  into.innerHTML = reportSection(report, 0, { excerpts, codeLink: (code) => `#code-${code}` });
  const banner = into.querySelector<HTMLElement>(".banner");
  if (banner) banner.tabIndex = -1;
  const rows = [...into.querySelectorAll<HTMLTableRowElement>("tbody.findings tr")];
  const boxes = [...into.querySelectorAll<HTMLInputElement>(".filters input[type=checkbox]")];
  const code = into.querySelector<HTMLSelectElement>(".filters select");
  const shown = into.querySelector(".shown");
  if (!code || !shown) return;
  const apply = () => {
    const severities = new Set(boxes.filter((box) => box.checked).map((box) => box.value));
    const visible = rows.filter((row) => {
      row.hidden = !(
        severities.has(row.dataset.severity ?? "") && [row.dataset.code, ""].includes(code.value)
      );
      return !row.hidden;
    });
    shown.textContent = `${visible.length} of ${rows.length} shown`;
  };
  for (const input of [...boxes, code]) input.addEventListener("change", apply);
  apply();
}

// ── downloads ──

function setDownloads(report: Report | null): void {
  const usable = report?.valid === true && chosen !== null;
  ui.downloadJson.disabled = !usable;
  ui.downloadCsv.disabled = !usable;
  ui.push.disabled = !usable;
  ui.downloadNote.textContent =
    report && !report.valid ? "Fix the errors above to download or push the file." : "";
}

for (const [button, to] of [
  [ui.downloadJson, "json"],
  [ui.downloadCsv, "csv"],
] as const) {
  button.addEventListener("click", async () => {
    if (!chosen) return;
    const { file, format, mapping } = chosen;
    const done = await runJob(
      { type: "convert", file, format, to, ...(mapping ? { mapping } : {}) },
      `Converting ${file.name} to ${to.toUpperCase()}`,
    );
    if (done?.type !== "converted") return;
    if (!done.output) {
      showMessage(`The conversion found errors: ${done.report.counts.error} (nothing was written).`);
      return;
    }
    save(done.output, `${file.name.replace(/\.(json|csv|tsv|txt|xlsx|xlsm)$/i, "")}.${to}`);
  });
}

/** Offers `blob` to the user as a file called `name`. */
function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

// ── push ──

// the key is kept for the service it was typed for: a page opened with another ?service=
// does not get it
const stored = JSON.parse(sessionStorage.getItem(KEY_STORAGE) ?? "null") as Service | null;
ui.base.value = new URLSearchParams(location.search).get("service") ?? stored?.base ?? location.origin;
ui.key.value = stored?.base === ui.base.value ? stored.key : "";
ui.key.addEventListener("input", () =>
  sessionStorage.setItem(KEY_STORAGE, JSON.stringify({ base: ui.base.value, key: ui.key.value })),
);

/** The service URL and key when they are filled in (each empty one says so); the app account too, for a push. */
function service(forPush: boolean): Service | null {
  const fields = forPush ? [ui.base, ui.key, ui.account] : [ui.base, ui.key];
  if (!fields.every((field) => field.reportValidity())) return null;
  return { base: ui.base.value, key: ui.key.value };
}

/** Shows why a call waits once (the status is read out), and the seconds left apart (not read out). */
const waiting = (status: HTMLElement, left: HTMLElement) => (why: string, seconds: number) => {
  if (status.textContent !== why) status.textContent = why;
  left.textContent = seconds > 0 ? `${seconds} s` : "";
};

/** The push under way, which Cancel stops. */
let pushing: AbortController | null = null;
ui.pushCancel.addEventListener("click", () => {
  pushing?.abort();
  ui.push.focus();
});

ui.pushForm.addEventListener("submit", (event) => {
  event.preventDefault();
  void push(false);
});
// the admin's deliberate confirmation, after the guard listed whom the push takes away
ui.pushAnyway.addEventListener("click", () => void push(true));

/** Pushes the chosen file: compares it with the account's previous state first, and guards. */
async function push(allowDeletes: boolean): Promise<void> {
  const target = service(true);
  if (!target || !chosen?.report?.valid || pushing) return;
  const { file, format, mapping, report } = chosen;
  const account = Number(ui.account.value);
  const status = (text: string) => {
    ui.pushStatus.textContent = text;
    ui.pushWait.textContent = "";
  };
  pushing = new AbortController();
  const signal = pushing.signal;
  ui.pushCancel.hidden = false;
  ui.pushGuard.hidden = true;
  ui.pushResult.replaceChildren();
  ui.pushChanges.replaceChildren();
  status("");
  try {
    // a File is read when it is sent: one changed since its check can no longer be read
    await file
      .slice(0, 1)
      .arrayBuffer()
      .catch(() => {
        throw new Error(`${file.name} changed since it was checked: pick it again`);
      });
    let body: Blob = file;
    let name = file.name;
    let sent: "json" | "csv" = format === "csv" ? "csv" : "json";
    if (format === "xlsx" || mapping || report.mapping) {
      // a workbook, and an export read through a mapping, go up as the JSON they convert to,
      // as `syncfile push` sends them: the service reads its own layout only
      const done = await runJob(
        { type: "convert", file, format, to: "json", ...(mapping ? { mapping } : {}) },
        `Converting ${file.name} to JSON`,
      );
      if (done?.type !== "converted" || !done.output) {
        status(`Not pushed: ${file.name} could not be converted to JSON.`);
        return;
      }
      body = done.output;
      name = file.name.replace(/\.(xls[xm]|csv)$/i, ".json");
      sent = "json";
    }
    const guard = await compareBeforePush(target, account, { file: body, format: sent }, status, signal);
    if (guard === "stop") return;
    if (guard && !allowDeletes) {
      status(
        `Not pushed: this push would remove or deactivate ${guard.deletes} users of app account ${account}, more than the guard allows (${guard.maxDeletes}). The first of them: ${guard.takenAway.join(", ")}. Check the file (an export cut short? a filter, the wrong sheet?), or push anyway.`,
      );
      ui.pushGuard.hidden = false;
      return;
    }
    const summary = await pushFile(target, { body, name, format: sent }, account, {
      signal,
      onStep: status,
      onWait: waiting(ui.pushStatus, ui.pushWait),
      allowDeletes,
    });
    status(`Synced ${name} into app account ${summary.idAppAccount}.`);
    ui.pushResult.append(summaryTable(summary));
  } catch (error) {
    status(signal.aborted ? "Push cancelled." : error instanceof Error ? error.message : String(error));
    const body = error instanceof ServiceError ? error.body : null;
    if (isReport(body?.report)) showReport(ui.pushResult, body.report);
    // the service's own guard (syncfile serve --max-deletes) refused: nothing was applied
    if (body?.guard && !allowDeletes) ui.pushGuard.hidden = false;
  } finally {
    pushing = null;
    ui.pushCancel.hidden = true;
  }
}

/** The changes listed of each kind, and the users taken away named. */
const LISTED = 20;

/**
 * Compares `now` with the account's previous state (the file under Compare with, else the
 * service's record of its last sync) and shows the changes. Resolves to the guard's refusal
 * when the push takes away more users than it allows, null when it may go on, and "stop" when
 * it must not (the comparison failed or was stopped: the status says why).
 */
async function compareBeforePush(
  target: Service,
  account: number,
  now: { file: Blob; format: "json" | "csv" },
  status: (text: string) => void,
  signal: AbortSignal,
): Promise<{ deletes: number; maxDeletes: number; takenAway: string[] } | null | "stop"> {
  const chosenPrevious = ui.previous.files?.[0];
  let old: { file: Blob; format: InputFormat };
  let against: string;
  if (chosenPrevious) {
    old = { file: chosenPrevious, format: formatOf(chosenPrevious.name) };
    against = chosenPrevious.name;
  } else {
    status("Reading the account's previous state…");
    const previous = await previousState(target, account, {
      signal,
      onWait: waiting(ui.pushStatus, ui.pushWait),
    });
    if (!previous.found) {
      ui.pushChanges.append(paragraph(`Nothing to compare with: ${previous.why}.`, "note"));
      return null;
    }
    old = { file: previous.file, format: previous.format };
    against = `the account's last sync (sync ${previous.idSync}, file ${previous.idFile})`;
  }
  status("Comparing with the account's previous state…");
  const done = await runJob({ type: "diff", old, now, limit: LISTED }, "Comparing with the previous state");
  if (done?.type !== "diffed") {
    status("Not pushed: the comparison with the previous state did not finish.");
    return "stop";
  }
  const { result, listed, takenAway } = done;
  if (!result.old.valid) {
    status(
      `Not pushed: the previous state, ${against}, is not a valid data file (${result.old.counts.error} errors): choose another file under Compare with, or clear it.`,
    );
    return "stop";
  }
  const maxDeletes = defaultMaxDeletes(result.oldActiveUsers);
  showChanges(against, result.counts, listed, result.deletes, maxDeletes);
  return result.deletes > maxDeletes ? { deletes: result.deletes, maxDeletes, takenAway } : null;
}

/** The changes a push makes: the counts, the users taken away, then the first changes of each kind. */
function showChanges(
  against: string,
  counts: ChangeCounts,
  listed: [Change["kind"], Change[]][],
  deletes: number,
  maxDeletes: number,
): void {
  const total = totalOf(counts);
  const out: HTMLElement[] = [
    subheading(`Changes against ${against}: ${total === 0 ? "none" : `${total}`}`),
    ...countLines(counts).map((line) => paragraph(line, "stats")),
    paragraph(
      `users taken away: ${deletes} (the guard allows ${maxDeletes})`,
      deletes > maxDeletes ? "stats refused" : "stats",
    ),
  ];
  for (const [kind, changes] of listed) {
    const more = counts[kind] - changes.length;
    out.push(
      table(
        `${kind} (${counts[kind]})${more > 0 ? `: the first ${changes.length}` : ""}`,
        ["change"],
        changes.map((change) => [text(describeChange(change))]),
      ),
    );
  }
  ui.pushChanges.replaceChildren(...out);
}

function subheading(content: string): HTMLElement {
  const h = document.createElement("h3");
  h.textContent = content;
  return h;
}

function paragraph(content: string, className: string): HTMLElement {
  const p = document.createElement("p");
  p.className = className;
  p.textContent = content;
  return p;
}

/** Whether the service's `report` has the shape the report section reads (it is shown only then). */
function isReport(report: unknown): report is Report {
  const r = report as Partial<Report> | null | undefined;
  return (
    typeof r === "object" &&
    r !== null &&
    Array.isArray(r.findings) &&
    typeof r.counts?.byCode === "object" &&
    typeof r.stats === "object" &&
    r.stats !== null
  );
}

function summaryTable(summary: SyncSummary): HTMLTableElement {
  const rows: [string, string][] = [
    ["sync", String(summary.idSync)],
    ["file", String(summary.idFile)],
    ["format", summary.format],
    ["users", `${summary.users} (${summary.activeUsers} active)`],
    ["licenses", String(summary.licenses)],
    ["license users", String(summary.licenseUsers)],
    ["warnings", String(summary.warnings)],
    ["display currency", summary.displayCurrency],
    ["took", `${summary.durationMs} ms`],
  ];
  return table(
    "The sync's summary",
    ["what", "value"],
    rows.map(([k, v]) => [text(k), text(v)]),
  );
}

// ── access reviews ──

// a busy button stays enabled (disabling it would drop the keyboard's focus): a second
// press while it works does nothing
let listing = false;
ui.reviews.addEventListener("click", async () => {
  const target = service(false);
  if (!target || listing) return;
  listing = true;
  ui.reviewsStatus.textContent = "Listing the executions…";
  ui.reviewsResult.replaceChildren();
  try {
    const executions = await listExecutions(target, { onWait: waiting(ui.reviewsStatus, ui.reviewsWait) });
    const buckets = Object.entries(executions.buckets);
    const count = buckets.reduce((n, [, list]) => n + list.length, 0);
    ui.reviewsStatus.textContent = `${count} executions.`;
    for (const [bucket, list] of buckets) ui.reviewsResult.append(executionsTable(target, bucket, list));
  } catch (error) {
    ui.reviewsStatus.textContent = error instanceof Error ? error.message : String(error);
  } finally {
    listing = false;
  }
});

function executionsTable(target: Service, bucket: string, list: Execution[]): HTMLTableElement {
  const rows = list.map((execution) => {
    const cell = document.createElement("td");
    if (execution.reportFileId !== null) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `Download report ${execution.reportFileId}`;
      let downloading = false;
      button.addEventListener("click", async () => {
        if (downloading) return;
        downloading = true;
        try {
          const blob = await downloadFile(target, execution.reportFileId as number, {
            onWait: waiting(ui.reviewsStatus, ui.reviewsWait),
          });
          save(blob, `campaign-${execution.campaignId}-execution-${execution.id}.zip`);
          ui.reviewsStatus.textContent = `Downloaded the report of execution ${execution.id}.`;
        } catch (error) {
          ui.reviewsStatus.textContent = error instanceof Error ? error.message : String(error);
        } finally {
          downloading = false;
        }
      });
      cell.append(button);
    } else {
      cell.textContent = isRunningBucket(bucket) ? "running: no report yet" : "report being made";
    }
    return [
      text(String(execution.id)),
      text(execution.campaignName),
      text(execution.state),
      text(execution.completionTime ?? "—"),
      cell,
    ];
  });
  return table(`${bucket} (${list.length})`, ["execution", "campaign", "state", "completed", "report"], rows);
}

// ── shared bits ──

function text(value: string): HTMLTableCellElement {
  const cell = document.createElement("td");
  cell.textContent = value;
  return cell;
}

function table(caption: string, headings: string[], rows: HTMLTableCellElement[][]): HTMLTableElement {
  const element = document.createElement("table");
  element.createCaption().textContent = caption;
  const head = element.createTHead().insertRow();
  for (const heading of headings) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = heading;
    head.append(th);
  }
  const body = element.createTBody();
  for (const cells of rows) body.insertRow().append(...cells);
  return element;
}

// ── the codes ──

for (const [code, entry] of Object.entries(catalog)) {
  const term = document.createElement("dt");
  term.id = `code-${code}`;
  term.innerHTML = `<code></code> <span class="${entry.severity}"></span> `;
  (term.firstChild as HTMLElement).textContent = code;
  (term.children[1] as HTMLElement).textContent = entry.severity;
  term.append(entry.title);
  const detail = document.createElement("dd");
  detail.textContent = `How to fix: ${entry.hint.replace(/\{\w+\}/g, "…")}`;
  ui.codes.append(term, detail);
}

/** A code's link (#code-…) opens the list and shows the code. */
function showCode(): void {
  if (!location.hash.startsWith("#code-")) return;
  ui.codesDetails.open = true;
  document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}
window.addEventListener("hashchange", showCode);
showCode();
