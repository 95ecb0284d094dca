// The PostgreSQL backend, for a team that runs several instances: a pg pool to a PostgreSQL
// server, the same tables and SQL as the embedded database, applied as versioned migrations
// under an advisory lock (instances starting together migrate once). Where one process is not
// the whole service any more, two things change: the sync lock is an advisory lock held by
// the syncing connection (the server releases it when an instance dies: no takeover), and
// rate limits are counted in the database, so that N instances together allow the rate.

import pg from "pg";
import { RATE_WINDOW_MS } from "syncfile/internal/http/operations.js";
import type { WindowState } from "syncfile/internal/http/SlidingWindow.js";
import { redactUrl } from "syncfile/internal/text/redact.js";
import { type DependencyLog, DependencyWatch, socketFault } from "../Unavailable.js";
import { ACCOUNT_TABLES } from "./_accountTables.js";
import { CopyTextRows, copyOnConnections } from "./_copy.js";
import { FILES_PIN, FILES_UPLOADER, SCHEMA, SYNC_HISTORY, SYNCS_SYNCER } from "./_schema.js";
import { SqlAccessReviewsRepository } from "./accessReviews.js";
import { SqlAppAccountsRepository } from "./appAccounts.js";
import { DatabaseError, type Queryable, type Sql, TYPES } from "./Database.js";
import { SqlFilesRepository } from "./files.js";
import { SqlSyncsRepository } from "./syncs.js";
import type { RateLimitsRepository, Repositories, SyncRows } from "./types.js";

// advisory lock keys: "sync" in ASCII, then what each guards
const MIGRATION_LOCK = 0x73796e63_01;
const SYNC_LOCK = 0x73796e63_02;
/**
 * The COPYs that share a sync's license users, each on its connection: one PostgreSQL process
 * indexes them (two indexes, one of them on lower(email)) more slowly than the pass writes them,
 * and went on for seconds after the pass had ended (7 s of a 40 s 1 GB sync); two took 3.33 M
 * rows in 17–18 s where one took 29–30 s, for the same CPU.
 */
const LICENSE_USER_COPIES = 2;

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
  SYNC_HISTORY,
  FILES_UPLOADER,
  SYNCS_SYNCER,
];

/**
 * A PostgreSQL server through a pool. A connection the server drops (a restart, a failover,
 * pg_terminate_backend) fails the calls that were using it, as an Unavailable (a 503), and
 * never the process: every connection has an error listener, in the pool and out of it.
 */
export class PgDatabase implements Sql {
  readonly pool: pg.Pool;
  readonly watch: DependencyWatch;

  constructor(url: string, log?: DependencyLog) {
    this.watch = new DependencyWatch(`the database ${redactUrl(url)}`, log);
    this.pool = new pg.Pool({
      connectionString: url,
      max: 10,
      types: TYPES,
      connectionTimeoutMillis: 10_000, // a server that does not answer is a 503, not a request left hanging
      keepAlive: true, // a connection whose peer vanished is found out
    });
    // pg-pool listens for errors only on idle connections; one that drops while a sync holds it
    // (a lock, a COPY) would raise an 'error' with no listener, which ends the process. The
    // calls on it fail on their own, and the connection is released as broken.
    this.pool.on("connect", (client) => client.on("error", () => {}));
    this.pool.on("error", () => {}); // an idle connection lost: the next query opens another
  }

  query<R extends object = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
  ): Promise<{ rows: R[]; rowCount: number | null }> {
    return this.guard(this.pool.query<R>(sql, params));
  }

  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.guard(this.#transaction(work));
  }

  async #transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      return await runTransaction(client, work);
    } finally {
      client.release(); // one the server dropped is not queryable: the pool removes it
    }
  }

  /** A connection of the pool, for work that holds one (give it back with release()). */
  connect(): Promise<pg.PoolClient> {
    return this.guard(this.pool.connect());
  }

  /** Runs `work` in one transaction on `client`, which stays checked out. */
  inTransaction<T>(client: pg.PoolClient, work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.guard(runTransaction(client, work));
  }

  /** `call`'s result; a lost or refused connection becomes an Unavailable, said once in the log. */
  async guard<T>(call: Promise<T>): Promise<T> {
    try {
      const result = await call;
      this.watch.up();
      return result;
    } catch (error) {
      throw connectionFault(error) ? this.watch.down(error) : error;
    }
  }

  /**
   * Applies the migrations this database has not had yet, one instance at a time. (Before the
   * server serves: a database that does not answer fails its start, in one line of its own.)
   */
  async migrate(): Promise<void> {
    await this.#transaction(async (tx) => {
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

/** Runs `work` in one transaction on `client`: committed when it resolves, rolled back when it throws. */
async function runTransaction<T>(client: pg.PoolClient, work: (tx: Queryable) => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
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
    syncedBy: number | null,
  ): Promise<{ syncId: number } | { busy: { syncId: number; startedAt: Date } }> {
    const client = await this.#pg.connect();
    let taken = false;
    try {
      const { rows } = await this.#pg.guard(
        client.query<{ taken: boolean }>("SELECT pg_try_advisory_lock($1) AS taken", [SYNC_LOCK]),
      );
      taken = rows[0]?.taken === true;
      if (taken) {
        const syncId = await this.record(fileId, appAccount, format, syncedBy);
        this.#holders.set(syncId, client);
        return { syncId };
      }
    } catch (error) {
      if (taken) await client.query("SELECT pg_advisory_unlock($1)", [SYNC_LOCK]).catch(() => {});
      client.release();
      throw error;
    }
    client.release();
    const rejected = await this.record(fileId, appAccount, format, syncedBy);
    await this.finish(this.db, rejected, "rejected", null);
    const { rows } = await this.db.query<{ id: number; started_at: Date }>(
      "SELECT id, started_at FROM syncs WHERE state = 'running' AND id <> $1 ORDER BY id DESC LIMIT 1",
      [rejected],
    );
    const holder = rows[0];
    return { busy: { syncId: holder?.id ?? rejected, startedAt: holder?.started_at ?? new Date() } };
  }

  /** PostgreSQL deletes a sync's rows in one statement a table: nothing waits behind it (MVCC). */
  protected override async deleteRows(syncId: number): Promise<void> {
    for (const table of ACCOUNT_TABLES)
      await this.db.query(`DELETE FROM ${table.name} WHERE sync_id = $1`, [syncId]);
  }

  /** The rows, streamed into their tables with COPY while the pass writes them (_copy.ts). */
  override rows(syncId: number, currency: string): SyncRows {
    return new CopyTextRows(
      copyOnConnections(this.#pg.pool),
      syncId,
      currency,
      undefined,
      LICENSE_USER_COPIES,
    );
  }

  override load(rows: SyncRows): Promise<void> {
    return this.#pg.guard((rows as CopyTextRows).load());
  }

  /**
   * The apply runs on the connection that holds the lock: if the server dropped it meanwhile,
   * another instance may hold the lock now, and this sync must not apply; it fails instead.
   */
  protected override applying<T>(syncId: number, work: (tx: Queryable) => Promise<T>): Promise<T> {
    const holder = this.#holders.get(syncId);
    return holder ? this.#pg.inTransaction(holder, work) : super.applying(syncId, work);
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
    const client = await this.#pg.connect();
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
export async function openPostgres(url: string, log?: DependencyLog): Promise<Repositories> {
  const db = new PgDatabase(url, log);
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
      ping: async () => {
        await db.query("SELECT 1");
      },
      close: () => db.close(),
    };
  } catch (error) {
    await db.close().catch(() => {});
    const reason = (error as Error).message || (error as { code?: string }).code || String(error);
    throw new DatabaseError(`cannot use the database ${redactUrl(url)}: ${reason}`);
  }
}

// what a lost or refused connection looks like from pg besides the socket's own errors:
// PostgreSQL's connection exceptions (class 08), its shutdowns (57P01–57P03), too many connections
const SERVER_FAULTS = /^(08...|57P0[123]|53300)$/;
const DRIVER_FAULTS = /Connection terminated|not queryable|timeout exceeded when trying to connect/;

/** Whether `error` says the database could not be reached, rather than that a statement failed. */
export function connectionFault(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (socketFault(error)) return true;
  const code = (error as { code?: unknown }).code;
  return (typeof code === "string" && SERVER_FAULTS.test(code)) || DRIVER_FAULTS.test(error.message);
}
