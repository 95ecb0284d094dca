// Several instances on one PostgreSQL database and one storage, as a team runs the service:
// they migrate once when they start together, allow the documented rate together (not each),
// and run one sync at a time between them.

import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { fixture } from "../support/paths.js";
import { createTestDatabase, queryDatabase } from "../support/postgres.js";
import {
  bucket,
  call,
  dataDir,
  holdSync,
  removeDataDirs,
  startServer,
  TestClock,
  upload,
} from "../support/server.js";

/** The rows in the account tables, every sync's. */
const ROW_COUNTS =
  "SELECT (SELECT count(*) FROM account_users)::int AS users, (SELECT count(*) FROM account_licenses)::int AS licenses, (SELECT count(*) FROM account_license_users)::int AS holders";

const started: SyncfileServer[] = [];
afterAll(async () => {
  for (const server of started) await server.close().catch(() => {});
  await removeDataDirs();
});

/** `count` instances on one new database and one new bucket, each with a data folder of its own, with one clock. */
async function instances(count: number, clock = new TestClock(), seed?: unknown) {
  const database = await createTestDatabase();
  const storage = (await bucket()).url;
  const servers = await Promise.all(
    Array.from({ length: count }, async () =>
      startServer({
        dataDir: await dataDir(),
        database,
        storage,
        clock: clock.read,
        ...(seed ? { seed: seed as never } : {}),
      }),
    ),
  );
  started.push(...servers);
  return { servers, database, clock };
}

describe("instances on one PostgreSQL database", () => {
  it("migrate once when three start together", async () => {
    const { database } = await instances(3);
    const rows = await queryDatabase<{ version: number }>(
      database,
      "SELECT version FROM syncfile_migrations ORDER BY version",
    );
    expect(rows.map((r) => r.version)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("allow an operation's rate per key together: 200 upload URLs a minute across two instances, then 429 on both", async () => {
    const { servers, clock } = await instances(2);
    const ask = (i: number) =>
      call(
        (servers[i % 2] as SyncfileServer).url,
        "GET",
        `/v1.0/files/url?name=f${i}.json&type=application/json`,
      );
    for (let i = 0; i < 200; i++) expect((await ask(i)).status, `call ${i + 1}`).toBe(200);
    const [a, b] = [await ask(0), await ask(1)];
    expect([a.status, b.status]).toEqual([429, 429]);
    expect(a.body.message).toMatch(
      /^rate limit: 200 GET \/v1\.0\/files\/url calls a minute per API key; retry in \d+ s$/,
    );
    clock.advance(60_000);
    expect((await ask(2)).status).toBe(200);
  });

  it("run one sync at a time between them: a sync on one is a 409 on the other until it ends", async () => {
    const { servers } = await instances(2);
    const [one, two] = servers as [SyncfileServer, SyncfileServer];
    const held = await holdSync(one.url, "");
    const idFile = await upload(
      two.url,
      "users.json",
      '{"users": [{"email": "a@example.com"}], "licenses": []}',
    );
    const refused = await call(two.url, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile, idAppAccount: 3 },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(
      /^another sync is running \(sync \d+, started .*\); only one sync runs at a time/,
    );
    await held.release();
    expect((await held.answer).status).toBe(200);
    const after = await call(two.url, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile, idAppAccount: 3 },
    });
    expect(after.status).toBe(200);
  });

  it("make each report archive once, whichever instances look for due reports at the same time", async () => {
    const seed = JSON.parse(readFileSync(fixture("seed.json"), "utf8"));
    const { servers, clock } = await instances(3, new TestClock(), seed);
    clock.advance(60_000); // past the report delay of every finished execution
    const made = await Promise.all(servers.map((s) => s.generateReports()));
    const list = await call((servers[0] as SyncfileServer).url, "GET", "/v1.0/accessReviews/campaigns");
    const finished = [
      ...(list.body.completedExecutions as { reportFileId: number | null }[]),
      ...(list.body.archivedExecutions as { reportFileId: number | null }[]),
    ];
    expect(finished.length).toBeGreaterThan(3);
    expect(made.reduce((a, b) => a + b, 0)).toBe(finished.length);
    const ids = finished.map((e) => e.reportFileId);
    expect(ids.every((id) => typeof id === "number")).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("load a sync's rows as they were written: tabs, line ends, backslashes, quotes, \\N, roles and dates", async () => {
    const { servers } = await instances(1);
    const url = (servers[0] as SyncfileServer).url;
    const user = {
      email: "tab@example.com",
      id: "a\tb\\N",
      firstName: "Line\nend\r\\back",
      lastName: 'quote "x" é 𝄞',
      roles: ["Admin\t1", "\\N"],
      lastUsedDate: "2026-02-28",
    };
    const doc = JSON.stringify({
      users: [user],
      licenses: [{ name: "Pro\\x", users: [{ email: user.email }] }],
    });
    const idFile = await upload(url, "odd.json", doc);
    const sync = await call(url, "PUT", "/v1.0/services/sync/custom", { json: { idFile, idAppAccount: 8 } });
    expect(sync.status).toBe(200);
    const page = await call(url, "GET", "/v1.0/appAccounts/8/users");
    expect(page.body.users).toEqual([{ ...user, licenses: [{ name: "Pro\\x", licenseStatus: "active" }] }]);
  });

  it("keep none of an invalid file's rows, though they were on their way in while the file was read", async () => {
    const { servers, database } = await instances(1);
    const url = (servers[0] as SyncfileServer).url;
    const users = Array.from({ length: 30_000 }, (_, i) => ({
      email: `u${i}@example.com`,
      status: "active",
    }));
    // the last user's date is no date: the rows before it went to COPY, and this one would fail it
    const bad = { users: [...users, { email: "late@example.com", lastUsedDate: "yesterday" }] };
    const idFile = await upload(url, "bad.json", JSON.stringify(bad));
    const refused = await call(url, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile, idAppAccount: 9 },
    });
    expect(refused.status).toBe(400);
    expect((refused.body.report as { valid: boolean }).valid).toBe(false);
    expect(await queryDatabase(database, ROW_COUNTS)).toEqual([{ users: 0, licenses: 0, holders: 0 }]);
    const good = await upload(url, "good.json", JSON.stringify({ users }));
    const synced = await call(url, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile: good, idAppAccount: 9 },
    });
    expect(synced.body).toMatchObject({ success: true, users: 30_000 });
  });

  it("keep none of a sync's rows when PostgreSQL refuses one of them, and let the next sync run", async () => {
    const { servers, database } = await instances(1);
    const url = (servers[0] as SyncfileServer).url;
    const users = Array.from({ length: 30_000 }, (_, i) => ({ email: `u${i}@example.com` }));
    const holders = users.map(({ email }) => ({ email }));
    // a row PostgreSQL refuses (a constraint of this test's: the file's rules accept every value
    // PostgreSQL can store, see server.store.test.ts): the users' COPY fails at the end, while
    // the licenses' and their users' COPYs have all their rows
    await queryDatabase(
      database,
      "ALTER TABLE account_users ADD CONSTRAINT test_refused CHECK (email <> 'refused@example.com')",
    );
    const refused = {
      users: [...users, { email: "refused@example.com" }],
      licenses: [{ name: "P", users: holders }],
    };
    const idFile = await upload(url, "refused.json", JSON.stringify(refused));
    const failed = await call(url, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile, idAppAccount: 10 },
    });
    expect(failed.status).toBe(500);
    expect(await queryDatabase(database, ROW_COUNTS)).toEqual([{ users: 0, licenses: 0, holders: 0 }]);
    const good = await upload(url, "good.json", JSON.stringify({ users }));
    const synced = await call(url, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile: good, idAppAccount: 10 },
    });
    expect(synced.body).toMatchObject({ success: true, users: 30_000 });
  });

  it("keep none of a sync's rows when PostgreSQL refuses a license user, in one of the two COPYs that share them", async () => {
    const { servers, database } = await instances(1);
    const url = (servers[0] as SyncfileServer).url;
    const users = Array.from({ length: 30_000 }, (_, i) => ({ email: `u${i}@example.com` }));
    // the refused holder in the middle of 30 000: its chunk goes to one of the two COPYs, the
    // other may hold rows of its own (both open at the start), and neither may keep them
    await queryDatabase(
      database,
      "ALTER TABLE account_license_users ADD CONSTRAINT test_refused CHECK (email <> 'u15000@example.com')",
    );
    const refused = { users, licenses: [{ name: "P", users: users.map(({ email }) => ({ email })) }] };
    const idFile = await upload(url, "refused.json", JSON.stringify(refused));
    const failed = await call(url, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile, idAppAccount: 11 },
    });
    expect(failed.status).toBe(500);
    expect(await queryDatabase(database, ROW_COUNTS)).toEqual([{ users: 0, licenses: 0, holders: 0 }]);
    const good = await upload(url, "good.json", JSON.stringify({ users: users.slice(0, 10) }));
    const synced = await call(url, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile: good, idAppAccount: 11 },
    });
    expect(synced.body).toMatchObject({ success: true, users: 10 });
  });
});
