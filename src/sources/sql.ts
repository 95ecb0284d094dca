// A query's rows as a CSV file. PostgreSQL streams them itself: the query runs inside
// COPY (…) TO STDOUT in CSV with its header, in a read-only transaction, so the rows come as
// the server writes them, never held here, at the speed of psql's \copy. Dates are written in
// ISO form and UTC (DateStyle, TimeZone of the transaction), booleans as t and f, which the
// records' mapping reads. The columns are the query's: a query that already says
// `email, first_name AS "firstName", NOT disabled AS active` needs no mapping. MySQL and
// MariaDB (mysql:// and mariadb://) are read by _mysql.ts, loaded only for them.

import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { redactText, redactUrl } from "syncfile/internal/text/redact.js";
import { loadDriver } from "./_driver.js";
import { SourceError } from "./SourceError.js";
import type { SqlSource } from "./SourceSpec.js";

/**
 * Runs `source`'s query (PostgreSQL, MySQL or MariaDB) and hands its rows, as CSV with a header, to `copy` (which writes them
 * where the run keeps them); throws SourceError with the database's own message.
 */
export async function fetchSql(
  source: SqlSource,
  copy: (rows: () => Readable) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const scheme = new URL(source.url).protocol;
  if (scheme === "mysql:" || scheme === "mariadb:") {
    const { fetchMysql } = await loadDriver("mysql", ["mysql2"], () => import("./_mysql.js"));
    return fetchMysql(source, source.tls ? tlsOf(source.tls) : null, copy, signal);
  }
  if (scheme !== "postgres:" && scheme !== "postgresql:") {
    throw new SourceError(
      `cannot read ${redactUrl(source.url)}: syncfile reads PostgreSQL (postgres://…), MySQL and MariaDB (mysql://… or mariadb://…) databases`,
    );
  }
  const client = new pg.Client({
    connectionString: source.url,
    ...(source.password !== null ? { password: source.password } : {}),
    ...(source.tls ? { ssl: tlsOf(source.tls) } : {}),
    application_name: "syncfile",
    connectionTimeoutMillis: 30_000,
  });
  // a failure of the connection after connect (the server gone) is thrown by the query under way
  client.on("error", () => {});
  const stop = () => void client.end().catch(() => {});
  signal?.addEventListener("abort", stop, { once: true });
  try {
    await client.connect().catch((error: Error) => {
      throw new SourceError(`cannot connect to ${redactUrl(source.url)}: ${redactText(error.message)}`);
    });
    await run(client, "BEGIN READ ONLY");
    await run(client, "SET LOCAL DateStyle = ISO; SET LOCAL TimeZone = 'UTC'");
    const query = source.query.trim().replace(/;\s*$/, "");
    await copy(() => client.query(copyTo(`COPY (${query}) TO STDOUT WITH (FORMAT csv, HEADER true)`))).catch(
      (error: Error) => {
        throw error instanceof SourceError
          ? error
          : new SourceError(`the query failed: ${redactText(error.message)}`);
      },
    );
    await run(client, "COMMIT");
  } finally {
    signal?.removeEventListener("abort", stop);
    await client.end().catch(() => {});
  }
}

async function run(client: pg.Client, statement: string): Promise<void> {
  await client.query(statement).catch((error: Error) => {
    throw new SourceError(`the query failed: ${redactText(error.message)}`);
  });
}

/** The TLS settings of a job's `tls`: the server verified, against `ca` when it is given. */
function tlsOf(tls: NonNullable<SqlSource["tls"]>): { rejectUnauthorized: true; ca?: string } {
  if (tls.ca === null) return { rejectUnauthorized: true };
  try {
    return { rejectUnauthorized: true, ca: readFileSync(tls.ca, "utf8") };
  } catch (error) {
    throw new SourceError(`cannot read the CA file ${tls.ca}: ${(error as Error).message}`);
  }
}
