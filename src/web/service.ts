// The service's interface from the page, with fetch: the upload procedure and the sync, the
// access-review executions and their report archives. The same operations as the client's
// (src/http/operations.ts), against any base URL the user gives: ours, or the real service's
// (`syncfile serve --cors ORIGIN` lets a page elsewhere call ours). A 429 is waited out as its
// Retry-After says, and a 409 (a sync already running) every few seconds, each shown to the
// user as a countdown.

import { type Clock, systemClock } from "../http/Clock.js";
import { ALLOW_DELETES_HEADER, OPERATIONS, type SyncList, type SyncSummary } from "../http/operations.js";
import { retryAfterMs } from "../http/retryAfter.js";
import { type Executions, readExecutions, readFileId, readUploadParameters } from "../http/tolerant.js";
import { whileSyncRuns } from "../http/whileSyncRuns.js";

/** Where the service is and the key to call it with. */
export interface Service {
  base: string;
  key: string;
}

/** A refusal: the status, the service's message and, for an invalid file, its report. */
export class ServiceError extends Error {
  readonly status: number;
  readonly body: ErrorBody | null;

  constructor(status: number, message: string, body: ErrorBody | null) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** What a refusal's body may hold: its message, an invalid file's report, the guard's refusal. */
export interface ErrorBody {
  message?: string;
  report?: unknown;
  /** syncfile serve --max-deletes refused the sync: nothing was applied. */
  guard?: { deletes: number; maxDeletes: number; takenAway: string[] };
}

/** Told while a call waits: why, and the seconds left. */
export type OnWait = (why: string, secondsLeft: number) => void;

/** How a call is followed: told why and how long it waits, and stopped by `signal`. */
export interface CallOptions {
  onWait: OnWait;
  signal?: AbortSignal;
  /** The time waits are counted on: the system's, or one a test moves. */
  clock?: Clock;
}

/** A file to push: its bytes, the name it goes up under, and whether it is JSON or CSV. */
export interface Upload {
  body: Blob;
  name: string;
  format: "json" | "csv";
}

/** How long a 409 is retried before the push gives up (ms), and how often (ms). */
const SYNC_WAIT_MS = 10 * 60_000;
const SYNC_POLL_MS = 5_000;
/** A 429 is retried this many times; without a readable Retry-After, after this long (ms). */
const RATE_RETRIES = 5;
const RATE_WAIT_MS = 1_000;

/** Uploads `upload` (three steps) and syncs it into `appAccount`; resolves to the sync's summary. */
export async function pushFile(
  service: Service,
  upload: Upload,
  appAccount: number,
  options: CallOptions & { onStep: (step: string) => void; allowDeletes?: boolean },
): Promise<SyncSummary> {
  const { body, name, format } = upload;
  const contentType = format === "csv" ? "text/csv" : "application/json";
  options.onStep("Asking for an upload URL…");
  const query = new URLSearchParams({ name, type: contentType });
  const answer = await call(service, "GET", `${OPERATIONS.fileUploadUrl.path}?${query}`, null, options);
  const parameters = readUploadParameters(answer);
  if (!parameters) throw new ServiceError(0, "the service's upload URL answer has no url and filePath", null);
  options.onStep(`Uploading ${name}…`);
  const put = await withRateRetries(
    () =>
      fetch(new URL(parameters.url, service.base), {
        method: "PUT",
        headers: { "content-type": contentType },
        body,
        ...signalOf(options),
      }),
    options,
  );
  if (!put.ok) throw await failure(put, "the upload to storage");
  options.onStep("Registering the file…");
  const registered = await call(
    service,
    "POST",
    OPERATIONS.registerFile.path,
    { path: parameters.filePath, type: "customIntegrationData" },
    options,
  );
  const idFile = readFileId(registered);
  if (idFile === null) throw new ServiceError(0, "the service registered the file without an id", null);
  options.onStep("Syncing…");
  const path = OPERATIONS[format === "csv" ? "syncGluu" : "syncCustom"].path;
  return whileSyncRuns(
    async () =>
      (await call(service, "PUT", path, { idFile, idAppAccount: appAccount }, options, {
        // past a guard of the service's own (syncfile serve --max-deletes); others ignore it
        ...(options.allowDeletes ? { [ALLOW_DELETES_HEADER]: "true" } : {}),
      })) as SyncSummary,
    // a 409 of the guard is a refusal, not a sync running: it is not waited on
    (error): error is ServiceError =>
      error instanceof ServiceError && error.status === 409 && !error.body?.guard,
    {
      now: () => clockOf(options).now(),
      sleep: async (ms) => {
        await countdown(ms, "Another sync of this app account is running; trying again in", options);
        options.onStep("Syncing…");
      },
    },
    { waitMs: SYNC_WAIT_MS, pollMs: SYNC_POLL_MS },
  );
}

/** The file an app account holds now, as the service's history says (syncfile serve's own reads). */
export type PreviousState =
  | { found: true; file: Blob; format: "json" | "csv"; idSync: number; idFile: number }
  | { found: false; why: string };

/**
 * The file of the sync that made `appAccount`'s state, downloaded: read from the account's
 * syncs (GET /v1.0/appAccounts/{id}/syncs, which syncfile serve answers). A service without
 * that read, or an account not synced yet, has none: `why` says which.
 */
export async function previousState(
  service: Service,
  appAccount: number,
  options: CallOptions,
): Promise<PreviousState> {
  const path = OPERATIONS.appAccountSyncs.path.replace(":id", String(appAccount));
  let list: SyncList;
  try {
    list = (await call(service, "GET", `${path}?limit=100`, null, options)) as SyncList;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) {
      return {
        found: false,
        why: `app account ${appAccount} has no sync the service can tell of: a first push, or a service that keeps no history (choose the file it holds to compare with)`,
      };
    }
    throw error;
  }
  const current = Array.isArray(list.syncs) ? list.syncs.find((sync) => sync.current) : undefined;
  if (!current) {
    return { found: false, why: `app account ${appAccount} holds no synced file: a first push` };
  }
  const file = await downloadFile(service, current.idFile, options);
  return { found: true, file, format: current.format, idSync: current.idSync, idFile: current.idFile };
}

/** The access-review executions, by bucket (read tolerantly, as the client does). */
export async function listExecutions(service: Service, options: CallOptions): Promise<Executions> {
  const body = await call(service, "GET", OPERATIONS.listExecutions.path, null, options);
  const executions = readExecutions(body);
  if (!executions) throw new ServiceError(0, "the service's answer has no …Executions lists", null);
  return executions;
}

/** The report archive of file `id`: the download redirects to storage, which fetch follows. */
export async function downloadFile(service: Service, id: number, options: CallOptions): Promise<Blob> {
  const path = OPERATIONS.downloadFile.path.replace(":id", String(id));
  const response = await withRateRetries(
    () => fetch(urlOf(service, path), { headers: auth(service), ...signalOf(options) }),
    options,
  );
  if (!response.ok) throw await failure(response, `the download of file ${id}`);
  return response.blob();
}

/** `path` under the service's URL, whose own path (a gateway's prefix) is kept. */
function urlOf(service: Service, path: string): string {
  return `${service.base.replace(/\/+$/, "")}${path}`;
}

function signalOf(options: CallOptions): { signal?: AbortSignal } {
  return options.signal ? { signal: options.signal } : {};
}

async function call(
  service: Service,
  method: string,
  path: string,
  body: unknown,
  options: CallOptions,
  extraHeaders: Record<string, string> = {},
) {
  const headers: Record<string, string> = { ...auth(service), ...extraHeaders };
  if (body !== null) headers["content-type"] = "application/json";
  const response = await withRateRetries(
    () =>
      fetch(urlOf(service, path), {
        method,
        headers,
        ...(body !== null ? { body: JSON.stringify(body) } : {}),
        ...signalOf(options),
      }),
    options,
  );
  if (!response.ok) throw await failure(response, `${method} ${path.split("?")[0]}`);
  return (await response.json()) as unknown;
}

function auth(service: Service): Record<string, string> {
  return { authorization: `Bearer ${service.key}` };
}

/** `send`, again after each 429 once its Retry-After has passed. */
async function withRateRetries(send: () => Promise<Response>, options: CallOptions): Promise<Response> {
  for (let retry = 0; ; retry++) {
    let response: Response;
    try {
      response = await send();
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new ServiceError(
        0,
        `the service did not answer (${error instanceof Error ? error.message : String(error)}): check the service URL, and that it allows this page (syncfile serve --cors)`,
        null,
      );
    }
    if (response.status !== 429 || retry >= RATE_RETRIES) return response;
    const waitMs = retryAfterMs(response.headers.get("retry-after"), clockOf(options).now()) ?? RATE_WAIT_MS;
    await response.body?.cancel();
    await countdown(waitMs, "The service's rate limit was reached; trying again, as it asks, in", options);
  }
}

function clockOf(options: CallOptions): Clock {
  return options.clock ?? systemClock;
}

/** Waits `ms`, telling `onWait` every second how long is left; rejects once `signal` aborts. */
async function countdown(ms: number, why: string, options: CallOptions): Promise<void> {
  const clock = clockOf(options);
  const end = clock.now() + ms;
  for (let left = ms; left > 0; left = end - clock.now()) {
    options.signal?.throwIfAborted();
    options.onWait(why, Math.ceil(left / 1000));
    await clock.sleep(Math.min(1000, left), options.signal);
  }
  options.signal?.throwIfAborted();
  options.onWait(why, 0);
}

async function failure(response: Response, what: string): Promise<ServiceError> {
  const text = await response.text().catch(() => "");
  let body: ErrorBody | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the text itself says what went wrong
  }
  const message = body?.message ?? (text.trim().slice(0, 200) || response.statusText);
  return new ServiceError(response.status, `${what} was refused (${response.status}): ${message}`, body);
}
