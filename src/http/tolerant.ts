// Reading the service's answers tolerantly ("Tolerant reading" in docs/push-download-reports.md):
// the upload parameters wrapped or flat, every array-valued `…Executions` key as a bucket, the
// report's file id found by its name.
// Where our server and the real service differ in a guess, the client (and the page) keep working.

import type {
  Execution,
  ExecutionState,
  FileInformation,
  FileType,
  UploadFileParameters,
} from "./operations.js";

/** Executions by bucket, as the service sent them (the three known buckets always present). */
export interface Executions {
  completedExecutions: Execution[];
  archivedExecutions: Execution[];
  inProgressExecutions: Execution[];
  /** Every bucket by its key, including ones this client does not know. */
  buckets: Record<string, Execution[]>;
  /** How many items each bucket held as sent, the ones that could not be read included. */
  sizes: Record<string, number>;
}

type Json = Record<string, unknown>;

/** `{uploadFileParameters: {url, filePath}}` or `{url, filePath}` (or `path`). */
export function readUploadParameters(body: unknown): UploadFileParameters | null {
  const outer = asObject(body);
  const inner = asObject(outer?.uploadFileParameters) ?? outer;
  const url = inner?.url ?? inner?.uploadUrl;
  const filePath = inner?.filePath ?? inner?.path;
  return typeof url === "string" && typeof filePath === "string" ? { url, filePath } : null;
}

/** `{file: {id, type, fileName, creationTime, uploadedBy}}`, or the file flat; ids as numbers or digits. */
export function readFileInformation(body: unknown): FileInformation["file"] | null {
  const outer = asObject(body);
  const file = asObject(outer?.file) ?? outer;
  const id = asId(file?.id);
  const type = asString(file?.type);
  const fileName = asString(file?.fileName) ?? asString(file?.name);
  if (id === null || type === null || fileName === null) return null;
  return {
    id,
    type: type as FileType,
    fileName,
    creationTime: asString(file?.creationTime) ?? "",
    uploadedBy: asId(file?.uploadedBy),
  };
}

/** The id of a registered file: `id`, `idFile` or `fileId`. */
export function readFileId(body: unknown): number | null {
  const object = asObject(body);
  return asId(object?.id) ?? asId(object?.idFile) ?? asId(object?.fileId);
}

/** Every array under a key ending in "Executions" is a bucket; its executions read tolerantly. */
export function readExecutions(body: unknown): Executions | null {
  const object = asObject(body);
  if (!object) return null;
  const buckets: Record<string, Execution[]> = {};
  const sizes: Record<string, number> = {};
  for (const [key, value] of Object.entries(object)) {
    if (!/executions$/i.test(key) || !Array.isArray(value)) continue;
    sizes[key] = value.length;
    buckets[key] = value.flatMap((item) => {
      const execution = readExecution(item, key);
      return execution ? [execution] : [];
    });
  }
  if (Object.keys(buckets).length === 0) return null;
  return {
    completedExecutions: buckets.completedExecutions ?? [],
    archivedExecutions: buckets.archivedExecutions ?? [],
    inProgressExecutions: buckets.inProgressExecutions ?? [],
    buckets,
    sizes,
  };
}

/** True for a bucket of executions still running (their reports do not exist yet). */
export function isRunningBucket(key: string): boolean {
  return /inprogress|running|active|pending|ongoing/i.test(key);
}

function readExecution(item: unknown, bucket: string): Execution | null {
  const object = asObject(item);
  const id = asId(object?.id) ?? asId(object?.idExecution) ?? asId(object?.executionId);
  if (!object || id === null) return null;
  const completionTime = asString(object.completionTime ?? object.completedAt ?? object.endTime);
  return {
    id,
    campaignId: asId(object.campaignId ?? object.idCampaign) ?? 0,
    campaignName:
      asString(object.campaignName ?? object.name) ?? `campaign ${String(object.campaignId ?? "")}`,
    state: stateIn(object.state ?? object.status) ?? stateOf(bucket),
    startTime: asString(object.startTime ?? object.startedAt) ?? "",
    completionTime,
    reportFileId: readReportId(object),
  };
}

/** `reportFileId`, else the first key that names a report and an id (reportId, idReportFile, …). */
function readReportId(object: Json): number | null {
  if ("reportFileId" in object) return asId(object.reportFileId);
  const key = Object.keys(object).find((k) => /report/i.test(k) && /id/i.test(k));
  if (key !== undefined) return asId(object[key]);
  const report = asObject(object.report);
  return report ? (asId(report.fileId) ?? asId(report.id)) : null;
}

const STATES: readonly string[] = ["inProgress", "completed", "endedEarly", "archived"];

function stateIn(value: unknown): ExecutionState | null {
  return typeof value === "string" && STATES.includes(value) ? (value as ExecutionState) : null;
}

function stateOf(bucket: string): ExecutionState {
  if (/archiv/i.test(bucket)) return "archived";
  return isRunningBucket(bucket) ? "inProgress" : "completed";
}

function asObject(value: unknown): Json | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

function asId(value: unknown): number | null {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === "string" && /^[1-9]\d{0,15}$/.test(value)) return Number(value);
  return null;
}

function asString(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}
