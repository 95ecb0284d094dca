// @syncfile/server: the service of the interface document. Re-exports only.

export type {
  ErrorBody,
  Execution,
  ExecutionList,
  ExecutionState,
  SyncSummary,
} from "syncfile/internal/http/operations.js";
export { createServer } from "./createServer.js";
export type { ServerOptions, SyncfileServer } from "./options.js";
export type { Seed, SeedApplication, SeedExecution } from "./seed.js";
