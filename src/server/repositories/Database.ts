// The metadata database: PGlite (PostgreSQL in WebAssembly) in the data directory, so there
// is nothing to install and the same SQL runs on PostgreSQL. PGlite is one connection and
// one process, so the first server on a data directory owns it and serves it on a Unix
// socket (_socketServer.ts: each client's exchanges and transactions kept whole); every server on that
// directory, the owner included, talks to it through node-postgres. A second server process
// on the same directory is a client of the first, and takes over when the first is gone.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { SCHEMA } from "./_schema.js";
import { serveOnSocket } from "./_socketServer.js";

/** Something SQL can be sent to: the database, or one transaction. */
export interface Queryable {
  query<R extends object = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>;
}

/** A database: queries, and transactions. */
export interface Sql extends Queryable {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
}

interface Owned {
  db: PGlite;
  socket: { stop(): Promise<void> };
}

// the longest Unix socket path is 107 bytes: long data directories get theirs in the temp folder
const SOCKET_NAME = ".s.PGSQL.5432";
// small caches: the operating system caches the files too, and a local server should stay light
const SETTINGS = ["shared_buffers = 32MB", "wal_buffers = 2MB"];
const INT8 = 20;
const NUMERIC = 1700;

/** How results are read: ids and counts fit in a double here; money stays exact as integers too. */
export const TYPES = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8 || oid === NUMERIC
      ? Number
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** The server's database. */
export class Database implements Sql {
  readonly #dataDir: string;
  #pool: pg.Pool | null = null;
  #owned: Owned | null = null;
  #closed = false;

  private constructor(dataDir: string) {
    this.#dataDir = dataDir;
  }

  /** Opens the database of `dataDir`: as its owner, or through the owner's socket. */
  static async open(dataDir: string): Promise<Database> {
    const database = new Database(dataDir);
    await database.#connect();
    await database.query(SCHEMA);
    return database;
  }

  /** True when this process holds the database files. */
  get owner(): boolean {
    return this.#owned !== null;
  }

  async query<R extends object = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
  ): Promise<{ rows: R[]; rowCount: number | null }> {
    try {
      return await (this.#pool as pg.Pool).query<R>(sql, params);
    } catch (error) {
      if (!this.#lostOwner(error)) throw error;
      await this.#connect();
      return (this.#pool as pg.Pool).query<R>(sql, params);
    }
  }

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await (this.#pool as pg.Pool).connect();
    } catch (error) {
      if (!this.#lostOwner(error)) throw error;
      await this.#connect();
      client = await (this.#pool as pg.Pool).connect();
    }
    return inTransaction(client, work);
  }

  /** Closes the connection; the owner also closes the database and gives the directory up. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool?.end().catch(() => {});
    const owned = this.#owned;
    this.#owned = null;
    if (owned) {
      await owned.socket.stop().catch(() => {});
      await owned.db.close().catch(() => {});
      rmSync(this.#lockPath(), { force: true });
    }
  }

  async #connect(): Promise<void> {
    await this.#pool?.end().catch(() => {});
    for (let attempt = 0; ; attempt++) {
      const lock = this.#tryLock();
      if (lock === "acquired") {
        this.#owned = await this.#own();
        break;
      }
      if (lock.alive) {
        // another server owns it: be its client once its socket answers
        const pool = this.#poolFor(lock.socketDir);
        try {
          await pool.query("SELECT 1");
          this.#pool = pool;
          return;
        } catch (error) {
          await pool.end().catch(() => {});
          if (attempt > 100)
            throw new Error(
              `the database of ${this.#dataDir} is held by process ${lock.pid}, which does not answer: ${(error as Error).message}`,
            );
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
      }
      rmSync(this.#lockPath(), { force: true }); // its owner is gone
    }
    this.#pool = this.#poolFor(this.#socketDir());
  }

  async #own(): Promise<Owned> {
    const dir = join(this.#dataDir, "db");
    if (!existsSync(join(dir, "PG_VERSION"))) createCluster(dir);
    const db = await PGlite.create(dir, { postgresqlconf: SETTINGS });
    const socketDir = this.#socketDir();
    mkdirSync(socketDir, { recursive: true });
    rmSync(join(socketDir, SOCKET_NAME), { force: true });
    const socket = await serveOnSocket(db, join(socketDir, SOCKET_NAME));
    return { db, socket };
  }

  #poolFor(socketDir: string): pg.Pool {
    const pool = new pg.Pool({
      host: socketDir,
      user: "postgres",
      database: "postgres",
      max: 8,
      types: TYPES,
    });
    pool.on("error", () => {}); // an idle client lost with the owner: the next query reconnects
    return pool;
  }

  /** Takes the lock file, or says who holds it. */
  #tryLock(): "acquired" | { pid: number; socketDir: string; alive: boolean } {
    try {
      const fd = openSync(this.#lockPath(), "wx");
      writeSync(fd, JSON.stringify({ pid: process.pid, socketDir: this.#socketDir() }));
      closeSync(fd);
      return "acquired";
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    try {
      const held = JSON.parse(readFileSync(this.#lockPath(), "utf8")) as { pid: number; socketDir: string };
      return { ...held, alive: held.pid !== process.pid && processAlive(held.pid) };
    } catch {
      return { pid: 0, socketDir: this.#socketDir(), alive: false }; // half-written by a process that died
    }
  }

  /** A connection-level failure (not an SQL error, which carries a severity) while a client of a dead owner. */
  #lostOwner(error: unknown): boolean {
    return !this.#closed && !this.#owned && (error as { severity?: unknown }).severity === undefined;
  }

  #lockPath(): string {
    return join(this.#dataDir, "db.lock");
  }

  #socketDir(): string {
    const dir = join(this.#dataDir, "run");
    if (Buffer.byteLength(join(dir, SOCKET_NAME)) < 100) return dir;
    const hash = createHash("sha256").update(this.#dataDir).digest("hex").slice(0, 12);
    return join(tmpdir(), `syncfile-${hash}`);
  }
}

/** Runs `work` in one transaction on `client`, which it then gives back to its pool. */
export async function inTransaction<T>(
  client: pg.PoolClient,
  work: (tx: Queryable) => Promise<T>,
): Promise<T> {
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Creates the PostgreSQL cluster in `dir`, in a child process: initdb takes some 500 MB that
 * its process never gives back, and a server should not carry that for its whole life.
 */
function createCluster(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")).href;
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)}); const db = await PGlite.create(process.argv[1]); await db.close();`;
  execFileSync(process.execPath, ["--input-type=module", "-e", script, dir], {
    stdio: ["ignore", "ignore", "pipe"],
  });
}

/** Whether a process with this id runs (on this machine). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
