// What a failing PostgreSQL or Redis does to an instance: a connection the database drops in
// the middle of a sync (a restart, a failover, pg_terminate_backend) fails that sync with a 503
// and changes nothing, and the instance goes on serving; a database or Redis that goes away
// is a 503 with Retry-After for as long as it is away, said once in the log, and the instance
// serves again when it is back.

import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { createTestDatabase, queryDatabase } from "../support/postgres.js";
import { type Passage, startPassage } from "../support/proxy.js";
import {
  bigDocument,
  bucket,
  call,
  dataDir,
  holdSync,
  KEY,
  removeDataDirs,
  startServer,
  upload,
} from "../support/server.js";
import { waitFor } from "../support/waitFor.js";

const started: SyncfileServer[] = [];
const passages: Passage[] = [];
afterAll(async () => {
  for (const server of started) await server.close().catch(() => {});
  for (const passage of passages) await passage.close();
  await removeDataDirs();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const ACCOUNT = 901;

/** A server on a new database, with the database's URL. */
async function server(options: { database?: string; redis?: string; storage?: string } = {}) {
  const database = options.database ?? (await createTestDatabase());
  const data = await dataDir();
  const instance = await startServer({
    dataDir: data,
    database,
    storage: options.storage ?? (await bucket()).url,
    ...(options.redis ? { redis: options.redis } : {}),
  });
  started.push(instance);
  return { instance, database, data };
}

/** The backends of the database at `url` (not ours) whose last statement is like `pattern`. */
async function backends(url: string, pattern: string): Promise<number[]> {
  const name = new URL(url).pathname.slice(1);
  const rows = await queryDatabase<{ pid: number }>(
    url,
    `SELECT pid FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid() AND query LIKE '${pattern}'`,
  );
  return rows.map((r) => r.pid);
}

/** Waits until `count` backends of the database at `url` run a statement like `pattern`; their ids. */
async function awaitBackends(url: string, pattern: string, count: number, what: string): Promise<number[]> {
  let pids: number[] = [];
  await waitFor(async () => {
    pids = await backends(url, pattern);
    return pids.length === count;
  }, what);
  return pids;
}

async function terminate(url: string, pids: number[]): Promise<void> {
  await queryDatabase(
    url,
    `SELECT pg_terminate_backend(pid) FROM unnest(ARRAY[${pids.join(",")}]::int[]) AS pid`,
  );
}

async function sync(base: string, id: number) {
  return call(base, "PUT", "/v1.0/services/sync/custom", { json: { idFile: id, idAppAccount: ACCOUNT } });
}

/** The account's state (its counts of the last sync applied), or its status when there is none. */
async function account(base: string) {
  const answer = await call(base, "GET", `/v1.0/appAccounts/${ACCOUNT}`);
  return answer.status === 200 ? answer.body : answer.status;
}

/** A first sync of 20 users, so that the account has a state a failed sync must keep. */
async function firstSync(base: string) {
  const done = await sync(base, await upload(base, "first.json", bigDocument(20, "first.example")));
  expect(done.status).toBe(200);
  return account(base);
}

/** The sync's answer is a 503 that says the database did not answer, and asks to come back. */
function expectUnavailable(answer: { status: number; body: Record<string, unknown>; headers: Headers }) {
  expect(answer.status).toBe(503);
  expect(answer.body.message).toMatch(/database .* is not answering .*nothing was changed/);
  expect(answer.headers.get("retry-after")).toBe("5");
}

describe("a connection PostgreSQL drops during a sync", () => {
  it("mid-COPY: the sync answers 503, the account keeps its state, the instance serves and syncs again", async () => {
    const { instance, database, data } = await server();
    const before = await firstSync(instance.url);
    const held = await holdSync(instance.url, data, ACCOUNT);
    // the four COPYs (two of them share the license users) open while the file is held back
    await terminate(database, await awaitBackends(database, "COPY account_%", 4, "the sync's four COPYs"));
    await held.release();
    expectUnavailable(await held.answer);
    expect(await account(instance.url)).toEqual(before);
    const again = await sync(instance.url, await upload(instance.url, "again.json", bigDocument(30)));
    expect(again.status).toBe(200);
    expect(again.body.users).toBe(30);
  });

  it("one COPY of four: the dropped connection is the reason, not the COPYs abandoned for it", async () => {
    const { instance, database, data } = await server();
    const before = await firstSync(instance.url);
    const held = await holdSync(instance.url, data, ACCOUNT);
    await awaitBackends(database, "COPY account_%", 4, "the sync's four COPYs");
    // one of the two COPYs of the license users: the users' COPY, first of the four, and the
    // other license users' fail only because they are abandoned; this once answered 500 with
    // "the sync's rows were abandoned" whenever it failed first
    const licenseUsers = await backends(database, "COPY account_license_users%");
    expect(licenseUsers).toHaveLength(2);
    await terminate(database, licenseUsers.slice(0, 1));
    await held.release();
    expectUnavailable(await held.answer);
    expect(await account(instance.url)).toEqual(before);
  });

  it("the connection holding the sync lock: the sync does not apply (another instance may sync now)", async () => {
    const { instance, database, data } = await server();
    const before = await firstSync(instance.url);
    const held = await holdSync(instance.url, data, ACCOUNT);
    const holder = await backends(database, "SELECT pg_try_advisory_lock%");
    expect(holder).toHaveLength(1);
    await terminate(database, holder);
    // an instance that starts a sync now takes the lock that the dead connection held
    const other = await server({ database });
    const meanwhile = await sync(
      other.instance.url,
      await upload(other.instance.url, "b.json", bigDocument(7)),
    );
    expect(meanwhile.status).toBe(200);
    await held.release();
    expectUnavailable(await held.answer);
    // the account is what the other instance's sync made it: 7 users, one of them deleted
    expect(await account(instance.url)).toMatchObject({ users: { active: 6, deleted: 1 } });
    expect(before).toMatchObject({ users: { active: 18, deleted: 2 } });
    const again = await sync(instance.url, await upload(instance.url, "again.json", bigDocument(30)));
    expect(again.status).toBe(200);
  });

  it("mid-apply: the sync answers 503 and changes nothing", async () => {
    const { instance, database } = await server();
    const before = await firstSync(instance.url);
    // the test holds the account's row, so the apply waits for it; then its connection is dropped
    const blocker = new pg.Client({ connectionString: database });
    await blocker.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query("SELECT * FROM app_accounts WHERE id = $1 FOR UPDATE", [ACCOUNT]);
      const answer = sync(instance.url, await upload(instance.url, "next.json", bigDocument(40)));
      const pattern = "SELECT current_sync FROM app_accounts%";
      await terminate(
        database,
        await awaitBackends(database, pattern, 1, "the apply waiting for the account's row"),
      );
      expectUnavailable(await answer);
    } finally {
      await blocker.query("ROLLBACK");
      await blocker.end();
    }
    expect(await account(instance.url)).toEqual(before);
    const leftovers = await queryDatabase<{ n: number }>(
      database,
      "SELECT count(*)::int AS n FROM account_users WHERE sync_id NOT IN (SELECT current_sync FROM app_accounts)",
    );
    expect(leftovers).toEqual([{ n: 0 }]);
    const again = await sync(instance.url, await upload(instance.url, "again.json", bigDocument(30)));
    expect(again.status).toBe(200);
  });
});

describe("a dependency that goes away", () => {
  /** What the instance writes to the log from now on (it runs in this process). */
  function logLines(): { filter(pattern: RegExp): string[] } {
    const write = vi.spyOn(process.stderr, "write");
    return { filter: (pattern) => write.mock.calls.map((c) => String(c[0])).filter((l) => pattern.test(l)) };
  }

  it("PostgreSQL: every call is a 503 with Retry-After while it is away, said once; served when it is back", async () => {
    const real = new URL(await createTestDatabase());
    const passage = await startPassage(real.hostname, Number(real.port));
    passages.push(passage);
    const through = new URL(real);
    through.port = String(passage.port);
    const { instance } = await server({ database: through.toString() });
    expect((await call(instance.url, "GET", "/v1.0/accessReviews/campaigns")).status).toBe(200);
    const lines = logLines();
    passage.cut();
    for (let i = 0; i < 3; i++) {
      const answer = await call(instance.url, "GET", "/v1.0/accessReviews/campaigns");
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("5");
      expect(answer.body.message).toMatch(/^the database postgres:\/\/.* is not answering/);
    }
    expect(lines.filter(/is not answering/)).toHaveLength(1);
    passage.restore();
    await waitFor(
      async () => (await call(instance.url, "GET", "/v1.0/accessReviews/campaigns")).status === 200,
      "the instance to serve again",
    );
    expect(lines.filter(/answers again/)).toHaveLength(1);
  });

  it("Redis: every call is a 503 with Retry-After while it is away, said once; served when it is back", async () => {
    const redis = new URL(process.env.SYNCFILE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
    const passage = await startPassage(redis.hostname, Number(redis.port || 6379));
    passages.push(passage);
    const { instance } = await server({ redis: `redis://127.0.0.1:${passage.port}` });
    const ask = () =>
      call(
        instance.url,
        "GET",
        `/v1.0/files/url?name=f-${randomBytes(3).toString("hex")}.json&type=application/json`,
        {
          key: KEY,
        },
      );
    expect((await ask()).status).toBe(200);
    const lines = logLines();
    passage.cut();
    for (let i = 0; i < 3; i++) {
      const answer = await ask();
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("5");
      expect(answer.body.message).toMatch(/^Redis at redis:\/\/127\.0\.0\.1:\d+ is not answering/);
      // a 5xx body names its request, as the answer's header and the log do
      expect(answer.body.requestId).toBe(answer.headers.get("x-request-id"));
    }
    expect(lines.filter(/is not answering/)).toHaveLength(1);
    // not ready meanwhile, and it says which dependency
    const ready = await call(instance.url, "GET", "/readyz", { key: null });
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: "not ready", checks: { database: "ok", storage: "ok" } });
    expect((ready.body.checks as { redis: string }).redis).not.toBe("ok");
    passage.restore();
    await waitFor(async () => (await ask()).status === 200, "the instance to serve again");
    expect((await call(instance.url, "GET", "/readyz", { key: null })).body).toEqual({
      status: "ready",
      checks: { database: "ok", storage: "ok", redis: "ok" },
    });
    expect(lines.filter(/answers again/)).toHaveLength(1);
  });

  it("the bucket: a sync or download is a 503 with Retry-After while it is away, said once; both work when it is back", async () => {
    const made = await bucket();
    const storage = new URL(made.url.replace(/^s3:/, "http:"));
    const endpoint = new URL(storage.searchParams.get("endpoint") as string);
    const passage = await startPassage(endpoint.hostname, Number(endpoint.port));
    passages.push(passage);
    storage.searchParams.set("endpoint", `http://127.0.0.1:${passage.port}`);
    const { instance } = await server({ storage: storage.toString().replace(/^http:/, "s3:") });
    const before = await firstSync(instance.url);
    const id = await upload(instance.url, "next.json", bigDocument(40));
    const lines = logLines();
    passage.cut();
    const failed = await sync(instance.url, id);
    expect(failed.status).toBe(503);
    expect(failed.headers.get("retry-after")).toBe("5");
    expect(failed.body.message).toMatch(/^the bucket s3:\/\/syncfile-\w+\/ is not answering/);
    expect((await call(instance.url, "GET", `/v1.0/files/${id}/download`)).status).toBe(503);
    expect(lines.filter(/is not answering/)).toHaveLength(1);
    expect(await account(instance.url)).toEqual(before);
    passage.restore();
    const again = await sync(instance.url, id);
    expect(again.status).toBe(200);
    expect(lines.filter(/answers again/)).toHaveLength(1);
    expect((await call(instance.url, "GET", `/v1.0/files/${id}/download`)).status).toBe(302);
  });

  it("the bucket: a connection lost while a sync reads the file is a 503, and the account keeps its state", async () => {
    const made = await bucket();
    const { instance } = await server({ storage: made.url });
    const before = await firstSync(instance.url);
    const id = await upload(instance.url, "next.json", bigDocument(2000));
    made.proxy.cutNext(new RegExp(`^GET /${made.name}/`), 20_000, "reset");
    const failed = await sync(instance.url, id);
    expect(made.proxy.cuts).toBe(1);
    expect(failed.status).toBe(503);
    expect(failed.body.message).toMatch(/^the bucket .* is not answering \(ECONNRESET/);
    expect(await account(instance.url)).toEqual(before);
    expect((await sync(instance.url, id)).status).toBe(200);
  });
});
