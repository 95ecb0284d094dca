// The embedded backend keeps answering while its database works (issue 30, item 4): PGlite
// runs each statement to its end without a pause, so it has a thread of its own; a long piece
// of work (a sync that replaces a large account) holds up neither the requests that need no
// database nor, for long, those that do. And the database's thread dying is a 503 and a new
// thread, not a dead server. What is asserted is the order of events (answers that arrive
// while the sync is still running), never a duration: the machine may be loaded.

import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { Database } from "../../src/server/repositories/Database.js";
import { Unavailable } from "../../src/server/Unavailable.js";
import {
  bigDocument,
  call,
  dataDir,
  embeddedDataDir,
  KEY,
  OTHER_KEY,
  removeDataDirs,
  startServer,
  upload,
} from "../support/server.js";

// the probes ask often: each with a key of its own in turn, so no rate limit answers instead
const PROBE_KEYS = Array.from({ length: 40 }, (_, i) => `probe-key-${i}`);
const ACCOUNT = 71;
const USERS = 200_000;

let server: SyncfileServer;
let base: string;

beforeAll(async () => {
  server = await startServer({ apiKeys: [KEY, OTHER_KEY, ...PROBE_KEYS] });
  base = server.url;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await removeDataDirs();
});

/** What the probes saw, in the order it arrived. */
type Seen = { what: "openapi" } | { what: "state"; sync: number } | { what: "synced" };

/**
 * Asks `base` for `/openapi.json` (no database) and for the account's state (the database),
 * each one request after the other, until `until` settles; every answer is logged in order.
 */
function probe(seen: Seen[], until: Promise<unknown>): Promise<void> {
  let running = true;
  until.finally(() => {
    running = false;
  });
  let k = 0;
  const key = () => PROBE_KEYS[k++ % PROBE_KEYS.length] as string;
  const openapi = async () => {
    while (running) {
      const r = await fetch(`${base}/openapi.json`);
      await r.arrayBuffer();
      expect(r.status).toBe(200);
      if (running) seen.push({ what: "openapi" });
    }
  };
  const state = async () => {
    while (running) {
      const r = await call(base, "GET", `/v1.0/appAccounts/${ACCOUNT}`, { key: key() });
      expect(r.status, r.text).toBe(200);
      const sync = (r.body.lastSync as { idSync: number }).idSync;
      if (running) seen.push({ what: "state", sync });
    }
  };
  return Promise.all([openapi(), state()]).then(() => {});
}

describe("the embedded database on its own thread", () => {
  it("answers while a sync replaces an account of 200 k users (their rows deleted meanwhile)", async () => {
    const large = await upload(base, "large.json", bigDocument(USERS));
    const first = await call(base, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile: large, idAppAccount: ACCOUNT },
    });
    expect(first.status, first.text).toBe(200);

    // a small file: what the sync then does is mostly deleting the 200 k users it replaces
    const small = await upload(base, "small.json", bigDocument(10));
    const seen: Seen[] = [];
    const sync = call(base, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile: small, idAppAccount: ACCOUNT },
    });
    const probing = probe(seen, sync);
    const answer = await sync;
    seen.push({ what: "synced" });
    await probing;
    expect(answer.status, answer.text).toBe(200);
    const idSync = answer.body.idSync as number;

    // from the first answer showing the new sync (applied) to the sync's own answer, the old
    // rows are being deleted: both probes keep being answered all along
    const applied = seen.findIndex((s) => s.what === "state" && s.sync === idSync);
    expect(applied, "a probe saw the new sync before the sync answered").toBeGreaterThanOrEqual(0);
    const meanwhile = seen.slice(applied, seen.length - 1);
    const count = (what: Seen["what"]) => meanwhile.filter((s) => s.what === what).length;
    expect(
      count("openapi"),
      JSON.stringify({ openapi: count("openapi"), state: count("state") }),
    ).toBeGreaterThanOrEqual(10);
    expect(
      count("state"),
      JSON.stringify({ openapi: count("openapi"), state: count("state") }),
    ).toBeGreaterThanOrEqual(10);
  }, 300_000);
});

describe("a sync's rows, COPY'd into the embedded database a piece at a time while the file is read", () => {
  it("are all there for a valid file, and none stays of a file found invalid at its end", async () => {
    const dir = await dataDir();
    const own = await startServer({ dataDir: dir });
    const USERS = 40_000; // some 3 MB of rows: several pieces, committed as they go
    let valid: number;
    try {
      const good = await upload(own.url, "good.json", bigDocument(USERS));
      const synced = await call(own.url, "PUT", "/v1.0/services/sync/custom", {
        json: { idFile: good, idAppAccount: ACCOUNT },
      });
      expect(synced.status, synced.text).toBe(200);
      valid = synced.body.idSync as number;
      // the same users, the last one's status unknown: the file is invalid only at its end
      const last = `"status":"${(USERS - 1) % 10 === 0 ? "deleted" : "active"}"}],"licenses"`;
      const document = bigDocument(USERS);
      expect(document).toContain(last);
      const bad = await upload(
        own.url,
        "bad.json",
        document.replace(last, `"status":"sleeping"}],"licenses"`),
      );
      const refused = await call(own.url, "PUT", "/v1.0/services/sync/custom", {
        json: { idFile: bad, idAppAccount: ACCOUNT },
      });
      expect(refused.status, refused.text).toBe(400);
    } finally {
      await own.close();
    }
    const db = await Database.open(dir);
    try {
      for (const [table, rows] of [
        ["account_users", USERS],
        ["account_licenses", 5],
        ["account_license_users", USERS / 2],
      ] as const) {
        const kept = await db.query<{ sync_id: number; n: number }>(
          `SELECT sync_id, count(*)::int AS n FROM ${table} GROUP BY sync_id`,
        );
        expect(kept.rows, table).toEqual([{ sync_id: valid, n: rows }]);
      }
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe("the embedded database's thread dying", () => {
  it("fails what it was asking as Unavailable (a 503), and a new thread answers what comes next", async () => {
    const dir = await embeddedDataDir(); // the template's copy: no cluster made anew
    const db = await Database.open(dir);
    try {
      await db.query("CREATE TABLE kept (n int)");
      await db.query("INSERT INTO kept VALUES (1), (2)");
      // rows of 1 MB each, 600 of them: more than the thread's memory may hold, so it ends
      const tooMuch = db.query("SELECT repeat('x', 1000000) AS s FROM generate_series(1, 600)");
      await expect(tooMuch).rejects.toBeInstanceOf(Unavailable);
      await expect(tooMuch).rejects.toThrow(/the embedded database is not answering/);
      // the data directory reopened on a new thread: what was committed is there
      const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM kept");
      expect(rows).toEqual([{ n: 2 }]);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
