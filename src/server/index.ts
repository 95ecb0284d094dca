// syncfile/server: the service of the interface document. Re-exports only.

export type { ErrorBody, Execution, ExecutionList, ExecutionState, SyncSummary } from "../http/operations.js";
export type { Seed, SeedApplication, SeedExecution } from "./AccessReviews.js";
export { createServer, type ServerOptions, type SyncfileServer } from "./createServer.js";
