// The embedded backend: PGlite in the data directory (Database.ts) for every repository, and
// the rate limits in memory. Nothing to install, nothing to configure.

import type { DependencyLog } from "../Unavailable.js";
import { SqlAccessReviewsRepository } from "./accessReviews.js";
import { SqlAppAccountsRepository } from "./appAccounts.js";
import { Database } from "./Database.js";
import { SqlFilesRepository } from "./files.js";
import { MemoryRateLimits } from "./rateLimits.js";
import { SqlSyncsRepository } from "./syncs.js";
import type { Repositories } from "./types.js";

/** Opens the repositories of the data directory `dataDir`, and abandons the syncs its last server left running. */
export async function openEmbedded(dataDir: string, log?: DependencyLog): Promise<Repositories> {
  const db = await Database.open(dataDir, log);
  const syncs = new SqlSyncsRepository(db);
  try {
    await syncs.recover();
  } catch (error) {
    await db.close();
    throw error;
  }
  return {
    files: new SqlFilesRepository(db),
    syncs,
    appAccounts: new SqlAppAccountsRepository(db),
    accessReviews: new SqlAccessReviewsRepository(db),
    rateLimits: new MemoryRateLimits(),
    ping: async () => {
      await db.query("SELECT 1");
    },
    close: () => db.close(),
  };
}
