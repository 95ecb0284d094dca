// What the server's thread and the embedded database's thread (_pgliteWorker.ts) say to each
// other: requests with an id, each answered once with that id, in the order they were sent.

/** How the database's thread opens the data directory's cluster. */
export interface PgliteWorkerData {
  /** The cluster's directory (`<data>/db`). */
  dir: string;
  /** postgresql.conf lines. */
  settings: readonly string[];
}

/** A request to the database's thread. `tx`: a query of the transaction begun before it. */
export type ToPglite =
  | { id: number; op: "query"; sql: string; params: unknown[]; tx: boolean }
  | { id: number; op: "exec"; sql: string }
  /** COPY … FROM '/dev/blob' of `bytes`, whole lines of COPY text. */
  | { id: number; op: "copy"; sql: string; bytes: Uint8Array }
  | { id: number; op: "begin" | "commit" | "rollback" | "close" };

/** An error of the database, as plain data (PostgreSQL's fields kept: code, detail, …). */
export interface PgliteErrorData {
  message: string;
  fields: Record<string, string | number | undefined>;
}

/** The database's thread: opened (or why not), and the answer to each request. */
export type FromPglite =
  | { op: "ready" }
  | { op: "failed"; error: PgliteErrorData }
  | { id: number; ok: true; rows: unknown[]; affectedRows: number | null }
  | { id: number; ok: false; error: PgliteErrorData };
