// What the server keeps, as the routes and the domain modules (SyncRunner, AccessReviews) see
// it: one small interface per area. The embedded backend (PGlite in the data directory,
// embedded.ts) implements them all; another database is another implementation of the same
// interfaces, and nothing above this folder knows which one it runs on.

import type { Change } from "syncfile/internal/diff/Change.js";
import type {
  AppAccountState,
  AppAccountUser,
  ExecutionState,
  SyncChanges,
  SyncRecord,
  SyncSummary,
} from "syncfile/internal/http/operations.js";
import type { WindowState } from "syncfile/internal/http/SlidingWindow.js";
import type { DocumentWriter } from "syncfile/internal/model/DocumentWriter.js";
import type {
  NormalizedLicense,
  NormalizedLicenseUser,
  NormalizedUser,
  NormalizedValues,
} from "syncfile/internal/model/normalize.js";
import type { Seed, SeedApplication } from "../seed.js";

/** An upload received by the storage. */
export interface Upload {
  contentType: string;
  size: number;
  /**
   * What names these very bytes in a storage that cannot refuse a later PUT to the same path
   * (a bucket: its version or ETag), kept with the file at registration; null where the
   * storage itself keeps a registered object from changing (the disk storage).
   */
  pin: string | null;
}

/** A registered file. */
export interface StoredFile {
  path: string;
  type: string;
  /** The upload's pin at registration (see Upload); null for the disk storage and files registered before pins. */
  pin: string | null;
  createdAt: Date;
  /** The place (from 1) of the API key that registered it; null for files registered before it was kept. */
  uploadedBy: number | null;
}

/** Uploads and registered files. */
export interface FilesRepository {
  /** Notes what the storage received at `path` (a second PUT replaces the first). */
  recordUpload(path: string, contentType: string, size: number): Promise<void>;
  /** What was uploaded to `path`, or null. */
  upload(path: string): Promise<Upload | null>;
  /** Registers the upload at `path` as a file of `type`, by API key `uploadedBy`; resolves to its id. */
  register(path: string, type: string, upload: Upload, uploadedBy?: number | null): Promise<number>;
  /** File `id`, or null when there is no such file. */
  file(id: number): Promise<StoredFile | null>;
  /** Whether a file was registered at `path` (its object must not change any more). */
  registered(path: string): Promise<boolean>;
  /** The content type the blob at `path` was uploaded (or registered) with, or null. */
  contentTypeAt(path: string): Promise<string | null>;
}

/** A sync's records, kept in the repository's own row form until the file is known valid. */
export interface SyncRows {
  readonly users: number;
  readonly licenses: number;
  readonly licenseUsers: number;
  user(user: NormalizedUser): void;
  license(index: number, license: NormalizedLicense): void;
  /** The `index`-th holder of license `licenseIndex`. */
  licenseUser(licenseIndex: number, index: number, holder: NormalizedLicenseUser): void;
  /** Frees what the rows hold (memory, temporary files). */
  dispose(): void;
}

/** The sync that made an account's state: its id, and the file it synced. */
export interface CurrentSync {
  syncId: number;
  fileId: number;
  format: "json" | "csv";
}

/** How a sync ended, when it did not make the account's new state (refused: by the guard; its changes are kept). */
export type SyncEnd = "invalid" | "rejected" | "failed" | "refused";

/** The syncs, their one-at-a-time lock, and the account tables they fill. */
export interface SyncsRepository {
  /**
   * Records a new sync of `fileId` into `appAccount` by API key `syncedBy` (its place from 1 in
   * the server's list) and takes the lock (from a holder that died too); when a live sync holds
   * it, the new one is recorded as rejected and the holder is named instead.
   */
  start(
    fileId: number,
    appAccount: number,
    format: "json" | "csv",
    syncedBy: number | null,
  ): Promise<{ syncId: number } | { busy: { syncId: number; startedAt: Date } }>;
  /** A new, empty holder for the rows of sync `syncId` (prices in `currency`). */
  rows(syncId: number, currency: string): SyncRows;
  /** Loads the rows of `rows`' sync, not yet visible. */
  load(rows: SyncRows): Promise<void>;
  /** The sync that made `appAccount`'s state, or null (never synced). */
  currentSync(appAccount: number): Promise<CurrentSync | null>;
  /**
   * Hands the records of sync `syncId` to `writer` as the normalising pass would (users,
   * licenses, license users, each in its order), a page at a time.
   */
  readState(syncId: number, writer: DocumentWriter<NormalizedValues>): Promise<void>;
  /** Stores changes of sync `syncId`, numbered from `first` + 1. */
  addChanges(syncId: number, first: number, changes: readonly Change[]): Promise<void>;
  /**
   * Records what sync `syncId` changed in `appAccount` (its changes stored before); only the
   * account's last KEPT_CHANGES compared syncs keep their changes.
   */
  recordChanges(syncId: number, appAccount: number, changes: SyncChanges): Promise<void>;
  /** Makes sync `syncId` the account's state in one transaction, then drops the state before. */
  apply(syncId: number, appAccount: number, summary: SyncSummary): Promise<void>;
  /** Marks sync `syncId` as ended without effect, and drops whatever rows it loaded. */
  end(syncId: number, state: SyncEnd): Promise<void>;
  /** Gives the lock up. */
  release(syncId: number): Promise<void>;
  /** At start: the locks and rows of syncs whose server died. */
  recover(): Promise<void>;
}

/** Where a page of users starts: after the user at a position (keyset), or at an offset. */
export type PageStart = { after: number } | { offset: number };

/** A page of an account's active users, from its current sync. */
export interface UsersPage {
  /** The sync the users are from. */
  syncId: number;
  /** Active users in that sync. */
  total: number;
  users: AppAccountUser[];
  /** The position of the page's last user when more follow (the next page starts after it), else null. */
  last: number | null;
}

/** What the syncs made of each app account. */
export interface AppAccountsRepository {
  /** The account's synced state, or null when it has not been synced. */
  state(id: number, displayCurrency: string): Promise<AppAccountState | null>;
  /** A page of the account's active users, or null when it has not been synced. */
  users(id: number, limit: number, start: PageStart): Promise<UsersPage | null>;
  /** The account's syncs, newest first, from before sync `before` when given; none: never synced. */
  syncs(id: number, limit: number, before: number | null): Promise<SyncRecord[]>;
  /** Sync `syncId` of the account, or null when the account has no such sync. */
  sync(id: number, syncId: number): Promise<SyncRecord | null>;
  /** A page of sync `syncId`'s changes (of kind `kind`, when given), after change number `after`. */
  changes(syncId: number, limit: number, after: number, kind: Change["kind"] | null): Promise<PagedChange[]>;
}

/** A change of a sync's history with its number in the sync. */
export interface PagedChange {
  seq: number;
  change: Change;
}

/** An execution as stored: its final state, which the clock reveals. */
export interface StoredExecution {
  id: number;
  campaignId: number;
  campaignName: string;
  finalState: ExecutionState;
  startTime: Date;
  completionTime: Date | null;
  reportFileId: number | null;
}

/** The lists of the executions' list. */
export type Bucket = "completed" | "archived" | "running";

/** A finished execution whose report archive is to be made, with its applications. */
export interface DueReport extends StoredExecution {
  completionTime: Date;
  applications: SeedApplication[];
}

/** Access-review campaigns, their executions and report archives. */
export interface AccessReviewsRepository {
  /** Adds the seed's campaigns and executions that are not there yet (relative times from `now`). */
  addSeed(seed: Seed, now: Date): Promise<void>;
  /**
   * The executions by bucket as of `now`, each newest first and at most `limit` long: finished
   * and completed or ended early, finished and archived (both finished after `completedAfter`
   * only, when given), and still running (latest started first).
   */
  executions(
    limit: number,
    completedAfter: Date | null,
    now: Date,
  ): Promise<Record<Bucket, StoredExecution[]>>;
  /**
   * Claims the executions finished by `dueBefore` that have no report and no claim younger
   * than `staleBefore`, so that one server makes each archive.
   */
  claimReports(now: Date, dueBefore: Date, staleBefore: Date): Promise<DueReport[]>;
  /** Registers the archive stored at `path` as execution `id`'s report. */
  attachReport(id: number, path: string, size: number): Promise<void>;
}

/** Rate limits: how many calls each key made of each operation, in a sliding window. */
export interface RateLimitsRepository {
  /** Counts a call of `operation` by `key` at `now` if it fits in `perMinute` a window. */
  take(key: string, operation: string, perMinute: number, now: number): Promise<WindowState>;
}

/** Every repository of one backend. */
export interface Repositories {
  files: FilesRepository;
  syncs: SyncsRepository;
  appAccounts: AppAccountsRepository;
  accessReviews: AccessReviewsRepository;
  rateLimits: RateLimitsRepository;
  /** Resolves when the database answers a query (readiness); rejects with why not. */
  ping(): Promise<void>;
  /** Closes what the backend holds open. */
  close(): Promise<void>;
}
