// The SQL of syncs: each sync is a row of `syncs`; its records are loaded into the account
// tables under its id (invisible until applied), and applying it points the account at it in
// one short transaction, so a sync that fails or a server that dies halfway leaves the account
// as it was. One sync at a time: a lock row naming the holding process, dropped at the next
// start when its server died.

import type { Change } from "syncfile/internal/diff/Change.js";
import type { SyncChanges, SyncSummary } from "syncfile/internal/http/operations.js";
import type { DocumentWriter } from "syncfile/internal/model/DocumentWriter.js";
import type { NormalizedValues } from "syncfile/internal/model/normalize.js";
import { ACCOUNT_TABLES } from "./_accountTables.js";
import { addChanges, forgetChanges, readState, recordChanges } from "./_changes.js";
import { processAlive, type Queryable, type Sql } from "./Database.js";
import type { CurrentSync, SyncEnd, SyncRows, SyncsRepository } from "./types.js";

// a sync's rows are deleted at once up to this many, and past it a table's pages this many at a time
const DELETE_AT_ONCE = 10_000;
const DELETE_PAGES = 100;

/**
 * Syncs in a PostgreSQL database, locked by a row that names the holding process; how a sync's
 * rows reach the account tables is the backend's (rows, load).
 */
export abstract class SqlSyncsRepository implements SyncsRepository {
  constructor(protected readonly db: Sql) {}

  async start(
    fileId: number,
    appAccount: number,
    format: "json" | "csv",
    syncedBy: number | null,
  ): Promise<{ syncId: number } | { busy: { syncId: number; startedAt: Date } }> {
    const syncId = await this.record(fileId, appAccount, format, syncedBy);
    let holder: { sync_id: number; holder_pid: number; started_at: Date } | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const taken = await this.db.query(
        "INSERT INTO sync_lock (id, sync_id, holder_pid, started_at) VALUES (1, $1, $2, now()) ON CONFLICT (id) DO NOTHING",
        [syncId, process.pid],
      );
      if (taken.rowCount === 1) return { syncId };
      const held = await this.db.query<{ sync_id: number; holder_pid: number; started_at: Date }>(
        "SELECT sync_id, holder_pid, started_at FROM sync_lock WHERE id = 1",
      );
      holder = held.rows[0];
      if (holder && processAlive(holder.holder_pid)) break;
      if (holder) await this.abandon(holder.sync_id);
    }
    await this.finish(this.db, syncId, "rejected", null);
    // a holder that let go between our two looks: "starting" names the sync that now holds it
    return { busy: { syncId: holder?.sync_id ?? syncId, startedAt: holder?.started_at ?? new Date() } };
  }

  /** Records a new running sync, started by API key `syncedBy`; resolves to its id. */
  protected async record(
    fileId: number,
    appAccount: number,
    format: string,
    syncedBy: number | null,
  ): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>(
      "INSERT INTO syncs (app_account, file_id, format, state, started_at, synced_by) VALUES ($1, $2, $3, 'running', now(), $4) RETURNING id",
      [appAccount, fileId, format, syncedBy],
    );
    return (rows[0] as { id: number }).id;
  }

  abstract rows(syncId: number, currency: string): SyncRows;

  abstract load(rows: SyncRows): Promise<void>;

  async currentSync(appAccount: number): Promise<CurrentSync | null> {
    const { rows } = await this.db.query<{ id: number; file_id: number; format: "json" | "csv" }>(
      "SELECT s.id, s.file_id, s.format FROM app_accounts a JOIN syncs s ON s.id = a.current_sync WHERE a.id = $1",
      [appAccount],
    );
    const sync = rows[0];
    return sync ? { syncId: sync.id, fileId: sync.file_id, format: sync.format } : null;
  }

  readState(syncId: number, writer: DocumentWriter<NormalizedValues>): Promise<void> {
    return readState(this.db, syncId, writer);
  }

  addChanges(syncId: number, first: number, changes: readonly Change[]): Promise<void> {
    return addChanges(this.db, syncId, first, changes);
  }

  recordChanges(syncId: number, appAccount: number, changes: SyncChanges): Promise<void> {
    return recordChanges(this.db, syncId, appAccount, changes);
  }

  async apply(syncId: number, appAccount: number, summary: SyncSummary): Promise<void> {
    const previous = await this.applying(syncId, async (tx) => {
      const { rows: before } = await tx.query<{ current_sync: number | null }>(
        "SELECT current_sync FROM app_accounts WHERE id = $1 FOR UPDATE",
        [appAccount],
      );
      await tx.query(
        `INSERT INTO app_accounts (id, current_sync, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (id) DO UPDATE SET current_sync = $2, updated_at = now()`,
        [appAccount, syncId],
      );
      await this.finish(tx, syncId, "applied", summary);
      return before[0]?.current_sync ?? null;
    });
    if (previous !== null) await this.deleteRows(previous);
  }

  /** Runs the apply of sync `syncId` in one transaction. */
  protected applying<T>(_syncId: number, work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async end(syncId: number, state: SyncEnd): Promise<void> {
    await this.finish(this.db, syncId, state, null);
    await this.deleteRows(syncId);
    // a refused sync keeps what it would have changed: the history shows whom it would take away
    if (state !== "refused") await this.#forgetChanges(syncId);
  }

  async #forgetChanges(syncId: number): Promise<void> {
    await this.db.query("UPDATE syncs SET changes = NULL, changes_kept = false WHERE id = $1", [syncId]);
    await forgetChanges(this.db, syncId);
  }

  async release(syncId: number): Promise<void> {
    await this.db.query("DELETE FROM sync_lock WHERE sync_id = $1", [syncId]);
  }

  async recover(): Promise<void> {
    // the data directory is this server's alone (Database.ts): a lock left in it is a dead server's
    const { rows } = await this.db.query<{ sync_id: number }>("SELECT sync_id FROM sync_lock");
    for (const lock of rows) await this.abandon(lock.sync_id);
    const { rows: stale } = await this.db.query<{ id: number }>(
      "SELECT id FROM syncs WHERE state = 'running' AND id NOT IN (SELECT sync_id FROM sync_lock)",
    );
    for (const sync of stale) await this.abandon(sync.id);
  }

  /** Marks a sync whose server died as abandoned, drops its rows and its lock. */
  protected async abandon(syncId: number): Promise<void> {
    const { rowCount } = await this.db.query(
      "UPDATE syncs SET state = 'abandoned', finished_at = now() WHERE id = $1 AND state = 'running'",
      [syncId],
    );
    await this.deleteRows(syncId);
    if (rowCount === 1) await this.#forgetChanges(syncId);
    await this.db.query("DELETE FROM sync_lock WHERE sync_id = $1", [syncId]);
  }

  protected async finish(
    on: Queryable,
    syncId: number,
    state: string,
    summary: SyncSummary | null,
  ): Promise<void> {
    await on.query("UPDATE syncs SET state = $2, finished_at = now(), summary = $3 WHERE id = $1", [
      syncId,
      state,
      summary === null ? null : JSON.stringify(summary),
    ]);
  }

  /**
   * Deletes the rows of sync `syncId`. The embedded database runs one statement at a time, so a
   * large account's rows go a range of pages a statement (a TID range scan: each page is read
   * once, and no statement holds the others back for long; deleting by batches of rows found
   * afresh each time read the dead rows of the batches before again, and grew with the square
   * of the rows). A few rows go in one statement.
   */
  protected async deleteRows(syncId: number): Promise<void> {
    for (const table of ACCOUNT_TABLES) {
      const { rows } = await this.db.query<{ few: boolean; pages: number }>(
        `SELECT (SELECT count(*) FROM (SELECT 1 FROM ${table.name} WHERE sync_id = $1 LIMIT ${DELETE_AT_ONCE + 1}) s) <= ${DELETE_AT_ONCE} AS few,
                (pg_relation_size('${table.name}') / current_setting('block_size')::int)::int AS pages`,
        [syncId],
      );
      const { few, pages } = rows[0] ?? { few: true, pages: 0 };
      if (few) {
        await this.db.query(`DELETE FROM ${table.name} WHERE sync_id = $1`, [syncId]);
        continue;
      }
      // the rows are all on the pages counted: a sync is deleted only once it wrote its last
      for (let page = 0; page < pages; page += DELETE_PAGES) {
        await this.db.query(
          `DELETE FROM ${table.name} WHERE sync_id = $1 AND ctid >= $2::tid AND ctid < $3::tid`,
          [syncId, `(${page},0)`, `(${page + DELETE_PAGES},0)`],
        );
      }
    }
  }
}
