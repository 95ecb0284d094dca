// PostgreSQL for the tests that run the HTTP suite on the PostgreSQL backend (the vitest
// project e2e-postgres): each server gets a database of its own with a random name, and the
// project's teardown drops every database this run made. On a machine without PostgreSQL the
// project is left out (vitest.config.ts says so in one line), unless SYNCFILE_REQUIRE_POSTGRES=1.

import { randomBytes } from "node:crypto";
import pg from "pg";

/** The server the test databases are made on. */
export const POSTGRES_URL =
  process.env.SYNCFILE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Which backend the server tests run on: embedded, or postgres (the e2e-postgres project). */
export const BACKEND = process.env.SYNCFILE_TEST_BACKEND === "postgres" ? "postgres" : "embedded";

/** The prefix of this run's databases (set by the project's global setup). */
const prefix = () => process.env.SYNCFILE_TEST_DATABASE_PREFIX ?? "syncfile_test_";

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The rows `sql` gives on the database at `url` (a connection of its own, closed after). */
export async function queryDatabase<R extends object>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Why PostgreSQL cannot be used here, or null when it can. */
export async function postgresUnavailable(): Promise<string | null> {
  try {
    await admin((client) => client.query("SELECT 1"));
    return null;
  } catch (error) {
    return `cannot connect to ${POSTGRES_URL} (${(error as Error).message || (error as { code?: string }).code})`;
  }
}

/** A new, empty database; resolves to its URL. */
export async function createTestDatabase(): Promise<string> {
  const name = `${prefix()}${randomBytes(6).toString("hex")}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops every database of this run (the connections still open to them included). */
export async function dropTestDatabases(): Promise<void> {
  await admin(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE starts_with(datname, $1)",
      [prefix()],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  });
}
