// Regressions of issue 30 on what stays behind a file id: an upload URL replayed after its file
// is registered never changes what the id syncs or downloads (the disk storage refuses the PUT;
// a bucket's presigned PUT cannot be refused, so the registration pins the object and a changed
// one is refused), and names of any script or punctuation go the whole way — upload URL, PUT,
// registration, download named by its Content-Disposition, sync — on both backends.

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { Database } from "../../src/server/repositories/Database.js";
import { fixture } from "../support/paths.js";
import { BACKEND, createTestDatabase, queryDatabase } from "../support/postgres.js";
import {
  call,
  dataDir,
  removeDataDirs,
  STORAGE,
  startServer,
  TestClock,
  uploadFile,
} from "../support/server.js";

const clock = new TestClock();
let server: SyncfileServer;
let base: string;

beforeAll(async () => {
  server = await startServer({ clock: clock.read });
  base = server.url;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await removeDataDirs();
});

const example = readFileSync(fixture("valid/example.json"));
/** A valid document of one user, told apart from `example` by the sync's counts. */
const oneUser = (email: string) => JSON.stringify({ users: [{ email, status: "active" }] });
const put = (url: string, body: string | Uint8Array, type = "application/json") =>
  fetch(url, {
    method: "PUT",
    headers: { "content-type": type },
    body: typeof body === "string" ? body : new Uint8Array(body),
  });

/** The name a Content-Disposition gives, read as RFC 6266 says: `filename*` first, else `filename`. */
function dispositionName(header: string | null): string | null {
  const star = /(?:^|;)\s*filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(header ?? "");
  if (star) return decodeURIComponent(star[1] as string);
  return (
    /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header ?? "")?.[1]?.replace(/\\(.)/g, "$1") ?? null
  );
}

describe("an upload URL after its file is registered", () => {
  it("cannot change what the file id syncs or downloads", async () => {
    const step1 = await call(base, "GET", "/v1.0/files/url?name=replay.json&type=application/json");
    const { url, filePath } = step1.body.uploadFileParameters as { url: string; filePath: string };
    // before registration a second PUT is allowed: the last one wins
    expect((await put(url, oneUser("first@example.com"))).status).toBe(200);
    expect((await put(url, example)).status).toBe(200);
    const registered = await call(base, "POST", "/v1.0/files", {
      json: { path: filePath, type: "customIntegrationData" },
    });
    expect(registered.status).toBe(200);
    const idFile = registered.body.id as number;

    // the same URL again, well within its 5 minutes
    const replay = await put(url, oneUser("mallory@example.com"));
    if (STORAGE === "disk") {
      expect(replay.status).toBe(409);
      expect(((await replay.json()) as { message: string }).message).toBe(
        `${filePath} is registered as a file and cannot change: ask GET /v1.0/files/url for a new URL to upload another file`,
      );
      const sync = await call(base, "PUT", "/v1.0/services/sync/custom", {
        json: { idFile, idAppAccount: 7 },
      });
      expect(sync.status).toBe(200);
      expect(sync.body).toMatchObject({ users: 3, licenses: 2 }); // example.json, the registered bytes
      const download = await call(base, "GET", `/v1.0/files/${idFile}/download`);
      expect(download.status).toBe(302);
      const bytes = Buffer.from(
        await (await fetch(download.headers.get("location") as string)).arrayBuffer(),
      );
      expect(bytes.equals(example)).toBe(true);
    } else {
      // a bucket takes the presigned PUT; what the id names is what was there at registration
      expect(replay.status).toBe(200);
      const sync = await call(base, "PUT", "/v1.0/services/sync/custom", {
        json: { idFile, idAppAccount: 7 },
      });
      expect(sync.status).toBe(409);
      expect(sync.body.message).toBe(
        `the object at ${filePath} changed after its file was registered: upload the file again and register the new one`,
      );
      const download = await call(base, "GET", `/v1.0/files/${idFile}/download`);
      expect(download.status).toBe(409);
      expect(download.body.message).toBe(sync.body.message);
      // and the account was left as it was: never synced
      expect((await call(base, "GET", "/v1.0/appAccounts/7")).status).toBe(404);
    }
  });

  it("is a path of its own: two uploads of one name in one millisecond do not meet", async () => {
    // the test clock stands still: both URLs are asked for at the same instant
    const first = await uploadFile(base, "same.json", oneUser("one@example.com"));
    const second = await uploadFile(base, "same.json", oneUser("two@example.com"));
    expect(second.filePath).not.toBe(first.filePath);
    for (const [{ id }, email] of [
      [first, "one@example.com"],
      [second, "two@example.com"],
    ] as const) {
      const download = await call(base, "GET", `/v1.0/files/${id}/download`);
      const text = await (await fetch(download.headers.get("location") as string)).text();
      expect(text).toContain(email);
    }
  });

  it("a second registration of the same upload names the same bytes", async () => {
    const { id, filePath } = await uploadFile(base, "twice.json", example);
    const again = await call(base, "POST", "/v1.0/files", {
      json: { path: filePath, type: "customIntegrationData" },
    });
    expect(again.status).toBe(200);
    for (const idFile of [id, again.body.id as number]) {
      const sync = await call(base, "PUT", "/v1.0/services/sync/custom", {
        json: { idFile, idAppAccount: 8 },
      });
      expect(sync.status).toBe(200);
    }
  });
});

describe("a data directory or database of an earlier release", () => {
  it("gains the files' pin and uploader columns, the sync history and its syncer when the server starts on it, and registers and syncs", async () => {
    const dir = await dataDir();
    const database = BACKEND === "postgres" ? await createTestDatabase() : undefined;
    const where = database ? { dataDir: dir, database } : { dataDir: dir };
    // the tables as an earlier release left them: no pin or uploader column, no sync history,
    // no syncer (and, on PostgreSQL, no migration 3, 4, 5 or 6); with a sync made then
    const before = await startServer(where);
    const earlierFile = (await uploadFile(before.url, "earlier.json", example)).id;
    const earlierSync = await call(before.url, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile: earlierFile, idAppAccount: 4 },
    });
    expect(earlierSync.status, earlierSync.text).toBe(200);
    await before.close();
    const earlier = [
      "ALTER TABLE files DROP COLUMN object_pin, DROP COLUMN uploaded_by",
      "DROP TABLE sync_changes",
      "ALTER TABLE syncs DROP COLUMN previous_sync, DROP COLUMN changes, DROP COLUMN changes_kept, DROP COLUMN synced_by",
    ];
    if (database) {
      for (const sql of earlier) await queryDatabase(database, sql);
      await queryDatabase(database, "DELETE FROM syncfile_migrations WHERE version >= 3");
    } else {
      const db = await Database.open(dir);
      for (const sql of earlier) await db.query(sql);
      await db.close();
    }
    const upgraded = await startServer(where);
    try {
      const idFile = (await uploadFile(upgraded.url, "old.json", example)).id;
      const sync = await call(upgraded.url, "PUT", "/v1.0/services/sync/custom", {
        json: { idFile, idAppAccount: 3 },
      });
      expect(sync.status, sync.text).toBe(200);
      const history = await call(upgraded.url, "GET", "/v1.0/appAccounts/3/syncs");
      expect(history.body.syncs).toMatchObject([{ state: "applied", current: true, syncedBy: 1 }]);
      // a sync made before the column says nobody knows who
      const made = await call(upgraded.url, "GET", "/v1.0/appAccounts/4/syncs");
      expect(made.body.syncs).toMatchObject([{ idSync: earlierSync.body.idSync, syncedBy: null }]);
      expect((await call(upgraded.url, "GET", "/v1.0/appAccounts/4")).body.lastSync).toMatchObject({
        syncedBy: null,
      });
      const information = await call(upgraded.url, "GET", `/v1.0/files/${idFile}?type=customIntegrationData`);
      expect(information.body.file).toMatchObject({ id: idFile, uploadedBy: 1 });
    } finally {
      await upgraded.close();
    }
  }, 60_000);
});

describe("file names of any script and punctuation", () => {
  const names = [
    "日本.json",
    "Привет мир.json",
    "مرحبا.json",
    "🎉 party.json",
    "ü.json",
    "50%off.json",
    "a+b.json",
    "c#1.json",
    "two  spaces.json",
    'say "hi".json',
    "it's (1).json",
    "a;b=c.json",
    "%41%2F.json",
  ];

  it.each(names.map((n) => [n]))(
    "%s: upload URL, PUT, register, download under its name, sync",
    async (name) => {
      const step1 = await call(
        base,
        "GET",
        `/v1.0/files/url?name=${encodeURIComponent(name)}&type=application/json`,
      );
      expect(step1.status).toBe(200);
      const { url, filePath } = step1.body.uploadFileParameters as { url: string; filePath: string };
      expect(filePath.slice(filePath.indexOf("/") + 1)).toBe(name);
      const stored = await put(url, example);
      expect(stored.status, await stored.text()).toBe(200);
      const registered = await call(base, "POST", "/v1.0/files", {
        json: { path: filePath, type: "customIntegrationData" },
      });
      expect(registered.status, registered.text).toBe(200);
      const idFile = registered.body.id as number;

      const download = await call(base, "GET", `/v1.0/files/${idFile}/download`);
      expect(download.status).toBe(302);
      const got = await fetch(download.headers.get("location") as string);
      const body = Buffer.from(await got.arrayBuffer());
      expect(got.status, body.toString()).toBe(200);
      expect(body.equals(example)).toBe(true);
      const disposition = got.headers.get("content-disposition");
      expect(disposition).toMatch(
        /^attachment; filename="[\x20-\x7e]*"(; filename\*=UTF-8''[!#$&+\-.^_`|~%0-9A-Za-z]+)?$/,
      );
      expect(dispositionName(disposition), disposition ?? "").toBe(name);
      // a bucket's presigned GET can name the file but add no other header
      if (STORAGE === "disk") expect(got.headers.get("x-content-type-options")).toBe("nosniff");

      const sync = await call(base, "PUT", "/v1.0/services/sync/custom", {
        json: { idFile, idAppAccount: 9 },
      });
      expect(sync.status, sync.text).toBe(200);
      expect(sync.body).toMatchObject({ users: 3 });
    },
  );
});
