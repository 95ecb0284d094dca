// The page's worker: validates or converts the chosen file with the library, in the browser
// (nothing leaves the machine), away from the page's thread so the tab stays responsive. The
// file is read as a stream, so its size is bounded by the time it takes, not by memory; the
// page is told the bytes read a few times a second.

import {
  CHANGE_KINDS,
  type Change,
  Conversion,
  convertWorkbook,
  diffBlobs,
  type Excerpt,
  excerptFrom,
  excerptWindow,
  type Finding,
  type Report,
  takesAway,
  Validation,
  validateWorkbook,
} from "../browser.js";
import { blobRange } from "../bytes/ByteRange.js";
import type { MappingDocument } from "../mapping/MappingDocument.js";
import { readMapping } from "../mapping/readMapping.js";
import { inspectExport, mappingName } from "../validate/inspectExport.js";
import type { DiffSideJob, Job, JobMapping, JobMessage } from "./protocol.js";

/** How often progress is told, at most (ms). */
const PROGRESS_EVERY_MS = 100;
/** The findings given their source line (each costs a read of the file). */
const MAX_EXCERPTS = 200;

interface WorkerScope {
  onmessage: ((event: MessageEvent<Job>) => void) | null;
  postMessage(message: JobMessage): void;
}
const scope = globalThis as unknown as WorkerScope;

scope.onmessage = (event) => {
  run(event.data).catch((error: unknown) =>
    scope.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) }),
  );
};

async function run(job: Job): Promise<void> {
  if (job.type === "diff") {
    await compare(job);
    return;
  }
  const { file, format } = job;
  if (job.type === "inspect") {
    const source =
      job.format === "xlsx"
        ? { format: job.format, range: blobRange(file) }
        : { format: job.format, chunks: chunksOf(file) };
    scope.postMessage({ type: "inspected", inspection: await inspectExport(source, mappingName(file.name)) });
    return;
  }
  // a workbook is read from the File itself (its parts are found from the end); its findings
  // are cells, with no source line
  const workbook = format === "xlsx";
  const mapping = mappingOf(job);
  const options = { format, file: file.name, ...(mapping ? { mapping } : {}) };
  const onProgress = throttled((bytes) => scope.postMessage({ type: "progress", bytes, total: file.size }));
  if (job.type === "validate") {
    let report: Report;
    if (workbook) report = await validateWorkbook(file, { ...options, onProgress });
    else {
      const validation = new Validation(options);
      await read(file, validation, onProgress);
      report = validation.end();
    }
    done(file);
    scope.postMessage({
      type: "report",
      report,
      excerpts: workbook ? [] : await excerpts(file, report.findings),
      ...(mapping && job.mappingText ? { mapping } : {}),
    });
    return;
  }
  const parts: Uint8Array<ArrayBuffer>[] = [];
  // each chunk copied: the writer may reuse its buffer
  const out = { bytes: (chunk: Uint8Array) => parts.push(new Uint8Array(chunk)) };
  let report: Report;
  if (workbook) report = await convertWorkbook(file, { ...options, onProgress, to: job.to }, out);
  else {
    const conversion = new Conversion({ ...options, to: job.to }, out);
    await read(file, conversion, onProgress);
    report = conversion.end();
  }
  done(file);
  const type = job.to === "csv" ? "text/csv" : "application/json";
  scope.postMessage({ type: "converted", report, output: report.valid ? new Blob(parts, { type }) : null });
}

/** Compares the file to push with the previous state; tells the counts and the first changes of each kind. */
async function compare(job: Extract<Job, { type: "diff" }>): Promise<void> {
  const listed = new Map<Change["kind"], Change[]>();
  const takenAway: string[] = [];
  const side = ({ file, format }: DiffSideJob) => ({
    blob: file,
    options: { format, file: file instanceof File ? file.name : `file.${format}` },
  });
  const result = await diffBlobs(side(job.old), side(job.now), (change) => {
    const kind = listed.get(change.kind) ?? [];
    if (kind.length < job.limit) kind.push(change);
    listed.set(change.kind, kind);
    if (takesAway(change) && takenAway.length < job.limit) takenAway.push(change.email);
  });
  const kinds = CHANGE_KINDS.filter((kind) => listed.has(kind));
  scope.postMessage({
    type: "diffed",
    result,
    listed: kinds.map((kind) => [kind, listed.get(kind) ?? []]),
    takenAway,
  });
}

/** The job's mapping: the document given, or the one its text holds (a MappingError says where it is wrong). */
function mappingOf(job: JobMapping): MappingDocument | undefined {
  if (job.mappingText) return readMapping(job.mappingText.text, job.mappingText.name);
  return job.mapping;
}

/** A File's bytes as chunks. */
async function* chunksOf(file: File): AsyncGenerator<Uint8Array> {
  const reader = file.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** `tell`, called at most every PROGRESS_EVERY_MS. */
function throttled(tell: (bytes: number) => void): (bytes: number) => void {
  let told = Number.NEGATIVE_INFINITY;
  return (bytes) => {
    const now = performance.now();
    if (now - told < PROGRESS_EVERY_MS) return;
    told = now;
    tell(bytes);
  };
}

/** The bar full: the whole file is read, or what stopped reading has been reached. */
function done(file: File): void {
  scope.postMessage({ type: "progress", bytes: file.size, total: file.size });
}

/** Streams `file` into `pass`, telling progress; stops early once the pass has stopped reading. */
async function read(
  file: File,
  pass: { push(chunk: Uint8Array): void; readonly stopped: boolean },
  onProgress: (bytes: number) => void,
) {
  const reader = file.stream().getReader();
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pass.push(value);
      bytes += value.length;
      if (pass.stopped) break;
      onProgress(bytes);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** The source lines of the first located findings, read back from the file by byte offset. */
async function excerpts(file: File, findings: readonly Finding[]): Promise<[number, Excerpt][]> {
  const out: [number, Excerpt][] = [];
  for (const [i, f] of findings.entries()) {
    if (out.length >= MAX_EXCERPTS) break;
    if (f.offset === undefined || f.line === undefined || f.code === "file.type") continue;
    const { start, end } = excerptWindow(f.offset);
    const window = new Uint8Array(await file.slice(start, end).arrayBuffer());
    const excerpt = excerptFrom(window, start, f.offset, f.line);
    if (excerpt) out.push([i, excerpt]);
  }
  return out;
}
