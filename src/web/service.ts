// The service's interface from the page, with fetch: the upload procedure and the sync, the
// access-review executions and their report archives. The same operations as the client's
// (src/http/operations.ts), against any base URL the user gives: ours, or the real service's
// (`syncfile serve --cors ORIGIN` lets a page elsewhere call ours). A 429 is waited out as its
// Retry-After says, and a 409 (a sync already running) every few seconds, each shown to the
// user as a countdown.

import { OPERATIONS, type SyncSummary } from "../http/operations.js";
import { type Executions, readExecutions, readFileId, readUploadParameters } from "../http/tolerant.js";

/** Where the service is and the key to call it with. */
export interface Service {
  base: string;
  key: string;
}

/** A refusal: the status, the service's message and, for an invalid file, its report. */
export class ServiceError extends Error {
  readonly status: number;
  readonly body: { message?: string; report?: unknown } | null;

  constructor(status: number, message: string, body: { message?: string; report?: unknown } | null) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** Told while a call waits: why, and the seconds left. */
export type OnWait = (why: string, secondsLeft: number) => void;

/** How long a 409 is retried before the push gives up (ms), and how often (ms). */
const SYNC_WAIT_MS = 10 * 60_000;
const SYNC_POLL_MS = 5_000;
/** A 429 is retried this many times. */
const RATE_RETRIES = 5;

/** Uploads `file` (three steps) and syncs it into `appAccount`; resolves to the sync's summary. */
export async function pushFile(
  service: Service,
  file: Blob,
  name: string,
  format: "json" | "csv",
  appAccount: number,
  onStep: (step: string) => void,
  onWait: OnWait,
): Promise<SyncSummary> {
  const contentType = format === "csv" ? "text/csv" : "application/json";
  onStep("Asking for an upload URL…");
  const query = new URLSearchParams({ name, type: contentType });
  const upload = await call<unknown>(
    service,
    "GET",
    `${OPERATIONS.fileUploadUrl.path}?${query}`,
    null,
    onWait,
  );
  const parameters = readUploadParameters(upload);
  if (!parameters) throw new ServiceError(0, "the service's upload URL answer has no url and filePath", null);
  const { url, filePath } = parameters;
  onStep(`Uploading ${name}…`);
  const put = await withRateRetries(
    () =>
      fetch(new URL(url, service.base), {
        method: "PUT",
        headers: { "content-type": contentType },
        body: file,
      }),
    onWait,
  );
  if (!put.ok) throw await failure(put, "the upload to storage");
  onStep("Registering the file…");
  const registered = await call<unknown>(
    service,
    "POST",
    OPERATIONS.registerFile.path,
    { path: filePath, type: "customIntegrationData" },
    onWait,
  );
  const idFile = readFileId(registered);
  if (idFile === null) throw new ServiceError(0, "the service registered the file without an id", null);
  onStep("Syncing…");
  const path = OPERATIONS[format === "csv" ? "syncCustomCsv" : "syncCustom"].path;
  const started = Date.now();
  for (;;) {
    try {
      return await call<SyncSummary>(service, "PUT", path, { idFile, idAppAccount: appAccount }, onWait);
    } catch (error) {
      if (!(error instanceof ServiceError) || error.status !== 409 || Date.now() - started > SYNC_WAIT_MS)
        throw error;
      await countdown(
        SYNC_POLL_MS,
        `another sync of this app account is running (${error.message}); trying again`,
        onWait,
      );
      onStep("Syncing…");
    }
  }
}

/** The access-review executions, by bucket (read tolerantly, as the client does). */
export async function listExecutions(service: Service, onWait: OnWait): Promise<Executions> {
  const body = await call<unknown>(service, "GET", OPERATIONS.listExecutions.path, null, onWait);
  const executions = readExecutions(body);
  if (!executions) throw new ServiceError(0, "the service's answer has no …Executions lists", null);
  return executions;
}

/** The report archive of file `id`: the download redirects to storage, which fetch follows. */
export async function downloadFile(service: Service, id: number, onWait: OnWait): Promise<Blob> {
  const path = OPERATIONS.downloadFile.path.replace(":id", String(id));
  const response = await withRateRetries(
    () => fetch(new URL(path, service.base), { headers: auth(service) }),
    onWait,
  );
  if (!response.ok) throw await failure(response, `the download of file ${id}`);
  return response.blob();
}

async function call<T>(
  service: Service,
  method: string,
  path: string,
  body: unknown,
  onWait: OnWait,
): Promise<T> {
  const headers: Record<string, string> = auth(service);
  if (body !== null) headers["content-type"] = "application/json";
  const response = await withRateRetries(
    () =>
      fetch(new URL(path, service.base), {
        method,
        headers,
        ...(body !== null ? { body: JSON.stringify(body) } : {}),
      }),
    onWait,
  );
  if (!response.ok) throw await failure(response, `${method} ${path.split("?")[0]}`);
  return (await response.json()) as T;
}

function auth(service: Service): Record<string, string> {
  return { authorization: `Bearer ${service.key}` };
}

/** `send`, again after each 429 once its Retry-After has passed. */
async function withRateRetries(send: () => Promise<Response>, onWait: OnWait): Promise<Response> {
  for (let retry = 0; ; retry++) {
    let response: Response;
    try {
      response = await send();
    } catch (error) {
      throw new ServiceError(
        0,
        `the service did not answer (${error instanceof Error ? error.message : String(error)}): check the service URL, and that it allows this page (syncfile serve --cors)`,
        null,
      );
    }
    if (response.status !== 429 || retry >= RATE_RETRIES) return response;
    const seconds = Number(response.headers.get("retry-after")) || 1;
    await response.body?.cancel();
    await countdown(seconds * 1000, "the service's rate limit was reached; waiting as it asks", onWait);
  }
}

/** Waits `ms`, telling `onWait` every second how long is left. */
async function countdown(ms: number, why: string, onWait: OnWait): Promise<void> {
  const end = Date.now() + ms;
  for (let left = ms; left > 0; left = end - Date.now()) {
    onWait(why, Math.ceil(left / 1000));
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, left)));
  }
}

async function failure(response: Response, what: string): Promise<ServiceError> {
  const text = await response.text().catch(() => "");
  let body: { message?: string; report?: unknown } | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the text itself says what went wrong
  }
  const message = body?.message ?? (text.trim().slice(0, 200) || response.statusText);
  return new ServiceError(response.status, `${what} was refused (${response.status}): ${message}`, body);
}
