// The embedded backend: PGlite in the data directory (Database.ts) for every repository, and
// the rate limits in memory. Nothing to install, nothing to configure.

import type { DependencyLog } from "../Unavailable.js";
import { CopyTextRows, copyInPieces, PIECE_IN_MEMORY } from "./_copy.js";
import { SqlAccessReviewsRepository } from "./accessReviews.js";
import { SqlAppAccountsRepository } from "./appAccounts.js";
import { Database } from "./Database.js";
import { SqlFilesRepository } from "./files.js";
import { MemoryRateLimits } from "./rateLimits.js";
import { SqlSyncsRepository } from "./syncs.js";
import type { Repositories, SyncEnd, SyncRows } from "./types.js";

/** Opens the repositories of the data directory `dataDir`, and abandons the syncs its last server left running. */
export async function openEmbedded(dataDir: string, log?: DependencyLog): Promise<Repositories> {
  const db = await Database.open(dataDir, log);
  const syncs = new EmbeddedSyncsRepository(db);
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

/**
 * The embedded database's syncs: a sync's rows are COPY'd into their tables a piece at a time
 * while the pass reads the file (_copy.ts), each piece committed as it goes; a sync that ends
 * without applying stops its pieces before its rows are deleted.
 */
class EmbeddedSyncsRepository extends SqlSyncsRepository {
  /** The rows of the sync under way (one at a time: the lock). */
  #underway: { syncId: number; rows: CopyTextRows } | null = null;
  readonly #database: Database; // the base class sees it as any SQL database

  constructor(db: Database) {
    super(db);
    this.#database = db;
  }

  override rows(syncId: number, currency: string): SyncRows {
    const rows = new CopyTextRows(copyInPieces(this.#database), syncId, currency, PIECE_IN_MEMORY);
    this.#underway = { syncId, rows };
    return rows;
  }

  override load(rows: SyncRows): Promise<void> {
    return (rows as CopyTextRows).load();
  }

  override async end(syncId: number, state: SyncEnd): Promise<void> {
    const underway = this.#underway;
    if (underway?.syncId === syncId) {
      this.#underway = null;
      await underway.rows.abandon();
    }
    await super.end(syncId, state);
  }
}
