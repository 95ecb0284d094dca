// The server over real HTTP, with plain fetch: the upload procedure end to end, syncs and what
// they leave, access reviews and their report archives, auth, rate limits with a test clock,
// and every malformed request a 4xx that says what is wrong.

import { readFileSync } from "node:fs";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { Database } from "../../src/server/repositories/Database.js";
import { fixture } from "../support/paths.js";
import {
  call,
  embeddedDataDir,
  KEY,
  OTHER_KEY,
  removeDataDirs,
  STORAGE,
  startServer,
  TestClock,
  upload,
} from "../support/server.js";

const seed = JSON.parse(readFileSync(fixture("seed.json"), "utf8"));
const clock = new TestClock();
let server: SyncfileServer;
let base: string;

beforeAll(async () => {
  server = await startServer({ clock: clock.read, seed });
  base = server.url;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await removeDataDirs();
});

describe("the upload procedure, a sync, and what it leaves (plain HTTP)", () => {
  it("uploads, registers, syncs, shows the synced state, downloads the same bytes", async () => {
    const bytes = readFileSync(fixture("valid/example.json"));
    // 1. ask for an upload URL
    const step1 = await call(base, "GET", "/v1.0/files/url?name=users.json&type=application/json");
    expect(step1.status).toBe(200);
    const { url, filePath } = step1.body.uploadFileParameters as { url: string; filePath: string };
    expect(filePath).toBe(`${clock.now}/users.json`);
    // 2. PUT the bytes to the storage URL, with no API key: the signature is the authority
    const put = await fetch(url, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: bytes,
    });
    expect(put.status).toBe(200);
    // 3. register the file
    const step3 = await call(base, "POST", "/v1.0/files", {
      json: { path: filePath, type: "customIntegrationData" },
    });
    expect(step3.status).toBe(200); // as the service's reference answers
    const idFile = step3.body.id as number;
    // sync it into app account 42
    const sync = await call(base, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile, idAppAccount: 42 },
    });
    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({
      success: true, // as the service's reference answers, our summary beside it
      idFile,
      idAppAccount: 42,
      format: "json",
      users: 3,
      activeUsers: 2,
      licenses: 2,
      licenseUsers: 3,
      warnings: 0,
      displayCurrency: "USD",
    });
    // the synced state: only active users shown, license statuses derived
    const state = await call(base, "GET", "/v1.0/appAccounts/42");
    expect(state.status).toBe(200);
    expect(state.body.users).toEqual({ active: 2, deleted: 1 });
    expect(state.body.licenses).toEqual([
      {
        name: "Pro",
        pricePerUser: 1250,
        currency: "USD",
        unassignedAmount: 3,
        users: { active: 1, inactive: 0, deleted: 1 },
      },
      {
        name: "Viewer",
        pricePerUser: 0,
        currency: "USD",
        unassignedAmount: null,
        users: { active: 0, inactive: 1, deleted: 0 },
      },
    ]);
    const users = await call(base, "GET", "/v1.0/appAccounts/42/users");
    expect((users.body.users as { email: string }[]).map((u) => u.email)).toEqual([
      "adam.test@example.com",
      "chen.wei@example.com",
    ]);
    expect((users.body.users as unknown[])[1]).toMatchObject({
      licenses: [{ name: "Viewer", licenseStatus: "inactive" }],
    });
    // download: a 302 to a short-lived storage URL, then the same bytes
    const download = await call(base, "GET", `/v1.0/files/${idFile}/download`);
    expect(download.status).toBe(302);
    const again = await fetch(download.headers.get("location") as string);
    expect(again.headers.get("content-type")).toBe("application/json");
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("syncs the CSV layout through /csv, and a second sync replaces the first", async () => {
    const idFile = await upload(base, "users.csv", readFileSync(fixture("valid/spreadsheet.csv")));
    const sync = await call(base, "PUT", "/v1.0/services/sync/custom/csv", {
      json: { idFile: String(idFile), idAppAccount: "42" },
    });
    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({ format: "csv", users: 3, activeUsers: 2, licenses: 2 });
    const users = await call(base, "GET", "/v1.0/appAccounts/42/users");
    expect((users.body.users as { email: string }[]).map((u) => u.email)).toEqual([
      "ada@example.com",
      "alan@example.com",
    ]);
  });

  it("answers an invalid file with 400 and the library's report, and keeps the previous state", async () => {
    const idFile = await upload(base, "bad.json", readFileSync(fixture("invalid/user.email.format.json")));
    const sync = await call(base, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile, idAppAccount: 42 },
    });
    expect(sync.status).toBe(400);
    expect(sync.body.message).toMatch(/^the file is invalid: 1 error, first: email "grace.example.com"/);
    expect(sync.body.report).toMatchObject({
      reportVersion: 1,
      valid: false,
      findings: [{ code: "user.email.format", pointer: "/users/1/email", line: 4 }],
    });
    const users = await call(base, "GET", "/v1.0/appAccounts/42/users");
    expect(users.body.total).toBe(2);
  });

  it("answers a file whose records are not objects with 400 and its report (regression: a null user was a 500)", async () => {
    const doc = '{"users": [null], "licenses": [7, {"name": "Pro", "users": [{"email": 5}, "x"]}]}';
    const idFile = await upload(base, "not-objects.json", doc);
    const sync = await call(base, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile, idAppAccount: 42 },
    });
    expect(sync.status).toBe(400);
    expect(sync.body.message).toMatch(/^the file is invalid: \d+ errors/);
    expect(sync.body.report).toMatchObject({ valid: false });
  });

  it("refuses a file registered for another purpose, an unknown file, and a JSON sync of CSV bytes with its report", async () => {
    const expense = await upload(base, "expenses.csv", "a,b\n", { type: "expenseReport" });
    const wrongType = await call(base, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile: expense, idAppAccount: 1 },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toContain("needs a file registered as customIntegrationData");
    const unknown = await call(base, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile: 999999, idAppAccount: 1 },
    });
    expect(unknown.status).toBe(404);
    const csv = await upload(base, "users.csv", readFileSync(fixture("valid/example.csv")));
    const asJson = await call(base, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile: csv, idAppAccount: 1 },
    });
    expect(asJson.status).toBe(400);
    expect((asJson.body.report as { findings: { code: string }[] }).findings[0]?.code).toBe("json.syntax");
  });

  it("answers as the service's published reference does: ids as digit strings, the plugin file type, text/csv as the type", async () => {
    const csv = readFileSync(fixture("valid/example.csv"));
    const id = await upload(base, "my_file.csv", csv, { contentType: "text/csv" });
    const sync = await call(base, "PUT", "/v1.0/services/sync/custom/csv", {
      json: { idFile: String(id), idAppAccount: "77" },
    });
    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({ success: true, idFile: id, idAppAccount: 77, users: 3 });
    const plugin = await upload(base, "plugin.zip", "PK", { contentType: "application/zip", type: "plugin" });
    expect(plugin).toBeGreaterThan(id);
  });

  it("reads an uploaded CSV in its own layout only, as the service does: an export is refused", async () => {
    const id = await upload(base, "google.csv", readFileSync(fixture("exports/google-workspace.csv")), {
      contentType: "text/csv",
    });
    const sync = await call(base, "PUT", "/v1.0/services/sync/custom/csv", {
      json: { idFile: id, idAppAccount: 1 },
    });
    expect(sync.status).toBe(400);
    const report = sync.body.report as { findings: { code: string }[]; mapping?: unknown };
    expect(report.findings.map((f) => f.code)).toEqual(["csv.header.missing"]);
    expect(report.mapping).toBeUndefined();
  });

  it("converts prices to the display currency", async () => {
    const eur = await startServer({
      displayCurrency: "EUR",
      rates: { EUR: "0.9215" },
      sourceCurrency: "USD",
    });
    try {
      const idFile = await upload(eur.url, "users.json", readFileSync(fixture("valid/example.json")));
      const sync = await call(eur.url, "PUT", "/v1.0/services/sync/custom", {
        json: { idFile, idAppAccount: 1 },
      });
      expect(sync.body.displayCurrency).toBe("EUR");
      const state = await call(eur.url, "GET", "/v1.0/appAccounts/1");
      expect((state.body.licenses as { pricePerUser: number; currency: string }[])[0]).toMatchObject({
        pricePerUser: 1152,
        currency: "EUR",
      });
    } finally {
      await eur.close();
    }
  }, 60_000);
});

describe("access reviews", () => {
  type List = Record<
    "completedExecutions" | "archivedExecutions" | "inProgressExecutions",
    { id: number; state: string; reportFileId: number | null; completionTime: string | null }[]
  >;
  const list = async (query = "") =>
    (await call(base, "GET", `/v1.0/accessReviews/campaigns${query}`)).body as unknown as List;
  const ids = (l: List) => ({
    completed: l.completedExecutions.map((e) => e.id),
    archived: l.archivedExecutions.map((e) => e.id),
    inProgress: l.inProgressExecutions.map((e) => e.id),
  });

  it("lists executions in buckets, newest first; ended-early runs are among the completed", async () => {
    expect(ids(await list())).toEqual({
      completed: [201, 102, 101],
      archived: [202],
      inProgress: [203, 104, 103],
    });
    const l = await list();
    expect(l.completedExecutions[0]).toMatchObject({
      id: 201,
      campaignId: 2,
      campaignName: "Offboarding check: finance tools",
      state: "endedEarly",
      completionTime: "2026-09-03T12:00:00.000Z",
    });
    expect(l.inProgressExecutions[0]).toMatchObject({
      state: "inProgress",
      completionTime: null,
      reportFileId: null,
    });
  });

  it("applies limit to each bucket and completedAfter strictly", async () => {
    expect(ids(await list("?limit=1"))).toEqual({ completed: [201], archived: [202], inProgress: [203] });
    expect(ids(await list("?completedAfter=2026-07-14T16:30:00Z"))).toMatchObject({
      completed: [201],
      archived: [],
    });
    expect(ids(await list("?completedAfter=2026-07-14T16:29:59Z"))).toMatchObject({ completed: [201, 102] });
  });

  it("completes an execution when its time comes, with no report until the archive exists, then one with a CSV and a PDF per application", async () => {
    clock.advance(22_000); // 104 completes 20 s after the seed was loaded
    const done = (await list()).completedExecutions.find((e) => e.id === 104);
    expect(done).toMatchObject({ state: "completed", reportFileId: null });
    await server.generateReports();
    expect((await list()).completedExecutions.find((e) => e.id === 104)?.reportFileId).toBeNull(); // not 5 s yet
    clock.advance(3_000);
    await server.generateReports();
    const ready = (await list()).completedExecutions.find((e) => e.id === 104);
    expect(ready?.reportFileId).toEqual(expect.any(Number));
    const download = await call(base, "GET", `/v1.0/files/${ready?.reportFileId}/download`);
    const zip = await fetch(download.headers.get("location") as string);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([
      "GitHub.csv",
      "GitHub.pdf",
      "Jira.csv",
      "Jira.pdf",
      "Slack.csv",
      "Slack.pdf",
    ]);
    const csv = new TextDecoder().decode(files["GitHub.csv"]).trimEnd().split("\n");
    expect(csv[0]).toBe("email,decision,reviewer,reviewedAt");
    expect(csv).toHaveLength(25);
    expect(new TextDecoder().decode((files["Slack.pdf"] as Uint8Array).subarray(0, 5))).toBe("%PDF-");
  });

  it("gives an archived execution a partial report", async () => {
    await server.generateReports();
    const archived = (await list()).archivedExecutions[0];
    const download = await call(base, "GET", `/v1.0/files/${archived?.reportFileId}/download`);
    const files = unzipSync(
      new Uint8Array(await (await fetch(download.headers.get("location") as string)).arrayBuffer()),
    );
    expect(Object.keys(files).sort()).toEqual(["NetSuite.csv", "NetSuite.pdf"]);
    expect(new TextDecoder().decode(files["NetSuite.csv"])).toContain("not reviewed");
  });
});

describe("an app account's users, page by page", () => {
  // 10 users, every third deleted: 7 shown, in the file's order
  const doc = (tag: string) =>
    JSON.stringify({
      users: Array.from({ length: 10 }, (_, i) => ({
        email: `${tag}${i}@example.com`,
        status: i % 3 === 2 ? "deleted" : "active",
      })),
      licenses: [{ name: "Pro", users: [{ email: `${tag}0@example.com` }] }],
    });
  const sync = async (tag: string) => {
    const idFile = await upload(base, `${tag}.json`, doc(tag));
    const r = await call(base, "PUT", "/v1.0/services/sync/custom", { json: { idFile, idAppAccount: 31 } });
    expect(r.status).toBe(200);
  };
  const emails = (body: Record<string, unknown>) => (body.users as { email: string }[]).map((u) => u.email);

  it("goes through every shown user with the cursor each page gives, as offsets do", async () => {
    await sync("p");
    const shown = [0, 1, 3, 4, 6, 7, 9].map((i) => `p${i}@example.com`);
    const seen: string[] = [];
    const cursors: (string | null)[] = [];
    let after: string | null = null;
    do {
      const r = await call(
        base,
        "GET",
        `/v1.0/appAccounts/31/users?limit=3${after ? `&after=${after}` : ""}`,
      );
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ idAppAccount: 31, total: 7, limit: 3 });
      seen.push(...emails(r.body));
      after = r.body.next as string | null;
      cursors.push(after);
    } while (after !== null);
    expect(seen).toEqual(shown);
    expect(cursors).toHaveLength(3); // 3 + 3 + 1: the last page says there is no next
    const byOffset = await call(base, "GET", "/v1.0/appAccounts/31/users?limit=3&offset=3");
    expect(byOffset.body).toMatchObject({ offset: 3, next: cursors[1] });
    expect(emails(byOffset.body)).toEqual(shown.slice(3, 6));
    const first = await call(base, "GET", "/v1.0/appAccounts/31/users?limit=7");
    expect(first.body).toMatchObject({ offset: 0, next: null });
    expect((first.body.users as { licenses: unknown[] }[])[0]?.licenses).toEqual([
      { name: "Pro", licenseStatus: "active" },
    ]);
  });

  it("refuses a cursor of an earlier sync with 409, both ways of paging at once and a malformed cursor with 400", async () => {
    await sync("q");
    const page = await call(base, "GET", "/v1.0/appAccounts/31/users?limit=2");
    const next = page.body.next as string;
    expect(next).toMatch(/^\d+-\d+$/);
    await sync("r");
    const stale = await call(base, "GET", `/v1.0/appAccounts/31/users?limit=2&after=${next}`);
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(
      /^app account 31 was synced again since this cursor was given .*start again without after$/,
    );
    const both = await call(base, "GET", `/v1.0/appAccounts/31/users?offset=2&after=${next}`);
    expect(both.status).toBe(400);
    expect(both.body.message).toBe(
      "give after or offset, not both: after (the next of the page before) is the fast one",
    );
    const bad = await call(base, "GET", "/v1.0/appAccounts/31/users?after=12");
    expect(bad.body).toEqual({
      statusCode: 400,
      error: "Bad Request",
      message: 'after must be the next of the page before, such as 12-99, got "12"',
    });
  });

  it("refuses an offset past 100 000 with a 400 that points at the cursor (deep offsets cost seconds each)", async () => {
    await sync("s");
    const deepest = await call(base, "GET", "/v1.0/appAccounts/31/users?offset=100000");
    expect(deepest.status).toBe(200);
    expect(deepest.body).toMatchObject({ offset: 100000, users: [], next: null });
    const deeper = await call(base, "GET", "/v1.0/appAccounts/31/users?offset=100001");
    expect(deeper.body).toEqual({
      statusCode: 400,
      error: "Bad Request",
      message:
        "offset goes up to 100000: go further with after, the next of the page before (each page gives it), which costs the same at any depth",
    });
  });
});

describe("the database", () => {
  it("keeps concurrent queries apart, and runs nothing else inside a transaction", async () => {
    // the embedded database in both projects: copied from the template, not a cluster made anew
    const db = await Database.open(await embeddedDataDir());
    try {
      // large parameters, many at once: each answer is its own query's
      const big = "x".repeat(200_000);
      const queries = Array.from({ length: 120 }, (_, i) => {
        const n = 1 + (i % 4);
        const params = Array.from({ length: n }, (_, k) => i * 10 + k);
        const sql = `SELECT length($1::text) + ${params.map((_, k) => `$${k + 2}::int`).join(" + ")} AS sum`;
        return db
          .query<{ sum: number }>(sql, [big, ...params])
          .then((r) => [r.rows[0]?.sum, big.length + params.reduce((a, b) => a + b, 0)]);
      });
      for (const [got, expected] of await Promise.all(queries)) expect(got).toBe(expected);
      // and a transaction is not entered by statements sent meanwhile
      const inside = db.transaction(async (tx) => {
        await tx.query("CREATE TEMP TABLE t (v int)");
        await new Promise((r) => setTimeout(r, 50));
        return (
          await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 't'")
        ).rows[0]?.n;
      });
      const outside = await db.query<{ one: number }>("SELECT 1 AS one");
      expect(outside.rows[0]?.one).toBe(1);
      expect(await inside).toBe(1);
    } finally {
      await db.close();
    }
  });
});

describe("auth", () => {
  it.each([
    [null, "missing API key: send the header Authorization: Bearer <API key>"],
    ["", "missing API key: send the header Authorization: Bearer <API key>"],
    ["Basic abc", "malformed Authorization header: expected Bearer <API key>"],
    ["Bearer", "malformed Authorization header: expected Bearer <API key>"],
    ["Bearer wrong-key", "invalid API key"],
  ])("answers 401 to Authorization %j", async (header, message) => {
    const r = await call(base, "GET", "/v1.0/accessReviews/campaigns", {
      key: null,
      headers: header === null ? {} : { authorization: header },
    });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ statusCode: 401, error: "Unauthorized", message });
    expect(r.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("accepts every configured key", async () => {
    for (const key of [KEY, OTHER_KEY])
      expect((await call(base, "GET", "/v1.0/accessReviews/campaigns", { key })).status).toBe(200);
  });
});

describe("rate limits", () => {
  it("answers the 201st upload URL within a minute with 429, Retry-After and RateLimit headers, per key", async () => {
    const path = "/v1.0/files/url?name=a.json&type=application/json";
    clock.advance(61_000);
    for (let i = 0; i < 200; i++) {
      const r = await call(base, "GET", path);
      expect(r.status, `call ${i + 1}`).toBe(200);
      if (i === 0) expect(r.headers.get("ratelimit-remaining")).toBe("199");
      clock.advance(100); // 20 s in all
    }
    const refused = await call(base, "GET", path);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("40");
    expect(refused.headers.get("ratelimit-limit")).toBe("200");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.body.message).toMatch(
      /^rate limit: 200 GET \/v1\.0\/files\/url calls a minute per API key; retry in 40 s$/,
    );
    // another key and another operation have their own limits
    expect((await call(base, "GET", path, { key: OTHER_KEY })).status).toBe(200);
    expect((await call(base, "GET", "/v1.0/accessReviews/campaigns")).status).toBe(200);
    clock.advance(40_000);
    expect((await call(base, "GET", path)).status).toBe(200);
    clock.advance(61_000); // a fresh window for the tests that follow
  });
});

describe("bad requests: a clear 4xx each", () => {
  const uploadUrl = async (name = "u.json", type = "application/json") =>
    (
      await call(
        base,
        "GET",
        `/v1.0/files/url?name=${encodeURIComponent(name)}&type=${encodeURIComponent(type)}`,
      )
    ).body.uploadFileParameters as { url: string; filePath: string };

  // the disk storage's URLs are checked by this server; a bucket's by S3 (s3rver checks none)
  it.skipIf(STORAGE === "s3")("refuses an expired upload URL", async () => {
    const { url } = await uploadUrl();
    clock.advance(5 * 60_000 + 1);
    const r = await fetch(url, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(r.status).toBe(403);
    expect(await r.json()).toMatchObject({
      message: expect.stringMatching(
        /^this URL expired at .*: ask for a new one with GET \/v1\.0\/files\/url$/,
      ),
    });
  });

  it.skipIf(STORAGE === "s3")(
    "refuses a tampered upload URL: another path, another expiry, another signature",
    async () => {
      const { url } = await uploadUrl();
      const tampered = [
        url.replace("/u.json?", "/other.json?"),
        url.replace(/X-Expires=(\d+)/, (_, n) => `X-Expires=${Number(n) + 1000}`),
        url.replace(/X-Signature=([0-9a-f])/, (_, c) => `X-Signature=${c === "0" ? "1" : "0"}`),
        url.replace(/X-Signature=[0-9a-f]+&?/, ""),
      ];
      for (const target of tampered) {
        const r = await fetch(target, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: "{}",
        });
        expect(r.status, target).toBe(403);
      }
    },
  );

  it.skipIf(STORAGE === "s3")("refuses the wrong content type", async () => {
    const { url } = await uploadUrl();
    const r = await fetch(url, { method: "PUT", headers: { "content-type": "text/csv" }, body: "a" });
    expect(r.status).toBe(403);
    expect(((await r.json()) as { message: string }).message).toContain(
      'signed for Content-Type "application/json" but the request has "text/csv"',
    );
  });

  it("refuses an upload over the size limit and keeps nothing", async () => {
    const small = await startServer({ maxUploadBytes: 1000 });
    try {
      const { url, filePath } = (
        await call(small.url, "GET", "/v1.0/files/url?name=big.json&type=application/json")
      ).body.uploadFileParameters as { url: string; filePath: string };
      const r = await fetch(url, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: "x".repeat(5000),
      });
      const register = await call(small.url, "POST", "/v1.0/files", {
        json: { path: filePath, type: "attachment" },
      });
      if (STORAGE === "s3") {
        // a presigned PUT cannot limit the size: the registration refuses the file
        expect(r.status).toBe(200);
        expect(register.status).toBe(413);
        expect(register.body.message).toBe("the file is larger than the limit of 1000 bytes");
        // and the object is gone from the bucket: registering it again finds nothing
        const again = await call(small.url, "POST", "/v1.0/files", {
          json: { path: filePath, type: "attachment" },
        });
        expect(again.status).toBe(400);
      } else {
        expect(r.status).toBe(413);
        expect(register.status).toBe(400);
      }
    } finally {
      await small.close();
    }
  }, 60_000);

  it.runIf(STORAGE === "s3")(
    "gives S3 presigned URLs: the upload's bound to its Content-Type for 5 minutes, the download's for 60 s",
    async () => {
      const { url, filePath } = await uploadUrl("u.json", "application/json");
      const put = new URL(url);
      expect(`${put.protocol}//${put.host}`).not.toBe(new URL(base).origin); // the bucket, not this server
      expect(put.pathname).toBe(`/${server.storage.slice(5, -1)}/${filePath}`);
      expect(Object.fromEntries(put.searchParams)).toMatchObject({
        "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
        "X-Amz-Expires": "300",
        "X-Amz-SignedHeaders": "content-type;host",
        "X-Amz-Credential": expect.stringMatching(/^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/),
        "X-Amz-Signature": expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      // no checksum of an empty body: real S3 would refuse the upload's bytes
      expect([...put.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
      const r = await fetch(url, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(r.status).toBe(200);
      const id = (await call(base, "POST", "/v1.0/files", { json: { path: filePath, type: "attachment" } }))
        .body.id;
      const download = new URL(
        (await call(base, "GET", `/v1.0/files/${id}/download`)).headers.get("location") ?? "",
      );
      expect(Object.fromEntries(download.searchParams)).toMatchObject({
        "X-Amz-Expires": "60",
        "X-Amz-SignedHeaders": "host",
        "response-content-disposition": 'attachment; filename="u.json"',
      });
    },
  );

  it.each([["../etc/passwd"], ["a/b.json"], [".."], ["bad\u0001name"], [""]])(
    "refuses the file name %j",
    async (name) => {
      const r = await call(
        base,
        "GET",
        `/v1.0/files/url?name=${encodeURIComponent(name)}&type=application/json`,
      );
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/^name /);
    },
  );

  it.each([
    [
      "GET",
      "/v1.0/files/url?name=a.json",
      undefined,
      "type is required: the content type the file will be PUT with, such as application/json",
    ],
    [
      "GET",
      "/v1.0/files/url?type=text%2Fcsv",
      undefined,
      "name is required: the file's base name, such as users.json",
    ],
    ["POST", "/v1.0/files", {}, "path is required: the filePath that GET /v1.0/files/url returned"],
    [
      "POST",
      "/v1.0/files",
      { path: "1/a.json", type: 5 },
      "type must be one of customIntegrationData, expenseReport, attachment, plugin, got 5",
    ],
    [
      "GET",
      "/v1.0/appAccounts/2/users?offset=-1",
      undefined,
      'offset must be a whole number of at least 0, got "-1"',
    ],
    [
      "GET",
      "/v1.0/accessReviews/campaigns?limit=1&limit=2",
      undefined,
      'limit must be a whole number from 1 to 1000, got ["1","2"]',
    ],
  ] as const)("%s %s is refused by its route's schema in a sentence", async (method, path, json, message) => {
    const r = await call(base, method, path, json === undefined ? {} : { json });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ statusCode: 400, error: "Bad Request", message });
  });

  it("refuses a missing or blank type, and takes any text, as the service's document has it", async () => {
    expect((await call(base, "GET", "/v1.0/files/url?name=a.json")).status).toBe(400);
    expect((await call(base, "GET", "/v1.0/files/url?name=a.json&type=%09")).body.message).toMatch(
      /^type must be the content type the file will be PUT with \(such as application\/json\), or its file type/,
    );
    // not a content type: a URL that takes any (test/e2e/server.operations.test.ts)
    expect((await call(base, "GET", "/v1.0/files/url?name=a.json&type=json")).status).toBe(200);
  });

  it("refuses to register a path never uploaded, an unknown file type, a body that is not an object", async () => {
    const never = await call(base, "POST", "/v1.0/files", {
      json: { path: "1/never.json", type: "attachment" },
    });
    expect(never.status).toBe(400);
    expect(never.body.message).toContain('nothing was uploaded to "1/never.json"');
    const { filePath } = await uploadUrl();
    const type = await call(base, "POST", "/v1.0/files", { json: { path: filePath, type: "spreadsheet" } });
    expect(type.body.message).toBe(
      'type must be one of customIntegrationData, expenseReport, attachment, plugin, got "spreadsheet"',
    );
    expect((await call(base, "POST", "/v1.0/files", { json: [1] })).status).toBe(400);
    expect(
      (await call(base, "POST", "/v1.0/files", { json: { path: "../../x", type: "attachment" } })).status,
    ).toBe(400);
  });

  it.each([["0"], ["-1"], ["abc"], ["1.5"], ["99999999999999999999"]])(
    "refuses the file id %s",
    async (id) => {
      const r = await call(base, "GET", `/v1.0/files/${id}/download`);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/^id must be a whole number of at least 1, got /);
    },
  );

  it("answers 404 for an unknown file id", async () => {
    const r = await call(base, "GET", "/v1.0/files/987654/download");
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ statusCode: 404, error: "Not Found", message: "file 987654 not found" });
  });

  it.each([
    [{ idFile: 0, idAppAccount: 1 }, "idFile must be a whole number of at least 1, got 0"],
    [{ idFile: -1, idAppAccount: 1 }, "idFile must be a whole number of at least 1, got -1"],
    [{ idFile: "abc", idAppAccount: 1 }, 'idFile must be a whole number of at least 1, got "abc"'],
    [{ idFile: 1 }, "idAppAccount must be a whole number of at least 1, got nothing"],
    [{ idFile: 1, idAppAccount: 2.5 }, "idAppAccount must be a whole number of at least 1, got 2.5"],
  ])("refuses the sync body %j", async (json, message) => {
    const r = await call(base, "PUT", "/v1.0/services/sync/custom", { json });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
  });

  it("refuses a body that is not JSON, and one that is not sent as JSON", async () => {
    const notJson = await call(base, "PUT", "/v1.0/services/sync/custom", {
      body: '{"idFile": 1,',
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toMatch(/^the body is not JSON/);
    const form = await call(base, "PUT", "/v1.0/services/sync/custom", {
      body: "idFile=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    const empty = await call(base, "PUT", "/v1.0/services/sync/custom", {
      body: "",
      headers: { "content-type": "application/json" },
    });
    expect(empty.status).toBe(400);
  });

  it.each([["0"], ["1001"], ["abc"], ["-5"], ["1e3"]])("refuses limit=%s", async (limit) => {
    const r = await call(base, "GET", `/v1.0/accessReviews/campaigns?limit=${limit}`);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(`limit must be a whole number from 1 to 1000, got "${limit}"`);
  });

  it.each([["yesterday"], ["2026-13-01T00:00:00Z"], ["2026-02-30"], ["2026-01-01T10:00:00"], ["1700000000"]])(
    "refuses completedAfter=%s",
    async (value) => {
      const r = await call(
        base,
        "GET",
        `/v1.0/accessReviews/campaigns?completedAfter=${encodeURIComponent(value)}`,
      );
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(
        /^completedAfter (must be an ISO 8601 date-time|is not a calendar date)/,
      );
    },
  );

  it("answers an unknown route and an app account never synced with a 404 body, never a stack trace", async () => {
    const route = await call(base, "GET", "/v1.0/nothing");
    expect(route.body).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: "no such route: GET /v1.0/nothing",
    });
    const account = await call(base, "GET", "/v1.0/appAccounts/777");
    expect(account.status).toBe(404);
    expect(account.text).not.toMatch(/\bat .+:\d+:\d+/);
  });
});
