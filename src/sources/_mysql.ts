// A MySQL or MariaDB query's rows as a CSV file, as sql.ts makes PostgreSQL's: the query runs in a
// read-only transaction and its rows are streamed, the connection paused while the file's writer
// is behind, so a table of any size is never held here. Loaded only for mysql:// and mariadb://
// URLs, so that a PostgreSQL job never loads mysql2. Values are written as the records' mapping
// reads them: DATETIME and TIMESTAMP as ISO dates in UTC (the session's time zone), booleans as
// the 1 and 0 MySQL has for them, BIT as its number, NULL as empty, BLOB and binary as base64.

import { Buffer } from "node:buffer";
import type { Readable } from "node:stream";
import { pipeline, Transform } from "node:stream";
import { stringify } from "csv-stringify";
import type { Connection as CoreConnection } from "mysql2";
import mysql from "mysql2/promise";
import { redactText, redactUrl } from "syncfile/internal/text/redact.js";
import { SourceError } from "./SourceError.js";
import type { SqlSource } from "./SourceSpec.js";

/** What the server says of a column, as mysql2 hands it over. */
interface Column {
  name: string;
  columnType: number;
}

const { DATETIME, TIMESTAMP, BIT } = mysql.Types;
// a DATETIME that is not one (MySQL's zero date), written empty as NULL is
const ZERO_DATE = /^0000-00-00/;

/**
 * Runs `source`'s query on MySQL or MariaDB and hands its rows, as CSV with a header of the
 * query's column names, to `copy`; throws SourceError with the server's own message. `ssl`: the
 * TLS settings of the job's `tls`, or null.
 */
export async function fetchMysql(
  source: SqlSource,
  ssl: { rejectUnauthorized: true; ca?: string } | null,
  copy: (rows: () => Readable) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const url = new URL(source.url);
  const connection = await mysql
    .createConnection({
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port === "" ? 3306 : Number(url.port),
      user: decoded(url.username),
      password: source.password ?? decoded(url.password),
      ...(url.pathname.length > 1 ? { database: decoded(url.pathname.slice(1)) } : {}),
      ...(ssl ? { ssl } : {}),
      connectTimeout: 30_000,
      // dates as the server writes them (made ISO below), never through the local time zone
      dateStrings: true,
      jsonStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
    })
    .catch((error: Error) => {
      throw new SourceError(`cannot connect to ${redactUrl(source.url)}: ${redactText(error.message)}`);
    });
  // the callback connection under the promise one (mysql2 types it on pool connections only):
  // its query().stream() is the one that streams, pausing the socket while the reader is behind
  const core = (connection as unknown as { connection: CoreConnection }).connection;
  let csv: Readable | null = null;
  // the connection lost half way (the server gone, the connection killed) fails the rows under
  // way: mysql2 tells a streamed query nothing of it, only the connection
  core.on("error", (error: Error) => csv?.destroy(error));
  // an abort drops the connection and ends the rows with its reason, never as if they were all
  const stop = () => {
    csv?.destroy(signal?.reason);
    connection.destroy();
  };
  signal?.addEventListener("abort", stop, { once: true });
  let failed = true;
  try {
    signal?.throwIfAborted();
    await run(connection, "SET time_zone = '+00:00'");
    await run(connection, "START TRANSACTION READ ONLY");
    const query = source.query.trim().replace(/;\s*$/, "");
    await copy(() => {
      csv = csvOf(core.query({ sql: query, rowsAsArray: true }).stream());
      return csv;
    }).catch((error: Error) => {
      if (signal?.aborted) throw signal.reason;
      throw error instanceof SourceError
        ? error
        : new SourceError(`the query failed: ${redactText(error.message)}`);
    });
    signal?.throwIfAborted();
    await run(connection, "COMMIT");
    failed = false;
  } finally {
    signal?.removeEventListener("abort", stop);
    // a connection that failed, or was left half way through the rows, is dropped, not ended
    if (failed) connection.destroy();
    else await connection.end().catch(() => connection.destroy());
  }
}

/** A part of the URL percent-decoded; as written when it is not valid percent-encoding. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

async function run(connection: mysql.Connection, statement: string): Promise<void> {
  await connection.query(statement).catch((error: Error) => {
    throw new SourceError(`the query failed: ${redactText(error.message)}`);
  });
}

/** The CSV of `rows` (arrays, as mysql2 streams them), its header the query's column names. */
function csvOf(rows: Readable): Readable {
  let columns: Column[] | null = null;
  rows.on("fields", (fields: Column[]) => {
    columns = fields;
  });
  let header = false;
  const values = new Transform({
    objectMode: true,
    transform(row: unknown, _encoding, done) {
      if (columns === null || !Array.isArray(row)) {
        return done(new Error("the query gave no rows: it is not a SELECT"));
      }
      if (!header) {
        header = true;
        this.push(columns.map((column) => column.name));
      }
      const known: Column[] = columns;
      done(
        null,
        row.map((value: unknown, i) => csvValue(value, known[i] as Column)),
      );
    },
    flush(done) {
      if (!header && columns !== null) this.push(columns.map((column) => column.name));
      done(columns === null ? new Error("the query gave no rows: it is not a SELECT") : null);
    },
  });
  // an error of any of the three (the server's, half way) ends the CSV with it, for the reader
  return pipeline(rows, values, stringify(), () => {});
}

/** A value as the CSV holds it; null and undefined are written empty. */
function csvValue(value: unknown, column: Column): unknown {
  if (value === null || value === undefined) return null;
  if (column.columnType === DATETIME || column.columnType === TIMESTAMP) {
    const text = String(value);
    return ZERO_DATE.test(text) ? null : `${text.replace(" ", "T")}Z`;
  }
  if (Buffer.isBuffer(value)) {
    return column.columnType === BIT
      ? BigInt(`0x${value.toString("hex") || "0"}`).toString()
      : value.toString("base64");
  }
  return value;
}
