// The embedded database's own thread: PGlite (PostgreSQL in WebAssembly) runs each statement
// to its end without a pause, so on the server's thread one long statement (a page at a deep
// offset, a batch of a sync's rows) would hold every request up. Here it holds up only the
// statements queued behind it. One request at a time, in the order sent (_pgliteMessages.ts);
// a transaction is PGlite's own, held open from "begin" until "commit" or "rollback".

import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import type { FromPglite, PgliteErrorData, PgliteWorkerData, ToPglite } from "./_pgliteMessages.js";

const INT8 = 20;
const NUMERIC = 1700;

const port = parentPort;
if (!port) throw new Error("_pgliteWorker runs as a worker thread");
const { dir, settings } = workerData as PgliteWorkerData;

/** The transaction under way: its queries, and how it ends. */
let open: { tx: Transaction; end(commit: boolean): Promise<void> } | null = null;

const say = (message: FromPglite) => port.postMessage(message);

async function handle(db: PGlite, message: ToPglite): Promise<FromPglite> {
  const { id } = message;
  switch (message.op) {
    case "query": {
      if (message.tx && !open) throw new Error("a transaction's query after its end");
      if (!message.tx && open) throw new Error("a query outside the transaction under way");
      const results = await (open?.tx ?? db).query(message.sql, message.params);
      return { id, ok: true, rows: results.rows, affectedRows: results.affectedRows ?? null };
    }
    case "copy": {
      if (open) throw new Error("a COPY while a transaction is under way");
      const results = await db.query(message.sql, [], { blob: new Blob([message.bytes]) });
      return { id, ok: true, rows: [], affectedRows: results.affectedRows ?? null };
    }
    case "exec":
      await db.exec(message.sql);
      return { id, ok: true, rows: [], affectedRows: null };
    case "begin":
      open = await begin(db);
      return { id, ok: true, rows: [], affectedRows: null };
    case "commit":
    case "rollback": {
      const ending = open;
      open = null;
      await ending?.end(message.op === "commit");
      return { id, ok: true, rows: [], affectedRows: null };
    }
    case "close":
      await db.close();
      return { id, ok: true, rows: [], affectedRows: null };
  }
}

/** Begins a transaction of PGlite's; resolves once it is open, with how to end it. */
function begin(db: PGlite): Promise<{ tx: Transaction; end(commit: boolean): Promise<void> }> {
  return new Promise((opened, failed) => {
    let finish: (commit: boolean) => void = () => {};
    let ended: Promise<void> = Promise.resolve();
    const end = async (commit: boolean) => {
      finish(commit);
      await ended; // the COMMIT's own failure, if any
    };
    ended = db
      .transaction(
        (tx) =>
          new Promise<void>((resolve, reject) => {
            finish = (commit) => (commit ? resolve() : reject(ROLLBACK));
            opened({ tx, end });
          }),
      )
      .then(
        () => {},
        (error: unknown) => {
          if (error !== ROLLBACK) throw error;
        },
      );
    ended.catch(failed); // BEGIN itself failed: nothing was opened (later, too late to matter)
  });
}

const ROLLBACK = Symbol("rollback");

function errorData(error: unknown): PgliteErrorData {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: Record<string, string | number | undefined> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === "string" || typeof value === "number") fields[key] = value;
  }
  return { message: error.message, fields };
}

try {
  const db = await PGlite.create(dir, {
    postgresqlconf: [...settings],
    // ids and counts fit in a double here; money stays exact as integers too
    parsers: { [INT8]: Number, [NUMERIC]: Number },
  });
  let queue = Promise.resolve();
  port.on("message", (message: ToPglite) => {
    queue = queue.then(async () => {
      try {
        say(await handle(db, message));
      } catch (error) {
        say({ id: message.id, ok: false, error: errorData(error) });
      }
    });
  });
  say({ op: "ready" });
} catch (error) {
  say({ op: "failed", error: errorData(error) });
}
