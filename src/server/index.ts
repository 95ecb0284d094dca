// syncfile/server: the service of the interface document. Re-exports only.

export type { Seed, SeedApplication, SeedExecution } from "./AccessReviews.js";
export { createServer, type ServerOptions, type SyncfileServer } from "./createServer.js";
