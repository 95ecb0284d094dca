// @syncfile/client: the typed client of the interface, and push / download / reports as calls.
// Re-exports only.

export type { Change, ChangeCounts, FieldChange } from "syncfile/internal/diff/Change.js";
export { type Clock, systemClock } from "syncfile/internal/http/Clock.js";
export type {
  AppAccountState,
  AppAccountUser,
  AppAccountUsers,
  Execution,
  ExecutionList,
  ExecutionState,
  FileType,
  SyncChanges,
  SyncChangesPage,
  SyncList,
  SyncRecord,
  SyncState,
  SyncSummary,
  UploadFileParameters,
} from "syncfile/internal/http/operations.js";
export type { Executions } from "syncfile/internal/http/tolerant.js";
export { STATE_FILE, StateFileError } from "./_reportState.js";
export type { Destination } from "./_saveResponse.js";
export { ApiError, refusedByGuard } from "./ApiError.js";
export { ConnectionError } from "./ConnectionError.js";
export {
  type CollectedReport,
  type CollectOptions,
  type CollectResult,
  collectReports,
  LOOK_BACK_MS,
  PENDING_LOOK_BACK_MS,
} from "./collectReports.js";
export {
  type CallOptions,
  type Client,
  type ClientOptions,
  contentTypeOf,
  createClient,
  type DownloadedFile,
  type DownloadOptions,
  type RetryEvent,
  type SyncOptions,
  type UploadedFile,
  type UploadOptions,
} from "./createClient.js";
export {
  type PreviousState,
  PreviousStateError,
  type PushChanges,
  type PushOptions,
  type PushResult,
  pushFile,
  StateFolderError,
} from "./pushFile.js";
export { DOCUMENTED_LIMITS, RateLimiter, type RateLimits } from "./RateLimiter.js";
export { type WatchOptions, watchReports } from "./watchReports.js";
