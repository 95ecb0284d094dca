// A real MariaDB for the sql source's MySQL tests: mariadbd (Debian's mariadb-server) run as the
// test's own process on a free port of 127.0.0.1, its data directory made by mariadb-install-db
// in a temporary folder and removed when it stops — never a MariaDB the machine already runs.
// root has no password and is the test's own, to make the tables; the source reads as a user
// with a password, so that a wrong one is refused as it would be anywhere. The server's time zone
// is +05:00, so that a TIMESTAMP read in the server's zone rather than UTC shows.

import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import mysql from "mysql2/promise";
import { freePort } from "./ports.js";
import { waitFor } from "./waitFor.js";

const MARIADBD = "/usr/sbin/mariadbd";
const INSTALL_DB = ["/usr/bin/mariadb-install-db", "/usr/sbin/mariadb-install-db"];

/** A running mariadbd of the test's own. */
export interface Mariadb {
  /** 127.0.0.1's port it listens on. */
  readonly port: number;
  /** The process, to kill it half way through a query. */
  readonly process: ChildProcess;
  /** Runs `sql` (several statements, a function's body) as root; the rows of the last one. */
  admin<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  stop(): Promise<void>;
}

const installDb = () => INSTALL_DB.find((path) => existsSync(path));

/** Why mariadbd cannot be run here (its binaries are missing), or null. */
export function mariadbMissing(): string | null {
  if (!existsSync(MARIADBD)) return `${MARIADBD} is not installed (Debian's mariadb-server package)`;
  if (installDb() === undefined) return "mariadb-install-db is not installed (Debian's mariadb-server)";
  return null;
}

/** Why mariadbd cannot start here, or null when it can. */
export async function mariadbCannotStart(): Promise<string | null> {
  try {
    await (await startMariadb()).stop();
    return null;
  } catch (error) {
    return `mariadbd cannot start: ${(error as Error).message.split("\n")[0]}`;
  }
}

/**
 * Starts a mariadbd on an empty data directory of its own; root connects without password.
 * `tls`: PEM files of a certificate and its key, for the clients that ask for TLS.
 */
export async function startMariadb(tls?: { cert: string; key: string }): Promise<Mariadb> {
  const dir = await mkdtemp(join(tmpdir(), "syncfile-mariadb-"));
  // mariadbd refuses to run as root unless told to: on a CI machine the tests run as root
  const user = process.getuid?.() === 0 ? [`--user=${userInfo().username}`] : [];
  let child: ChildProcess | null = null;
  let exited = false;
  try {
    await promisify(execFile)(installDb() as string, [
      "--no-defaults",
      `--datadir=${join(dir, "data")}`,
      "--auth-root-authentication-method=normal",
      "--skip-test-db",
      ...user,
    ]);
    const port = await freePort();
    const started = spawn(
      MARIADBD,
      [
        "--no-defaults",
        `--datadir=${join(dir, "data")}`,
        `--socket=${join(dir, "mysqld.sock")}`,
        `--pid-file=${join(dir, "mysqld.pid")}`,
        `--port=${port}`,
        "--bind-address=127.0.0.1",
        "--skip-name-resolve",
        "--innodb-buffer-pool-size=32M",
        // a server whose time zone is not UTC, as many are: the source must set its session's
        "--default-time-zone=+05:00",
        ...(tls ? [`--ssl-cert=${tls.cert}`, `--ssl-key=${tls.key}`] : []),
        ...user,
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    child = started;
    let stderr = "";
    started.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    started.once("exit", () => {
      exited = true;
    });
    const root = { host: "127.0.0.1", port, user: "root", password: "" };
    await waitFor(async () => {
      if (exited) throw new Error(`mariadbd exited: ${lastError(stderr)}`);
      try {
        await (await mysql.createConnection(root)).end();
        return true;
      } catch {
        return false;
      }
    }, "mariadbd to answer");
    return {
      port,
      process: started,
      async admin<T>(sql: string): Promise<T[]> {
        const connection = await mysql.createConnection({ ...root, multipleStatements: true });
        try {
          const [result] = await connection.query(sql);
          const last = Array.isArray(result) && Array.isArray(result.at(-1)) ? result.at(-1) : result;
          return (Array.isArray(last) ? last : []) as T[];
        } finally {
          await connection.end();
        }
      },
      async stop() {
        if (!exited) {
          started.kill("SIGTERM");
          await once(started, "exit");
        }
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (child && !exited) {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The last [ERROR] line mariadbd wrote, or its last line. */
function lastError(stderr: string): string {
  const lines = stderr.trim().split("\n");
  return lines.filter((line) => line.includes("[ERROR]")).at(-1) ?? lines.at(-1) ?? "";
}
