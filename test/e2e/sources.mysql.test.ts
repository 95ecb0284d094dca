// The sql source on MySQL's protocol, against a real MariaDB (mariadbd, started by the test on a
// port of its own, its time zone +05:00): 2,500 people read by `syncfile run` with a query that
// gives the service's names, the disabled ones deleted, their last login a date in UTC; the same
// rows again upload nothing; a query that fails half way (rows already streamed) and a server
// that drops the connection fail the run, pushing nothing; a wrong password is refused with the
// server's message and appears in no output; a DELETE is refused by the read-only transaction
// (the user may delete, the transaction may not); an abort drops the connection; TLS verifies
// the server against the job's CA; mysql2 is loaded for a MySQL URL only.

import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { SourceError } from "../../src/sources/SourceError.js";
import type { SqlSource } from "../../src/sources/SourceSpec.js";
import { fetchSql } from "../../src/sources/sql.js";
import { type CliResult, packagesLoaded, runCli } from "../support/cli.js";
import { type Mariadb, mariadbCannotStart, mariadbMissing, startMariadb } from "../support/mariadb.js";
import { call, KEY, removeDataDirs, shownEmails, startServer } from "../support/server.js";
import { waitFor } from "../support/waitFor.js";

const PASSWORD = "Reader-db-pw-7c41";
const PEOPLE = 2500;

const missing = mariadbMissing() ?? (await mariadbCannotStart());
if (missing !== null) {
  if (process.env.SYNCFILE_REQUIRE_MARIADB === "1") {
    throw new Error(`SYNCFILE_REQUIRE_MARIADB=1 but ${missing}`);
  }
  process.stdout.write(`the MySQL source's tests are skipped: ${missing}\n`);
}

let server: SyncfileServer;
let mariadb: Mariadb;
// made when the tests run, not when they are skipped
let work = "";
let ca = "";

/** A CA of the test's own, and a certificate for 127.0.0.1 signed by it, for the server's TLS. */
async function certificates(): Promise<{ cert: string; key: string }> {
  const run = promisify(execFile);
  ca = join(work, "ca.pem");
  const key = join(work, "server.key");
  const cert = join(work, "server.pem");
  await run("openssl", [
    ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"],
    ...["-subj", "/CN=syncfile test CA", "-keyout", join(work, "ca.key"), "-out", ca],
  ]);
  await run("openssl", [
    ...["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost"],
    ...["-keyout", key, "-out", join(work, "server.csr")],
  ]);
  writeFileSync(join(work, "ext.cnf"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
  await run("openssl", [
    ...["x509", "-req", "-in", join(work, "server.csr"), "-CA", ca, "-CAkey", join(work, "ca.key")],
    ...["-CAcreateserial", "-days", "2", "-extfile", join(work, "ext.cnf"), "-out", cert],
  ]);
  return { cert, key };
}

/** The reader's URL, `scheme` mysql or mariadb, with `password` in it (none when null). */
const urlOf = (password: string | null, scheme = "mysql") =>
  `${scheme}://reader${password === null ? "" : `:${password}`}@127.0.0.1:${mariadb.port}/app`;

let accounts = 700;

/** A job reading `source` (YAML) into an account of its own, and how to run it with `env`. */
function job(source: string) {
  const dir = join(work, `job-${accounts}`);
  mkdirSync(dir, { recursive: true });
  const account = accounts++;
  writeFileSync(join(dir, "db-password"), `${PASSWORD}\n`, { mode: 0o600 });
  writeFileSync(
    join(dir, "people.job.yaml"),
    `jobs:
  - name: people
    source: ${source}
    service: { url: "\${BASE_URL}", apiKey: "\${API_KEY}", appAccount: ${account} }
    guard: { maxDeletes: 0 }
    state: ./state
`,
  );
  const run = (env: Record<string, string> = {}): Promise<CliResult> =>
    runCli(["run", join(dir, "people.job.yaml")], {
      env: { ...process.env, BASE_URL: server.url, API_KEY: KEY, ...env },
    });
  return { account, run };
}

// every 7th is disabled
const ACTIVE = Array.from({ length: PEOPLE }, (_, i) => i + 1)
  .filter((n) => n % 7 !== 0)
  .map((n) => `p${n}@example.com`)
  .sort();

/** Never a secret in what a run printed. */
function expectNoSecret(result: CliResult, ...secrets: string[]): void {
  for (const secret of secrets) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

/**
 * The CSV `query` gives through the sql source, as far as it came, and how it ended;
 * `atFirstRows` is awaited once the first rows came, before any more are read.
 */
async function read(
  query: string,
  atFirstRows?: () => unknown,
  signal?: AbortSignal,
): Promise<{ csv: string; error: Error | null }> {
  let csv = "";
  const source: SqlSource = { kind: "sql", url: urlOf(null), password: PASSWORD, query, tls: null };
  try {
    await fetchSql(
      source,
      async (rows) => {
        for await (const chunk of rows()) {
          if (csv === "") {
            csv += chunk;
            await atFirstRows?.();
          } else csv += chunk;
        }
      },
      signal,
    );
    return { csv, error: null };
  } catch (error) {
    return { csv, error: error as Error };
  }
}

/** How many connections the reader has open on the server. */
async function readerConnections(): Promise<number> {
  const rows = await mariadb.admin<{ n: number }>(
    "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE USER = 'reader'",
  );
  return Number(rows[0]?.n);
}

describe.skipIf(missing !== null)("a MySQL query, on MariaDB", () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "syncfile-mysql-"));
    server = await startServer();
    mariadb = await startMariadb(await certificates());
    await mariadb.admin(`
      CREATE DATABASE app;
      CREATE USER 'reader'@'%' IDENTIFIED BY '${PASSWORD}';
      -- DELETE granted: what refuses a write is the read-only transaction, not a privilege
      GRANT SELECT, DELETE, EXECUTE ON app.* TO 'reader'@'%';
      -- a user let in over TLS only
      CREATE USER 'secure'@'%' IDENTIFIED BY '${PASSWORD}' REQUIRE SSL;
      GRANT SELECT ON app.* TO 'secure'@'%';
      USE app;
      CREATE TABLE people (id INT PRIMARY KEY, email VARCHAR(100), first_name VARCHAR(50),
        disabled TINYINT(1), last_login DATETIME, group_list VARCHAR(100));
      -- p1 last logged in at 23:31 on 1 November, p30 at 00:00 on the 2nd (in UTC, as written)
      INSERT INTO people SELECT seq, CONCAT('p', seq, '@example.com'), CONCAT('P', seq), seq % 7 = 0,
        TIMESTAMP '2026-11-01 23:30:00' + INTERVAL seq MINUTE, CONCAT('staff;team ', seq % 3)
        FROM seq_1_to_${PEOPLE};
      CREATE FUNCTION checked(n INT) RETURNS INT DETERMINISTIC
      BEGIN
        IF n > 2000 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'a row past 2000 cannot be read'; END IF;
        RETURN n;
      END;
      CREATE TABLE kinds (id INT PRIMARY KEY, flag TINYINT(1), bits BIT(1), at DATETIME(3),
        seen TIMESTAMP NULL, picture BLOB, note VARCHAR(20), amount DECIMAL(10, 2), big BIGINT);
      SET time_zone = '+00:00';
      INSERT INTO kinds VALUES
        (1, 1, b'1', '2026-11-01 23:30:00.250', '2026-11-01 23:30:00', X'00ff10', 'a, "b"', 12.50, 9007199254740993),
        (2, 0, b'0', NULL, NULL, NULL, NULL, NULL, NULL);
    `);
  });
  afterAll(async () => {
    await server?.close();
    await mariadb?.stop();
    await removeDataDirs();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("streams its rows: the service's names need no mapping, disabled users are deleted", async () => {
    // the job's password_file wins over the URL's (a wrong one here)
    const { account, run } = job(
      `{ sql: { url: "\${DB_URL}", password_file: ./db-password, query: "SELECT email, first_name AS firstName, NOT disabled AS active, last_login AS lastUsedDate, group_list AS roles FROM people ORDER BY id" } }`,
    );
    // the run's own time zone is not UTC either: no date goes through it
    const env = { DB_URL: urlOf("not-the-password"), TZ: "America/Los_Angeles" };
    const r = await run(env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^people: synced; 2500 users, file \d+/);
    expect(await shownEmails(server.url, account)).toEqual(ACTIVE);
    const page = await call(server.url, "GET", `/v1.0/appAccounts/${account}/users?limit=30`);
    const users = page.body.users as Record<string, unknown>[];
    expect(users[0]).toMatchObject({
      email: "p1@example.com",
      firstName: "P1",
      lastUsedDate: "2026-11-01",
      roles: ["staff", "team 1"],
    });
    expect(users.find((u) => u.email === "p30@example.com")).toMatchObject({ lastUsedDate: "2026-11-02" });
    expectNoSecret(r, PASSWORD, "not-the-password");
    // the same rows again: the same bytes, nothing uploaded
    expect((await run(env)).stdout).toMatch(/^people: unchanged — the source is what/);
  });

  it("writes each kind of value as the records' mapping reads it", async () => {
    const { csv, error } = await read("SELECT * FROM kinds ORDER BY id");
    expect(error).toBeNull();
    expect(csv).toBe(
      [
        "id,flag,bits,at,seen,picture,note,amount,big",
        // the TIMESTAMP in UTC although the server's zone is +05:00; the BLOB in base64
        `1,1,1,2026-11-01T23:30:00.250Z,2026-11-01T23:30:00Z,AP8Q,"a, ""b""",12.50,9007199254740993`,
        "2,0,0,,,,,,",
        "",
      ].join("\n"),
    );
    // no rows: the header alone
    expect((await read("SELECT email, first_name FROM people WHERE id < 0")).csv).toBe("email,first_name\n");
  });

  it("fails, pushing nothing, when the query breaks half way", async () => {
    const query = "SELECT email, checked(id) AS n FROM people ORDER BY id";
    // the rows before the failure were streamed: they reached the file's writer, then the error
    const { csv, error } = await read(query);
    expect(error).toBeInstanceOf(SourceError);
    expect(error?.message).toBe("the query failed: a row past 2000 cannot be read");
    expect(csv).toMatch(/^email,n\np1@example\.com,1\n/);
    expect(csv).toContain("\np1000@example.com,1000\n");
    expect(csv).not.toContain("p2001@");

    const broken = job(`{ sql: { url: "\${DB_URL}", query: "${query}" } }`);
    const r = await broken.run({ DB_URL: urlOf(PASSWORD) });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^people: failed — the query failed: a row past 2000 cannot be read \(run /);
    expect((await call(server.url, "GET", `/v1.0/appAccounts/${broken.account}/users`)).status).toBe(404);
    expectNoSecret(r, PASSWORD);
    await waitFor(async () => (await readerConnections()) === 0, "the reader's connections to end");
  });

  it("fails when the server drops the connection half way through the rows", async () => {
    // 25,000 rows of 2 kB, more than the sockets hold: the server is still sending when killed
    const { csv, error } = await read(
      "SELECT p.email, REPEAT('x', 2000) AS pad FROM people p, seq_1_to_10 s ORDER BY p.id, s.seq",
      async () => {
        const ids = await mariadb.admin<{ ID: number }>(
          "SELECT ID FROM information_schema.PROCESSLIST WHERE USER = 'reader' AND INFO LIKE 'SELECT p.email, REPEAT%'",
        );
        expect(ids).toHaveLength(1);
        for (const { ID } of ids) await mariadb.admin(`KILL CONNECTION ${ID}`);
      },
    );
    expect(error).toBeInstanceOf(SourceError);
    expect(error?.message).toMatch(
      /^the query failed: (Connection lost: The server closed the connection\.|read ECONNRESET)$/,
    );
    expect(csv).toMatch(/^email,pad\np1@example\.com,x{2000}\n/);
    expect(csv).not.toContain("p2500@");
  });

  it("refuses a wrong password with the server's message, and prints it nowhere", async () => {
    const refused = job(`{ sql: { url: "\${DB_URL}", query: "SELECT email FROM people" } }`);
    const r = await refused.run({ DB_URL: urlOf("wrong-db-pw-0042", "mariadb") });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^people: failed — cannot connect to mariadb:\/\/reader:\*\*\*@127\.0\.0\.1:\d+\/app: Access denied for user 'reader'@'127\.0\.0\.1' \(using password: YES\)/,
    );
    expect((await call(server.url, "GET", `/v1.0/appAccounts/${refused.account}/users`)).status).toBe(404);
    expectNoSecret(r, "wrong-db-pw-0042");
  });

  it("runs the query read-only", async () => {
    // the reader may delete, outside a read-only transaction
    const reader = await mysql.createConnection(urlOf(PASSWORD));
    try {
      await reader.query("START TRANSACTION");
      const [deleted] = await reader.query("DELETE FROM people WHERE id = 1");
      expect((deleted as { affectedRows: number }).affectedRows).toBe(1);
      await reader.query("ROLLBACK");
    } finally {
      await reader.end();
    }
    const writing = job(`{ sql: { url: "\${DB_URL}", query: "DELETE FROM people" } }`);
    const r = await writing.run({ DB_URL: urlOf(PASSWORD, "mariadb") });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^people: failed — the query failed: Cannot execute statement in a READ ONLY transaction/,
    );
    expect((await mariadb.admin<{ n: number }>("SELECT COUNT(*) AS n FROM app.people"))[0]?.n).toBe(PEOPLE);
  });

  it("drops the connection when the run is aborted half way", async () => {
    const controller = new AbortController();
    const { csv, error } = await read(
      "SELECT email FROM people ORDER BY id",
      () => controller.abort(),
      controller.signal,
    );
    expect(error?.name).toBe("AbortError");
    expect(csv).toMatch(/^email\np1@example\.com\n/);
    expect(csv).not.toContain("p2500@");
    await waitFor(async () => (await readerConnections()) === 0, "the aborted connection to end");
  });

  it("loads mysql2 for a MySQL URL only", async () => {
    // a job of literal values (what packagesLoaded runs sees no environment of the test's)
    const jobOf = (name: string, url: string) => {
      const file = join(work, `${name}.job.yaml`);
      writeFileSync(
        file,
        `jobs:
  - name: ${name}
    source: { sql: { url: "${url}", query: "SELECT email FROM people" } }
    service: { url: "${server.url}", apiKey: "${KEY}", appAccount: ${accounts++} }
    state: ./state-${name}
`,
      );
      return file;
    };
    const onMysql = await packagesLoaded(["run", jobOf("onmysql", urlOf(PASSWORD))]);
    expect(onMysql.result.stdout).toMatch(/^onmysql: synced; 2500 users/);
    expect(onMysql.packages).toContain("mysql2");
    // PostgreSQL on a port where nothing listens: the run fails, having loaded pg, not mysql2
    const onPostgres = await packagesLoaded([
      "run",
      jobOf("onpostgres", "postgres://reader@127.0.0.1:1/app"),
    ]);
    expect(onPostgres.result.stdout).toMatch(/^onpostgres: failed — cannot connect to postgres:/);
    expect(onPostgres.packages).toContain("pg");
    expect(onPostgres.packages).not.toContain("mysql2");
  });

  it("connects over TLS, the server verified against the job's CA", async () => {
    const query = "SELECT email, NOT disabled AS active FROM people ORDER BY id";
    const secure = `mysql://secure@127.0.0.1:${mariadb.port}/app`;
    const verified = job(
      `{ sql: { url: "\${DB_URL}", password_file: ./db-password, query: "${query}", tls: { ca: "${ca}" } } }`,
    );
    const r = await verified.run({ DB_URL: secure });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^people: synced; 2500 users/);
    expect(await shownEmails(server.url, verified.account)).toEqual(ACTIVE);
    // the system's CAs do not know the test's: the server is not trusted
    const untrusted = job(
      `{ sql: { url: "\${DB_URL}", password_file: ./db-password, query: "${query}", tls: true } }`,
    );
    const u = await untrusted.run({ DB_URL: secure });
    expect(u.code).toBe(3);
    expect(u.stdout).toMatch(
      /^people: failed — cannot connect to mysql:\/\/secure@.*: unable to verify the first certificate/,
    );
    // without TLS, the user is not let in
    const plain = job(`{ sql: { url: "\${DB_URL}", password_file: ./db-password, query: "${query}" } }`);
    const p = await plain.run({ DB_URL: secure });
    expect(p.code).toBe(3);
    expect(p.stdout).toMatch(
      /^people: failed — cannot connect to mysql:\/\/secure@.*: Access denied for user 'secure'/,
    );
  });
});
