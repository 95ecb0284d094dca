// The metadata database of the embedded backend: PGlite (PostgreSQL in WebAssembly) in the
// data directory, so there is nothing to install and the same SQL runs on PostgreSQL. PGlite is
// one connection in one process: the server that opens a data directory holds it (a lock file
// naming its process) until it closes, and a second server on the same directory is refused
// in one sentence that points at --database for several instances. PGlite runs on a thread of
// its own (_pgliteThread.ts): a long statement holds up the statements behind it, never the
// server's requests that need no database; the lock stays with the server's thread.

import { execFileSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { type DependencyLog, stderrLog } from "../Unavailable.js";
import { type PgliteAnswer, PgliteThread } from "./_pgliteThread.js";
import { SCHEMA } from "./_schema.js";

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

/** A database that cannot be used (not answering, or held by another server): said in one sentence. */
export class DatabaseError extends Error {
  override readonly name = "DatabaseError";
}

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

/** The embedded database of a data directory, on a thread of its own (_pgliteThread.ts). */
export class Database implements Sql {
  readonly #thread: PgliteThread;
  readonly #lock: string;
  /** The transaction under way: what is sent meanwhile waits for its end. */
  #transaction: Promise<void> | null = null;
  #closed = false;

  private constructor(thread: PgliteThread, lock: string) {
    this.#thread = thread;
    this.#lock = lock;
  }

  /** Opens the database of `dataDir`, created on first use; refused while another server holds it. */
  static async open(dataDir: string, log: DependencyLog = stderrLog): Promise<Database> {
    const lock = holdDataDir(dataDir);
    let thread: PgliteThread | null = null;
    try {
      const dir = join(dataDir, "db");
      if (!existsSync(join(dir, "PG_VERSION"))) createCluster(dir);
      thread = await PgliteThread.start({ dir, settings: SETTINGS }, log);
      await thread.send({ op: "exec", sql: SCHEMA });
      return new Database(thread, lock);
    } catch (error) {
      await thread?.close();
      rmSync(lock, { force: true });
      held.delete(lock);
      throw error;
    }
  }

  async query<R extends object = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
  ): Promise<{ rows: R[]; rowCount: number | null }> {
    while (this.#transaction) await this.#transaction;
    return counted<R>(await this.#thread.send({ op: "query", sql, params, tx: false }));
  }

  /**
   * Runs `sql`, a COPY … FROM '/dev/blob', on `bytes` (whole lines of COPY text): one statement,
   * committed when it resolves; resolves to the rows it added.
   */
  async copyFrom(sql: string, bytes: Uint8Array): Promise<number> {
    while (this.#transaction) await this.#transaction;
    return (await this.#thread.send({ op: "copy", sql, bytes })).affectedRows ?? 0;
  }

  /**
   * Runs `work` in one transaction: what else is sent meanwhile waits for its end (PGlite is one
   * connection), and what was sent before it runs before it.
   */
  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    while (this.#transaction) await this.#transaction;
    let ended = () => {};
    this.#transaction = new Promise((resolve) => {
      ended = resolve;
    });
    const thread = this.#thread;
    try {
      await thread.send({ op: "begin" });
      const generation = thread.generation;
      try {
        const result = await work({
          query: async <R extends object>(sql: string, params: unknown[] = []) =>
            counted<R>(await thread.send({ op: "query", sql, params, tx: true }, generation)),
        });
        await thread.send({ op: "commit" }, generation);
        return result;
      } catch (error) {
        await thread.send({ op: "rollback" }, generation).catch(() => {});
        throw error;
      }
    } finally {
      this.#transaction = null;
      ended();
    }
  }

  /** Closes the database, ends its thread and gives the directory up. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    while (this.#transaction) await this.#transaction;
    await this.#thread.close().catch(() => {});
    rmSync(this.#lock, { force: true });
    held.delete(this.#lock);
  }
}

function counted<R>(answer: PgliteAnswer): { rows: R[]; rowCount: number | null } {
  return { rows: answer.rows as R[], rowCount: answer.affectedRows };
}

/** The lock files this process holds (a second open of the same directory is refused too). */
const held = new Set<string>();

/**
 * Takes the data directory's lock file (`db.lock`, naming this process), taking it over from a
 * process that is gone; resolves to its path. Refused while a running process holds it. The
 * file appears whole (written aside, then linked into place), so no one reads it half-written.
 */
function holdDataDir(dataDir: string): string {
  const lock = join(dataDir, "db.lock");
  const mine = `${lock}.${process.pid}`;
  writeFileSync(mine, JSON.stringify({ pid: process.pid }));
  try {
    for (;;) {
      try {
        linkSync(mine, lock);
        held.add(lock);
        return lock;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      let pid = 0;
      try {
        pid = (JSON.parse(readFileSync(lock, "utf8")) as { pid: number }).pid;
      } catch {} // removed meanwhile, or not ours: looked at again
      // our own process id in a lock we do not hold: a process before us had it (a container restarted)
      const running = pid === process.pid ? held.has(lock) : pid > 0 && processAlive(pid);
      if (running) {
        throw new DatabaseError(
          `${dataDir} is in use by another syncfile serve (process ${pid}${pid === process.pid ? ", this one" : ""}): ` +
            "one server runs on a --data folder. Stop that one, or use another --data; for several instances, " +
            "give each --database postgres://… and --storage s3://… (see syncfile serve --help)",
        );
      }
      rmSync(lock, { force: true }); // its holder is gone
    }
  } finally {
    rmSync(mine, { force: true });
  }
}

/**
 * Creates the PostgreSQL cluster in `dir`, in a child process: initdb takes memory that its
 * process never gives back, and a server should not carry that for its whole life.
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
