// The HTTP interface the server serves and the client calls: each operation with its method,
// path and rate limit (per API key, per minute), the file types, and the shapes both agree
// on. docs/serve.md lists them (Endpoints), and docs/decisions.md says where they are guesses.

import type { Change, ChangeCounts } from "../diff/Change.js";

/** The operations of the interface, by name. */
export const OPERATIONS = {
  fileUploadUrl: { method: "GET", path: "/v1.0/files/url", perMinute: 200 },
  registerFile: { method: "POST", path: "/v1.0/files", perMinute: 200 },
  uploadSmallFile: { method: "POST", path: "/v1.0/files/upload", perMinute: 200 },
  fileInformation: { method: "GET", path: "/v1.0/files/:id", perMinute: 600 },
  downloadFile: { method: "GET", path: "/v1.0/files/:id/download", perMinute: 600 },
  syncCustom: { method: "PUT", path: "/v1.0/services/sync/custom", perMinute: 200 },
  syncGluu: { method: "PUT", path: "/v1.0/services/sync/gluu", perMinute: 200 },
  // the CSV sync's path before syncfile followed the service's document: an alias of syncGluu,
  // counted in its rate limit
  syncCustomCsv: { method: "PUT", path: "/v1.0/services/sync/custom/csv", perMinute: 200 },
  listExecutions: { method: "GET", path: "/v1.0/accessReviews/campaigns", perMinute: 600 },
  appAccount: { method: "GET", path: "/v1.0/appAccounts/:id", perMinute: 600 },
  appAccountUsers: { method: "GET", path: "/v1.0/appAccounts/:id/users", perMinute: 600 },
  appAccountSyncs: { method: "GET", path: "/v1.0/appAccounts/:id/syncs", perMinute: 600 },
  syncChanges: { method: "GET", path: "/v1.0/appAccounts/:id/syncs/:syncId/changes", perMinute: 600 },
} as const;

/**
 * The operations that are this server's own, not the service's (the service's interface
 * document has no read of what a sync made): the OpenAPI document marks them x-syncfile-extension.
 */
export const EXTENSIONS: ReadonlySet<Operation> = new Set([
  "appAccount",
  "appAccountUsers",
  "appAccountSyncs",
  "syncChanges",
]);

/**
 * A header of ours: a sync sent with it goes ahead though it takes away more users than the
 * server's --max-deletes. Any other server ignores a header it does not know.
 */
export const ALLOW_DELETES_HEADER = "syncfile-allow-deletes";

/** The name of an operation. */
export type Operation = keyof typeof OPERATIONS;

/** Operations that are another's under an older path: they count in that one's rate limit. */
export const ALIASES: Readonly<Partial<Record<Operation, Operation>>> = { syncCustomCsv: "syncGluu" };

/** The window of every rate limit. */
export const RATE_WINDOW_MS = 60_000;

/** What a file registered with POST /v1.0/files is for. */
export const FILE_TYPES = ["customIntegrationData", "expenseReport", "attachment", "plugin"] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** The type GET /v1.0/files/{id} looks a file up as when it is not given, as the service's document says. */
export const DEFAULT_INFORMATION_TYPE: FileType = "expenseReport";

/** The largest file POST /v1.0/files/upload takes: "up to 3MB" in the service's document, read as 3 MiB. */
export const SMALL_UPLOAD_BYTES = 3 * 1024 * 1024;

/** The extensions of the files POST /v1.0/files/upload takes, as the service's document lists them. */
export const SMALL_UPLOAD_EXTENSIONS = [
  ".csv",
  ".xls",
  ".xlsx",
  ".pdf",
  ".doc",
  ".docx",
  ".png",
  ".jpg",
  ".jpeg",
  ".xml",
  ".json",
  ".zip",
] as const;

/** GET /v1.0/files/{id}: a registered file, in the service's form. */
export interface FileInformation {
  file: {
    id: number;
    type: FileType;
    /** The name it was uploaded under. */
    fileName: string;
    /** When it was registered (ISO 8601). */
    creationTime: string;
    /** The API key that registered it: its place (from 1) in the server's list; null before syncfile kept it. */
    uploadedBy: number | null;
  };
}

/** How long an upload URL is valid. */
export const UPLOAD_URL_TTL_MS = 5 * 60_000;
/** How long a download URL (the target of a download's redirect) is valid. */
export const DOWNLOAD_URL_TTL_MS = 60_000;

/** Every error body: `report` when a file to sync is invalid. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  report?: unknown;
}

/** An access-review execution. */
export interface Execution {
  id: number;
  campaignId: number;
  campaignName: string;
  state: ExecutionState;
  startTime: string;
  completionTime: string | null;
  /** The report archive's file id; null while the archive is being generated. */
  reportFileId: number | null;
}

/** inProgress; completed (endedEarly: concluded by an admin before its end); archived. */
export type ExecutionState = "inProgress" | "completed" | "endedEarly" | "archived";

/** GET /v1.0/accessReviews/campaigns. */
export interface ExecutionList {
  completedExecutions: Execution[];
  archivedExecutions: Execution[];
  inProgressExecutions: Execution[];
}

/** The 200 body of a sync. */
export interface SyncSummary {
  /** Always true: the service's own reference answers a sync with `{"success": true}`. */
  success?: true;
  idSync: number;
  idFile: number;
  idAppAccount: number;
  format: "json" | "csv";
  users: number;
  activeUsers: number;
  licenses: number;
  licenseUsers: number;
  warnings: number;
  displayCurrency: string;
  durationMs: number;
  /** What it changed against the account's state before it (ours). */
  changes?: SyncChanges;
}

/** What a sync changed against the account's state before it (ours). */
export interface SyncChanges {
  /** The sync that made that state; null for the account's first sync (all it holds is added). */
  previousSync: number | null;
  /** How many changes of each kind, as `syncfile diff` counts them. */
  counts: ChangeCounts;
  /** Users taken away: active before, and removed or deactivated. */
  deletes: number;
}

/** The compared syncs of an account whose changes the server keeps; older ones keep their counts only. */
export const KEPT_CHANGES = 20;

/** How a sync ended: applied (the account's state, or one before it), or why not. */
export type SyncState = "running" | "applied" | "invalid" | "refused" | "rejected" | "failed" | "abandoned";

/** One sync of GET /v1.0/appAccounts/{id}/syncs. */
export interface SyncRecord {
  idSync: number;
  idFile: number;
  format: "json" | "csv";
  state: SyncState;
  /** Whether it made the account's state now. */
  current: boolean;
  startedAt: string;
  finishedAt: string | null;
  /** Users and active users of its file, once applied. */
  users: number | null;
  activeUsers: number | null;
  /** What it changed, or (refused) would have; null when it was never compared (invalid, rejected…). */
  changes: SyncChanges | null;
  /** Whether its changes are still kept (the last 20 compared syncs of an account keep them). */
  changesKept: boolean;
  /** The API key that made it: its place (from 1) in the server's list; null before syncfile kept it. */
  syncedBy: number | null;
}

/** GET /v1.0/appAccounts/{id}/syncs?limit&after: the account's syncs, newest first. */
export interface SyncList {
  idAppAccount: number;
  limit: number;
  /** The cursor this page was asked for with, when it was. */
  after?: string;
  /** Where the next page starts, to pass as `after`; null on the last page. */
  next: string | null;
  /**
   * The server's guard (`syncfile serve --max-deletes`): the most users a sync may take away
   * without `syncfile-allow-deletes: true`; 0, any number. Said so that a client's dry run
   * judges a push as the server will.
   */
  maxDeletes: number;
  syncs: SyncRecord[];
}

/** GET /v1.0/appAccounts/{id}/syncs/{syncId}/changes?limit&after&kind: a page of its changes. */
export interface SyncChangesPage {
  idAppAccount: number;
  idSync: number;
  /** The API key that made the sync, as SyncRecord's. */
  syncedBy: number | null;
  previousSync: number | null;
  counts: ChangeCounts;
  limit: number;
  after?: string;
  next: string | null;
  changes: Change[];
}

/** The 200 body of GET /v1.0/files/url (the client also reads the flat form). */
export interface UploadFileParameters {
  /** Where to PUT the bytes, with the same Content-Type as asked for. */
  url: string;
  /** What to register with POST /v1.0/files. */
  filePath: string;
}

/** GET /v1.0/appAccounts/{id}: what the last sync left (ours; the document has no such read). */
export interface AppAccountState {
  idAppAccount: number;
  /** The summary of the sync that made this state, when it finished, and who made it (as SyncRecord's). */
  lastSync: Partial<SyncSummary> & { finishedAt: string | null; syncedBy: number | null };
  displayCurrency: string;
  /** Users shown (active) and kept hidden (every other status). */
  users: { active: number; deleted: number };
  licenses: {
    name: string;
    /** In the display currency's minor unit; null when the file gave none. */
    pricePerUser: number | null;
    currency: string;
    unassignedAmount: number | null;
    users: { active: number; inactive: number; deleted: number };
  }[];
}

/** One shown user of GET /v1.0/appAccounts/{id}/users. */
export interface AppAccountUser {
  email: string;
  id?: string;
  firstName?: string;
  lastName?: string;
  externalStatus?: string;
  roles?: string[];
  lastUsedDate?: string;
  licenses: { name: string; licenseStatus: string }[];
}

/** GET /v1.0/appAccounts/{id}/users?limit&after (or &offset): a page of the shown users. */
export interface AppAccountUsers {
  idAppAccount: number;
  total: number;
  limit: number;
  /** The offset of this page, when it was asked for by offset (or neither way: 0). */
  offset?: number;
  /** The cursor this page was asked for with, when it was. */
  after?: string;
  /** Where the next page starts, to pass as `after`; null on the last page. */
  next: string | null;
  users: AppAccountUser[];
}
