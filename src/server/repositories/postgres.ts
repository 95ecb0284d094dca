// The PostgreSQL backend, for a team that runs several instances: a pg pool to a PostgreSQL
// server, the same tables and SQL as the embedded database, applied as versioned migrations
// under an advisory lock (instances starting together migrate once). Where one process is not
// the whole service any more, two things change: the sync lock is an advisory lock held by
// the syncing connection (the server releases it when an instance dies: no takeover), and
// rate limits are counted in the database, so that N instances together allow the rate.

import pg from "pg";
import { RATE_WINDOW_MS } from "../../http/operations.js";
import type { WindowState } from "../../http/SlidingWindow.js";
import { CopyTextRows } from "./_copy.js";
import { FILES_PIN, SCHEMA } from "./_schema.js";
import { SqlAccessReviewsRepository } from "./accessReviews.js";
import { SqlAppAccountsRepository } from "./appAccounts.js";
import { DatabaseError, inTransaction, type Queryable, redact, type Sql, TYPES } from "./Database.js";
import { SqlFilesRepository } from "./files.js";
import { SqlSyncsRepository } from "./syncs.js";
import type { RateLimitsRepository, Repositories, SyncRows } from "./types.js";

// advisory lock keys: "sync" in ASCII, then what each guards
const MIGRATION_LOCK = 0x73796e63_01;
const SYNC_LOCK = 0x73796e63_02;

/** The schema's versions, in order; a version once released is never edited, only followed. */
const MIGRATIONS: readonly string[] = [
  SCHEMA,
  `CREATE TABLE IF NOT EXISTS rate_limit_calls (
     key text NOT NULL,
     operation text NOT NULL,
     at bigint NOT NULL
   );
   CREATE INDEX IF NOT EXISTS rate_limit_calls_key ON rate_limit_calls (key, operation, at);`,
  FILES_PIN,
];

/** A PostgreSQL server through a pool. */
export class PgDatabase implements Sql {
  readonly pool: pg.Pool;

  constructor(url: string) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: 10,
      types: TYPES,
    });
    this.pool.on("error", () => {}); // an idle connection lost: the next query opens another
  }

  query<R extends object = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
  ): Promise<{ rows: R[]; rowCount: number | null }> {
    return this.pool.query<R>(sql, params);
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return inTransaction(await this.pool.connect(), work);
  }

  /** Applies the migrations this database has not had yet, one instance at a time. */
  async migrate(): Promise<void> {
    await this.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await tx.query(
        "CREATE TABLE IF NOT EXISTS syncfile_migrations (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
      );
      const { rows } = await tx.query<{ version: number | null }>(
        "SELECT max(version) AS version FROM syncfile_migrations",
      );
      for (let version = (rows[0]?.version ?? 0) + 1; version <= MIGRATIONS.length; version++) {
        await tx.query(MIGRATIONS[version - 1] as string);
        await tx.query("INSERT INTO syncfile_migrations (version) VALUES ($1)", [version]);
      }
    });
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** Syncs whose one-at-a-time lock is an advisory lock, held by the syncing connection. */
class PgSyncsRepository extends SqlSyncsRepository {
  readonly #pg: PgDatabase;
  readonly #holders = new Map<number, pg.PoolClient>();

  constructor(db: PgDatabase) {
    super(db);
    this.#pg = db;
  }

  override async start(
    fileId: number,
    appAccount: number,
    format: "json" | "csv",
  ): Promise<{ syncId: number } | { busy: { syncId: number; startedAt: Date } }> {
    const client = await this.#pg.pool.connect();
    let taken = false;
    try {
      const { rows } = await client.query<{ taken: boolean }>("SELECT pg_try_advisory_lock($1) AS taken", [
        SYNC_LOCK,
      ]);
      taken = rows[0]?.taken === true;
      if (taken) {
        const syncId = await this.record(fileId, appAccount, format);
        this.#holders.set(syncId, client);
        return { syncId };
      }
    } catch (error) {
      if (taken) await client.query("SELECT pg_advisory_unlock($1)", [SYNC_LOCK]).catch(() => {});
      client.release();
      throw error;
    }
    client.release();
    const rejected = await this.record(fileId, appAccount, format);
    await this.finish(this.db, rejected, "rejected", null);
    const { rows } = await this.db.query<{ id: number; started_at: Date }>(
      "SELECT id, started_at FROM syncs WHERE state = 'running' AND id <> $1 ORDER BY id DESC LIMIT 1",
      [rejected],
    );
    const holder = rows[0];
    return { busy: { syncId: holder?.id ?? rejected, startedAt: holder?.started_at ?? new Date() } };
  }

  /** The rows, streamed into their tables with COPY while the pass writes them (_copy.ts). */
  override rows(syncId: number, currency: string): SyncRows {
    return new CopyTextRows(this.#pg.pool, syncId, currency);
  }

  override load(rows: SyncRows): Promise<void> {
    return (rows as CopyTextRows).load();
  }

  override async release(syncId: number): Promise<void> {
    const client = this.#holders.get(syncId);
    if (!client) return;
    this.#holders.delete(syncId);
    try {
      await client.query("SELECT pg_advisory_unlock($1)", [SYNC_LOCK]);
      client.release();
    } catch (error) {
      client.release(error as Error); // a broken connection: the server drops its lock with it
    }
  }

  /** Syncs left running by an instance that died: only when no instance holds the lock. */
  override async recover(): Promise<void> {
    const client = await this.#pg.pool.connect();
    try {
      const { rows } = await client.query<{ taken: boolean }>("SELECT pg_try_advisory_lock($1) AS taken", [
        SYNC_LOCK,
      ]);
      if (!rows[0]?.taken) return;
      try {
        const { rows: stale } = await this.db.query<{ id: number }>(
          "SELECT id FROM syncs WHERE state = 'running'",
        );
        for (const sync of stale) await this.abandon(sync.id);
      } finally {
        await client.query("SELECT pg_advisory_unlock($1)", [SYNC_LOCK]);
      }
    } finally {
      client.release();
    }
  }
}

/** Calls counted in the database: a sliding window per key and operation, shared by every instance. */
class PgRateLimits implements RateLimitsRepository {
  readonly #db: PgDatabase;

  constructor(db: PgDatabase) {
    this.#db = db;
  }

  take(key: string, operation: string, perMinute: number, now: number): Promise<WindowState> {
    return this.#db.transaction(async (tx) => {
      // one key's calls of one operation are counted one at a time, across instances
      await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`${key}:${operation}`]);
      await tx.query("DELETE FROM rate_limit_calls WHERE key = $1 AND operation = $2 AND at <= $3", [
        key,
        operation,
        now - RATE_WINDOW_MS,
      ]);
      const { rows } = await tx.query<{ n: number; oldest: number | null }>(
        "SELECT count(*)::int AS n, min(at) AS oldest FROM rate_limit_calls WHERE key = $1 AND operation = $2",
        [key, operation],
      );
      const n = rows[0]?.n ?? 0;
      const oldest = rows[0]?.oldest ?? now;
      const resetMs = Math.max(0, oldest + RATE_WINDOW_MS - now);
      if (n >= perMinute) return { allowed: false, remaining: 0, resetMs };
      await tx.query("INSERT INTO rate_limit_calls (key, operation, at) VALUES ($1, $2, $3)", [
        key,
        operation,
        now,
      ]);
      return { allowed: true, remaining: perMinute - n - 1, resetMs };
    });
  }
}

/** Opens the repositories of the PostgreSQL database at `url` (postgres://…), migrated. */
export async function openPostgres(url: string): Promise<Repositories> {
  const db = new PgDatabase(url);
  try {
    await db.migrate();
    const syncs = new PgSyncsRepository(db);
    await syncs.recover();
    return {
      files: new SqlFilesRepository(db),
      syncs,
      appAccounts: new SqlAppAccountsRepository(db),
      accessReviews: new SqlAccessReviewsRepository(db),
      rateLimits: new PgRateLimits(db),
      close: () => db.close(),
    };
  } catch (error) {
    await db.close().catch(() => {});
    const reason = (error as Error).message || (error as { code?: string }).code || String(error);
    throw new DatabaseError(`cannot use the database ${redact(url)}: ${reason}`);
  }
}
