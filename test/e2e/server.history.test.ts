// The server's history of each app account, over real HTTP on both backends: what a sync
// changed beside `success: true`, the account's syncs, the changes page by page (the same, in
// the same order, as `syncfile diff` tells them), and the guard of `--max-deletes`, which
// refuses a sync that would take away too many users and applies nothing.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { type Change, diffFiles } from "../../src/diff/diffFiles.js";
import { CHANGES, NEW, OLD } from "../support/changes.js";
import { serialize } from "../support/jsonAst.js";
import {
  call,
  dataDir,
  OTHER_KEY,
  removeDataDirs,
  removeObject,
  startServer,
  upload,
  uploadFile,
} from "../support/server.js";
import { modelAst, validModelArb } from "../support/validDocument.js";

const work = mkdtempSync(join(tmpdir(), "syncfile-history-"));
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await removeDataDirs();
});

/** Uploads `document` (text as it is) and syncs it into `account`; the answer. */
async function sync(base: string, account: number, document: unknown, headers: Record<string, string> = {}) {
  const text = typeof document === "string" ? document : JSON.stringify(document);
  const idFile = await upload(base, "users.json", text);
  return call(base, "PUT", "/v1.0/services/sync/custom", {
    json: { idFile, idAppAccount: account },
    headers,
  });
}

/** Every change of sync `idSync`, `limit` a page, following each page's next. */
async function allChanges(base: string, account: number, idSync: number, limit = 1000): Promise<Change[]> {
  const changes: Change[] = [];
  let after: string | null = null;
  do {
    const from: string = after === null ? "" : `&after=${after}`;
    const page = await call(
      base,
      "GET",
      `/v1.0/appAccounts/${account}/syncs/${idSync}/changes?limit=${limit}${from}`,
    );
    expect(page.status).toBe(200);
    changes.push(...(page.body.changes as Change[]));
    after = page.body.next as string | null;
  } while (after !== null);
  return changes;
}

const users = (n: number) => ({
  users: Array.from({ length: n }, (_, i) => ({ email: `user${i}@example.com`, status: "active" })),
  licenses: [],
});

describe("an app account's history", async () => {
  const data = await dataDir();
  const server = await startServer({ dataDir: data });
  const base = server.url;
  afterAll(() => server.close());

  it("answers each sync with what it changed, lists the syncs, and pages through the changes as syncfile diff tells them", async () => {
    const first = await sync(base, 7, OLD);
    expect(first.status).toBe(200);
    expect(first.body.changes).toEqual({
      previousSync: null,
      counts: expect.objectContaining({ "user.added": 4, "license.added": 2, "assignment.granted": 2 }),
      deletes: 0,
    });
    const second = await sync(base, 7, NEW);
    expect(second.status).toBe(200);
    const idSync = second.body.idSync as number;
    expect(second.body.changes).toEqual({
      previousSync: first.body.idSync,
      counts: {
        "user.added": 1,
        "user.removed": 1,
        "user.deactivated": 1,
        "user.reactivated": 1,
        "user.changed": 1,
        "license.added": 1,
        "license.removed": 1,
        "license.changed": 1,
        "assignment.granted": 1,
        "assignment.revoked": 1,
        "assignment.changed": 1,
      },
      deletes: 2, // bob removed, eve deactivated
    });

    const list = await call(base, "GET", "/v1.0/appAccounts/7/syncs");
    expect(list.status).toBe(200);
    const syncs = list.body.syncs as Record<string, unknown>[];
    expect(syncs.map((s) => [s.idSync, s.state, s.current, s.users])).toEqual([
      [idSync, "applied", true, 4],
      [first.body.idSync, "applied", false, 4],
    ]);
    expect(syncs[0]?.changes).toEqual(second.body.changes);
    expect(list.body.next).toBeNull();

    // every change, three a page, in the order syncfile diff tells them
    const paged = await allChanges(base, 7, idSync, 3);
    expect(paged).toEqual(CHANGES);
    const told: Change[] = [];
    const oldPath = join(work, "old.json");
    const newPath = join(work, "new.json");
    writeFileSync(oldPath, JSON.stringify(OLD));
    writeFileSync(newPath, JSON.stringify(NEW));
    await diffFiles(oldPath, newPath, (change) => told.push(change));
    expect(paged).toEqual(told);

    const removed = await call(base, "GET", `/v1.0/appAccounts/7/syncs/${idSync}/changes?kind=user.removed`);
    expect(removed.body.changes).toEqual([CHANGES[1]]);
    // the first sync: everything its file holds was added, and is not listed again
    const firstChanges = await call(base, "GET", `/v1.0/appAccounts/7/syncs/${first.body.idSync}/changes`);
    expect(firstChanges.body).toMatchObject({ previousSync: null, changes: [], next: null });
  });

  it("says which API key made each sync: in the list, on its changes page and in the account's state", async () => {
    const byFirst = await sync(base, 12, users(2));
    expect(byFirst.status).toBe(200);
    const idFile = await upload(base, "users.json", JSON.stringify(users(1)));
    const bySecond = await call(base, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile, idAppAccount: 12 },
      key: OTHER_KEY,
    });
    expect(bySecond.status).toBe(200);
    const list = await call(base, "GET", "/v1.0/appAccounts/12/syncs");
    expect((list.body.syncs as Record<string, unknown>[]).map((s) => [s.idSync, s.syncedBy])).toEqual([
      [bySecond.body.idSync, 2],
      [byFirst.body.idSync, 1],
    ]);
    for (const [synced, by] of [
      [byFirst, 1],
      [bySecond, 2],
    ] as const) {
      const page = await call(base, "GET", `/v1.0/appAccounts/12/syncs/${synced.body.idSync}/changes`);
      expect(page.body).toMatchObject({ idSync: synced.body.idSync, syncedBy: by });
    }
    const account = await call(base, "GET", "/v1.0/appAccounts/12");
    expect(account.body.lastSync).toMatchObject({ idSync: bySecond.body.idSync, syncedBy: 2 });
  });

  it("keeps, of any two valid files, the changes syncfile diff tells", async () => {
    let account = 100;
    await fc.assert(
      fc.asyncProperty(validModelArb, validModelArb, async (before, after) => {
        account++;
        const oldText = serialize(modelAst(before));
        const newText = serialize(modelAst(after));
        expect((await sync(base, account, oldText)).status).toBe(200);
        const synced = await sync(base, account, newText);
        expect(synced.status).toBe(200);
        const kept = await allChanges(base, account, synced.body.idSync as number);
        writeFileSync(join(work, "a.json"), oldText);
        writeFileSync(join(work, "b.json"), newText);
        const told: Change[] = [];
        await diffFiles(join(work, "a.json"), join(work, "b.json"), (change) => told.push(change));
        expect(kept).toEqual(told);
      }),
      { numRuns: 15, seed: 33 },
    );
  });

  it("reads the account's state back from the database when the file that made it is gone from storage", async () => {
    const { id: idFile, filePath } = await uploadFile(base, "old.json", JSON.stringify(OLD));
    const first = await call(base, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile, idAppAccount: 11 },
    });
    expect(first.status).toBe(200);
    await removeObject(base, data, filePath);
    const second = await sync(base, 11, NEW);
    expect(second.status).toBe(200);
    expect(await allChanges(base, 11, second.body.idSync as number)).toEqual(CHANGES);
  });

  it("pages through the syncs newest first with the cursor each page gives", async () => {
    for (let i = 1; i <= 3; i++) expect((await sync(base, 8, users(i))).status).toBe(200);
    const first = await call(base, "GET", "/v1.0/appAccounts/8/syncs?limit=2");
    const second = await call(base, "GET", `/v1.0/appAccounts/8/syncs?limit=2&after=${first.body.next}`);
    const seen = [
      ...(first.body.syncs as { users: number }[]),
      ...(second.body.syncs as { users: number }[]),
    ];
    expect(seen.map((s) => s.users)).toEqual([3, 2, 1]);
    expect(second.body.next).toBeNull();
  });

  it("says what is wrong with a request of the history", async () => {
    const none = await call(base, "GET", "/v1.0/appAccounts/99/syncs");
    expect(none.status).toBe(404);
    expect(none.body.message).toMatch(/app account 99 has not been synced yet/);
    const list = await call(base, "GET", "/v1.0/appAccounts/7/syncs");
    const idSync = (list.body.syncs as { idSync: number }[])[0]?.idSync as number;
    const other = await call(base, "GET", `/v1.0/appAccounts/8/syncs/${idSync}/changes`);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe(
      `app account 8 has no sync ${idSync}: GET /v1.0/appAccounts/8/syncs lists its syncs`,
    );
    const kind = await call(base, "GET", `/v1.0/appAccounts/7/syncs/${idSync}/changes?kind=user.gone`);
    expect(kind.status).toBe(400);
    expect(kind.body.message).toMatch(/^kind must be one of user\.added, user\.removed, /);
    const after = await call(base, "GET", `/v1.0/appAccounts/7/syncs/${idSync}/changes?after=x`);
    expect(after.status).toBe(400);
    expect(after.body.message).toMatch(/^after must be a whole number from 1 to 2147483647/);
    // the database keeps a change's place as an int: past it is refused, not a 500
    for (const [value, status] of [
      ["2147483648", 400],
      ["99999999999999", 400],
      ["2147483647", 200],
    ] as const) {
      const far = await call(base, "GET", `/v1.0/appAccounts/7/syncs/${idSync}/changes?after=${value}`);
      expect([far.status, far.body.message], value).toEqual([
        status,
        status === 400 ? `after must be a whole number from 1 to 2147483647, got "${value}"` : undefined,
      ]);
      if (status === 200) expect(far.body.changes).toEqual([]);
    }

    // an invalid file is never compared: its sync is in the list, without changes
    const invalid = await sync(base, 7, { users: [{ email: "not an email" }] });
    expect(invalid.status).toBe(400);
    const latest = (await call(base, "GET", "/v1.0/appAccounts/7/syncs?limit=1")).body.syncs as {
      idSync: number;
      state: string;
      changes: unknown;
    }[];
    expect(latest[0]).toMatchObject({ state: "invalid", changes: null, current: false });
    const never = await call(base, "GET", `/v1.0/appAccounts/7/syncs/${latest[0]?.idSync}/changes`);
    expect(never.status).toBe(404);
    expect(never.body.message).toMatch(/was never compared with the account \(it is invalid\)/);
  });

  it("keeps the changes of an account's last 20 compared syncs, and says so of an older one (410)", async () => {
    const syncIds: number[] = [];
    for (let i = 0; i < 22; i++)
      syncIds.push((await sync(base, 9, users(1 + (i % 2)))).body.idSync as number);
    const dropped = await call(base, "GET", `/v1.0/appAccounts/9/syncs/${syncIds[1]}/changes`);
    expect(dropped.status).toBe(410);
    expect(dropped.body.message).toMatch(
      /are no longer kept \(the server keeps those of each account's last 20 syncs\)/,
    );
    const kept = await call(base, "GET", `/v1.0/appAccounts/9/syncs/${syncIds[2]}/changes`);
    expect(kept.status).toBe(200);
    expect(kept.body.changes).toHaveLength(1);
    const list = await call(base, "GET", "/v1.0/appAccounts/9/syncs?limit=30");
    const old = (list.body.syncs as { idSync: number; changesKept: boolean; changes: unknown }[]).find(
      (s) => s.idSync === syncIds[1],
    );
    // the counts stay: that sync added user1
    expect(old).toMatchObject({ changesKept: false, changes: { counts: { "user.added": 1 }, deletes: 0 } });
  });
});

describe("the guard of syncfile serve --max-deletes", async () => {
  const server = await startServer({ maxDeletes: 2 });
  const base = server.url;
  afterAll(() => server.close());

  it("refuses a sync that would take away more users, applies nothing, and goes ahead when allowed", async () => {
    expect((await sync(base, 3, users(6))).status).toBe(200);
    // an export cut short: 4 of 6 users gone, one more deactivated
    const cut = {
      users: [{ email: "user0@example.com" }, { email: "user1@example.com", status: "deleted" }],
    };
    const refused = await sync(base, 3, cut);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(
      /^the sync would take away 5 users \(removed, or deactivated\) of the account's state made by sync \d+, more than this server's --max-deletes 2; nothing was applied\. First: user1@example\.com, user2@example\.com, user3@example\.com, user4@example\.com, user5@example\.com\. .*send it again with the header syncfile-allow-deletes: true$/,
    );
    const guard = refused.body.guard as { idSync: number; deletes: number; takenAway: string[] };
    expect(guard).toMatchObject({ maxDeletes: 2, deletes: 5 });
    expect(guard.takenAway).toHaveLength(5);
    // nothing was applied: the account still shows its six users
    expect((await call(base, "GET", "/v1.0/appAccounts/3")).body.users).toEqual({ active: 6, deleted: 0 });
    // the refused sync is in the history, with what it would have changed
    const list = await call(base, "GET", "/v1.0/appAccounts/3/syncs?limit=1");
    expect((list.body.syncs as unknown[])[0]).toMatchObject({
      idSync: guard.idSync,
      state: "refused",
      current: false,
    });
    const would = await call(
      base,
      "GET",
      `/v1.0/appAccounts/3/syncs/${guard.idSync}/changes?kind=user.removed`,
    );
    expect((would.body.changes as Change[]).map((c) => "email" in c && c.email)).toEqual([
      "user2@example.com",
      "user3@example.com",
      "user4@example.com",
      "user5@example.com",
    ]);

    const allowed = await sync(base, 3, cut, { "syncfile-allow-deletes": "true" });
    expect(allowed.status).toBe(200);
    expect(allowed.body.changes).toMatchObject({ deletes: 5 });
    expect((await call(base, "GET", "/v1.0/appAccounts/3")).body.users).toEqual({ active: 1, deleted: 1 });
    // within the threshold: no refusal
    expect((await sync(base, 3, users(1))).status).toBe(200);
  });
});
