// The client against the project's own server over real HTTP (createServer on port 0, no
// mocked fetch): the upload procedure, downloads that survive a cut connection, the rate
// limits kept on the client's side, retries, syncs that wait out another sync, push.

import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { suggestedName } from "../../src/client/_saveResponse.js";
import {
  ApiError,
  ConnectionError,
  createClient,
  pushFile,
  RateLimiter,
  type RetryEvent,
} from "../../src/client/index.js";
import type { SyncfileServer } from "../../src/server/index.js";
import { fixture } from "../support/paths.js";
import { type FaultyProxy, startProxy } from "../support/proxy.js";
import {
  call,
  clientClock,
  dataDir,
  holdSync,
  KEY,
  removeDataDirs,
  startServer,
  storageTraffic,
  TestClock,
} from "../support/server.js";

const work = mkdtempSync(join(tmpdir(), "syncfile-client-test-"));
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await removeDataDirs();
});

/** Files in `dir` (temporary .part files included: they start with a dot). */
const listing = (dir: string) => readdirSync(dir).sort();

describe("the upload procedure, syncs and downloads", () => {
  let server: SyncfileServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it("uploads a file in three steps, syncs it, reads the account and downloads the file byte-identical", async () => {
    const client = createClient({ baseUrl: server.url, apiKey: KEY });
    const path = fixture("valid/example.json");
    const progress: number[] = [];
    const file = await client.uploadFile(path, { onProgress: (sent) => progress.push(sent) });
    expect(file).toMatchObject({
      name: "example.json",
      contentType: "application/json",
      bytes: statSync(path).size,
    });
    expect(file.filePath).toMatch(/^\d+\/example\.json$/);
    expect(progress.at(-1)).toBe(statSync(path).size);

    const summary = await client.sync(file.id, 11);
    expect(summary).toMatchObject({
      idFile: file.id,
      idAppAccount: 11,
      format: "json",
      users: 3,
      activeUsers: 2,
    });
    const account = await client.appAccount(11);
    expect(account.licenses.map((l) => l.name)).toEqual(["Pro", "Viewer"]);
    const users = await client.appAccountUsers(11, { limit: 1 });
    expect(users).toMatchObject({ total: 2, limit: 1, offset: 0 });
    const second = await client.appAccountUsers(11, { limit: 1, after: users.next as string });
    expect(second).toMatchObject({ total: 2, after: users.next, next: null });
    expect([...users.users, ...second.users].map((u) => u.email)).toEqual([
      "adam.test@example.com",
      "chen.wei@example.com",
    ]);

    expect(await client.getDownloadUrl(file.id)).toMatch(/\/\d+\/example\.json\?X-(Expires|Amz-)/);
    const dest = join(work, "copy.json");
    const saved = await client.downloadFile(file.id, dest);
    expect(saved).toEqual({ path: dest, bytes: statSync(path).size });
    expect(readFileSync(dest)).toEqual(readFileSync(path));
  });

  it("uploads CSV as text/csv and syncs it with the CSV operation", async () => {
    const client = createClient({ baseUrl: server.url, apiKey: KEY });
    const file = await client.uploadFile(fixture("valid/example.csv"));
    expect(file.contentType).toBe("text/csv");
    const summary = await client.sync(file.id, 12, { format: "csv" });
    expect(summary).toMatchObject({ format: "csv", users: 3 });
  });

  it("uploads a small file in one request, reads its information, and syncs it at gluu", async () => {
    const client = createClient({ baseUrl: server.url, apiKey: KEY });
    const { id } = await client.uploadSmallFile(fixture("valid/example.csv"));
    const file = await client.fileInformation(id, { type: "customIntegrationData" });
    expect(file).toMatchObject({ id, type: "customIntegrationData", fileName: "example.csv", uploadedBy: 1 });
    expect(await client.syncGluu(id, 13)).toMatchObject({ success: true, format: "csv", users: 3 });
    const bytes = await client.uploadSmallFile(new Uint8Array(3 * 1024 * 1024), {
      name: "blank.zip",
      type: "attachment",
    });
    expect((await client.fileInformation(bytes.id, { type: "attachment" })).fileName).toBe("blank.zip");
    const over = await client
      .uploadSmallFile(new Uint8Array(3 * 1024 * 1024 + 1), { name: "big.json" })
      .catch((e: unknown) => e);
    expect(over).toBeInstanceOf(ApiError);
    expect((over as ApiError).status).toBe(413);
    const asked = await client.fileInformation(id).catch((e: unknown) => e);
    expect((asked as ApiError).status).toBe(404);
    expect((asked as ApiError).message).toMatch(/ask GET \/v1\.0\/files\/\d+\?type=customIntegrationData$/);
  });

  it("names a download after the server's file name when asked to", async () => {
    const client = createClient({ baseUrl: server.url, apiKey: KEY });
    const { id } = await client.uploadFile(fixture("valid/minimal.json"), { type: "attachment" });
    const dir = mkdtempSync(join(work, "named-"));
    const saved = await client.downloadFile(id, (name) => join(dir, name ?? "fallback"));
    expect(saved.path).toBe(join(dir, "minimal.json"));
    expect(listing(dir)).toEqual(["minimal.json"]);
  });

  it("carries the service's validation report on the ApiError of an invalid file's sync", async () => {
    const client = createClient({ baseUrl: server.url, apiKey: KEY });
    const { id } = await client.uploadFile(fixture("invalid/license.user.duplicate.json"));
    const error = await client.sync(id, 13).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError).toMatchObject({ method: "PUT", path: "/v1.0/services/sync/custom", status: 400 });
    expect(apiError.message).toMatch(
      /^\[PUT\] \/v1\.0\/services\/sync\/custom: 400 Bad Request — the file is invalid/,
    );
    expect(apiError.report?.valid).toBe(false);
    expect(apiError.report?.findings.map((f) => f.code)).toEqual(["license.user.duplicate"]);
  });

  it("fails with an ApiError that names the method, the path, the status and the service's message", async () => {
    const client = createClient({ baseUrl: server.url, apiKey: KEY });
    await expect(client.downloadFile(999_999, join(work, "never.json"))).rejects.toThrow(
      "[GET] /v1.0/files/999999/download: 404 Not Found — file 999999 not found",
    );
    expect(existsSync(join(work, "never.json"))).toBe(false);
    const wrong = createClient({ baseUrl: server.url, apiKey: "wrong-key" });
    const error = (await wrong.listExecutions().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    expect(error.message).toBe("[GET] /v1.0/accessReviews/campaigns: 401 Unauthorized — invalid API key");
  });

  it("gives up on a service that does not answer after a bounded number of retries", async () => {
    const events: RetryEvent[] = [];
    const client = createClient({
      baseUrl: "http://127.0.0.1:1",
      apiKey: KEY,
      retries: 3,
      backoffMs: 1,
      onRetry: (e) => events.push(e),
    });
    const error = await client.listExecutions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/connection refused/);
    expect(events.map((e) => [e.attempt, e.status])).toEqual([
      [1, null],
      [2, null],
      [3, null],
    ]);
  });

  it("retries a 503 or 502 of a read, but does not repeat a sync the service may have started", async () => {
    const proxy = await startProxy(server.url);
    try {
      const events: RetryEvent[] = [];
      const client = createClient({
        baseUrl: proxy.url,
        apiKey: KEY,
        backoffMs: 1,
        onRetry: (e) => events.push(e),
      });
      const gateway = (status: string, extra = "") =>
        `HTTP/1.1 ${status}\r\nContent-Type: text/html\r\nContent-Length: 10\r\nConnection: close\r\n${extra}\r\n<h1>x</h1>`;

      proxy.answerNext(
        /^GET \/v1\.0\/accessReviews\//,
        gateway("503 Service Unavailable", "Retry-After: 0\r\n"),
      );
      expect(Object.keys((await client.listExecutions()).buckets)).toContain("completedExecutions");
      proxy.answerNext(/^GET \/v1\.0\/accessReviews\//, gateway("502 Bad Gateway"));
      await client.listExecutions();
      expect(events.map((e) => [e.status, e.path])).toEqual([
        [503, "/v1.0/accessReviews/campaigns"],
        [502, "/v1.0/accessReviews/campaigns"],
      ]);

      // a 502 on a sync: the sync may be running behind the gateway, so it is not sent again
      events.length = 0;
      const { id } = await client.uploadFile(fixture("valid/example.json"));
      proxy.answerNext(/^PUT \/v1\.0\/services\/sync\//, gateway("502 Bad Gateway"));
      const refused = (await client.sync(id, 14).catch((e: unknown) => e)) as ApiError;
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused.message).toBe("[PUT] /v1.0/services/sync/custom: 502 Bad Gateway — <h1>x</h1>");
      // a connection lost once the whole sync request was sent: the same
      proxy.cutNext(/^PUT \/v1\.0\/services\/sync\//, 0);
      const lost = (await client.sync(id, 14).catch((e: unknown) => e)) as ConnectionError;
      expect(lost).toBeInstanceOf(ConnectionError);
      expect(lost.sent).toBe(true);
      expect(events).toEqual([]);
      // a Retry-After longer than the client waits for fails at once
      proxy.answerNext(
        /^GET \/v1\.0\/accessReviews\//,
        gateway("503 Service Unavailable", "Retry-After: 3600\r\n"),
      );
      const late = (await client.listExecutions().catch((e: unknown) => e)) as ApiError;
      expect([late.status, late.retryAfterMs, events.length]).toEqual([503, 3_600_000, 0]);
    } finally {
      await proxy.close();
    }
  });

  it("takes a registration answered 201 and a sync answered without success: true, as services before the reference did", async () => {
    const proxy = await startProxy(server.url);
    try {
      const client = createClient({ baseUrl: proxy.url, apiKey: KEY });
      proxy.rewriteNext(/^POST \/v1\.0\/files$/, (packet) =>
        packet.replace(/^HTTP\/1\.1 200 OK/, "HTTP/1.1 201 Created"),
      );
      const { id } = await client.uploadFile(fixture("valid/example.json"));
      // the same number of bytes: the body keeps its Content-Length
      proxy.rewriteNext(/^PUT \/v1\.0\/services\/sync\//, (packet) =>
        packet.replace('"success":true,', " ".repeat('"success":true,'.length)),
      );
      const summary = await client.sync(id, 15);
      expect(proxy.rewrites).toBe(2);
      expect(summary).toMatchObject({ idFile: id, idAppAccount: 15, users: 3 });
      expect(summary).not.toHaveProperty("success");
    } finally {
      await proxy.close();
    }
  });

  it("refuses a base URL that is not http(s), and ids below 1", async () => {
    expect(() => createClient({ baseUrl: "ftp://example.com", apiKey: KEY })).toThrow(
      /http:\/\/ or https:\/\//,
    );
    expect(() => createClient({ baseUrl: "not a url", apiKey: KEY })).toThrow(/base URL/);
    const client = createClient({ baseUrl: server.url, apiKey: KEY });
    await expect(client.appAccount(0)).rejects.toThrow(/at least 1/);
  });

  describe("an answer larger than its call takes", () => {
    let proxy: FaultyProxy;
    beforeAll(async () => {
      proxy = await startProxy(server.url);
    });
    afterAll(() => proxy.close());

    const chunked = (status: string, bytes: number) => {
      // a body with no length said ahead, as an endless one comes: in chunks of 64 KiB
      const chunk = `${(65_536).toString(16)}\r\n${"7,".repeat(32_768)}\r\n`;
      return `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n[\r\n${chunk.repeat(Math.ceil(bytes / 65_536))}`;
    };

    it.each([
      ["a 200 whose body goes on", "200 OK", chunked("200 OK", 9 * 2 ** 20)],
      ["a 404 whose body goes on", "404 Not Found", chunked("404 Not Found", 9 * 2 ** 20)],
      [
        "a 200 that says it is 3 GB",
        "200 OK",
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 3000000000\r\n\r\n[1,",
      ],
    ])("%s: the call fails with the limit said, having read no more than it", async (_, status, answer) => {
      const client = createClient({ baseUrl: proxy.url, apiKey: KEY, retries: 0 });
      // the connection stays open: the body has no end the client could wait for
      proxy.answerNext(/^GET \/v1\.0\/files\/1\b/, answer, { open: true });
      const error = await client.fileInformation(1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(Number(status.slice(0, 3)));
      expect((error as ApiError).message).toMatch(
        /^\[GET\] \/v1\.0\/files\/1: \d+ [\w ]+ — the answer's body is larger than 8388608 bytes, more than this call takes: is the base URL the service's\?$/,
      );
    });

    it("a list of executions may be as long as its limit asks", async () => {
      const client = createClient({ baseUrl: proxy.url, apiKey: KEY, retries: 0 });
      // 9 MiB of JSON: past the default, within what 1,000 executions a bucket may take
      const executions = Array.from({ length: 3000 }, (_, i) => ({
        id: i + 1,
        campaignId: 1,
        campaignName: "x".repeat(3000),
        state: "completed",
        startTime: "2026-01-01T00:00:00.000Z",
        completionTime: "2026-01-02T00:00:00.000Z",
        reportFileId: null,
      }));
      const body = JSON.stringify({
        completedExecutions: executions,
        archivedExecutions: [],
        inProgressExecutions: [],
      });
      expect(body.length).toBeGreaterThan(8 * 2 ** 20);
      proxy.answerNext(
        /^GET \/v1\.0\/accessReviews\/campaigns\b/,
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      const list = await client.listExecutions({ limit: 1000 });
      expect(list.completedExecutions).toHaveLength(3000);
    });
  });

  describe("a download whose connection drops mid-file", () => {
    let proxy: FaultyProxy;
    let id: number;
    let bytes: Buffer;
    beforeAll(async () => {
      proxy = await startProxy(server.url);
      bytes = randomBytes(600_000);
      const source = join(work, "blob.bin");
      writeFileSync(source, bytes);
      id = (
        await createClient({ baseUrl: server.url, apiKey: KEY }).uploadFile(source, { type: "attachment" })
      ).id;
    });
    afterAll(() => proxy.close());

    it("leaves no file under the final name, nor a temporary file", async () => {
      const dir = mkdtempSync(join(work, "cut-"));
      const client = createClient({ baseUrl: proxy.url, apiKey: KEY, retries: 0 });
      const storage = storageTraffic(server.url, proxy);
      const cuts = storage.proxy.cuts;
      storage.proxy.cutNext(storage.line("GET"), 200_000);
      const error = await client.downloadFile(id, join(dir, "blob.bin")).catch((e: unknown) => e);
      expect(storage.proxy.cuts).toBe(cuts + 1);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(listing(dir)).toEqual([]);
    });

    it.each(["close", "reset"] as const)(
      "cut by a %s, is retried from a fresh download URL and completes byte-identical",
      async (how) => {
        const dir = mkdtempSync(join(work, `retried-${how}-`));
        const events: RetryEvent[] = [];
        const client = createClient({
          baseUrl: proxy.url,
          apiKey: KEY,
          backoffMs: 1,
          onRetry: (e) => events.push(e),
        });
        const storage = storageTraffic(server.url, proxy);
        const before = [proxy.requests.length, storage.proxy.requests.length] as const;
        storage.proxy.cutNext(storage.line("GET"), 300_000, how);
        const saved = await client.downloadFile(id, join(dir, "blob.bin"));
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({ method: "GET", status: null, attempt: 1 });
        expect(saved.bytes).toBe(bytes.length);
        expect(readFileSync(join(dir, "blob.bin")).equals(bytes)).toBe(true);
        expect(listing(dir)).toEqual(["blob.bin"]);
        // two downloads asked for, two storage GETs made
        const asked = proxy.requests.slice(before[0]).filter((line) => line.includes("/download"));
        expect(asked.map((line) => line.split("?")[0])).toEqual([
          `GET /v1.0/files/${id}/download`,
          `GET /v1.0/files/${id}/download`,
        ]);
        const gets = storage.proxy.requests.slice(before[1]).filter((line) => storage.line("GET").test(line));
        expect(gets).toHaveLength(2);
      },
    );

    it("removes its temporary file when aborted", async () => {
      const dir = mkdtempSync(join(work, "aborted-"));
      const client = createClient({ baseUrl: server.url, apiKey: KEY });
      const controller = new AbortController();
      const error = await client
        .downloadFile(id, join(dir, "blob.bin"), {
          signal: controller.signal,
          onProgress: () => controller.abort(new Error("stop")),
        })
        .catch((e: unknown) => e);
      expect((error as Error).message).toBe("stop");
      expect(listing(dir)).toEqual([]);
    });

    it("keeps an existing file of that name untouched until the new one is complete", async () => {
      const dir = mkdtempSync(join(work, "keep-"));
      const dest = join(dir, "blob.bin");
      writeFileSync(dest, "the previous version");
      const client = createClient({ baseUrl: proxy.url, apiKey: KEY, retries: 0 });
      const storage = storageTraffic(server.url, proxy);
      storage.proxy.cutNext(storage.line("GET"), 100_000);
      await expect(client.downloadFile(id, dest)).rejects.toBeInstanceOf(ConnectionError);
      expect(readFileSync(dest, "utf8")).toBe("the previous version");
      expect(listing(dir)).toEqual(["blob.bin"]);
    });
  });
});

describe("rate limits", () => {
  /** A server and a client on one test clock, with the client's retries recorded. */
  const onTestClock = async () => {
    const clock = new TestClock();
    const server = await startServer({ clock: clock.read });
    const events: RetryEvent[] = [];
    const client = () =>
      createClient({
        baseUrl: server.url,
        apiKey: KEY,
        clock: clientClock(clock),
        onRetry: (e) => events.push(e),
      });
    return { clock, server, events, client };
  };

  it("sends 250 uploads in a burst without a 429, waiting only as long as the limits require", async () => {
    const { clock, server, events, client: newClient } = await onTestClock();
    try {
      const client = newClient();
      const start = clock.now;
      const path = fixture("valid/minimal.json");
      const finished: number[] = [];
      const ids: number[] = [];
      let next = 0;
      const worker = async () => {
        while (next < 250) {
          const n = next++;
          ids.push((await client.uploadFile(path, { name: `upload-${n}.json` })).id);
          finished.push(clock.now);
        }
      };
      await Promise.all(Array.from({ length: 10 }, worker));

      expect(events).toEqual([]); // no 429 (nor anything else) was retried
      expect(new Set(ids).size).toBe(250);
      // 200 upload URLs (and registrations) a minute: the 201st waits for the first to leave
      // the window, exactly one minute, and nothing waits longer
      expect(clock.now - start).toBe(60_000);
      expect(finished.filter((t) => t === start).length).toBeGreaterThanOrEqual(190);
      expect(finished.filter((t) => t === start + 60_000).length).toBe(
        250 - finished.filter((t) => t === start).length,
      );
    } finally {
      await server.close();
    }
  });

  it("still retries a 429 after its Retry-After", async () => {
    const { clock, server, events, client: newClient } = await onTestClock();
    try {
      // another program with the same key has used the minute's 200 upload URLs
      for (let i = 0; i < 200; i++) {
        const r = await call(server.url, "GET", "/v1.0/files/url?name=a.json&type=application/json");
        expect(r.status).toBe(200);
      }
      const client = newClient(); // knows nothing of those calls
      const start = clock.now;
      const parameters = await client.getUploadUrl("b.json", "application/json");
      expect(parameters.filePath).toMatch(/\/b\.json$/);
      expect(events).toEqual([
        expect.objectContaining({ status: 429, waitMs: 60_000, attempt: 1, path: "/v1.0/files/url" }),
      ]);
      expect(clock.now - start).toBe(60_000);
    } finally {
      await server.close();
    }
  });

  it("counts a call from its answer, and holds a call while every slot is in flight", async () => {
    const clock = new TestClock(0);
    const limiter = new RateLimiter({ listExecutions: 2 }, clientClock(clock), 1000);
    const first = await limiter.acquire("listExecutions");
    const second = await limiter.acquire("listExecutions");
    let third = false;
    const waiting = limiter.acquire("listExecutions").then((release) => {
      third = true;
      return release;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(third).toBe(false); // two calls in flight: no slot, and no time passes
    clock.advance(300);
    first(); // answered at 300: its slot frees at 1300
    second();
    (await waiting)();
    expect(third).toBe(true);
    expect(clock.now).toBe(1300);
    expect(limiter.waitedMs).toBe(1000);
  });

  it("gives up waiting for a slot when aborted, and refuses a limit that is not a whole number ≥ 1", async () => {
    const limiter = new RateLimiter({ listExecutions: 1 }, clientClock(new TestClock(0)), 1000);
    await limiter.acquire("listExecutions");
    const controller = new AbortController();
    const waiting = limiter.acquire("listExecutions", controller.signal);
    controller.abort(new Error("enough"));
    await expect(waiting).rejects.toThrow("enough");
    expect(() => new RateLimiter({ listExecutions: 0 }, clientClock(new TestClock(0)))).toThrow(RangeError);
    expect(() => new RateLimiter({ listExecutions: 1.5 }, clientClock(new TestClock(0)))).toThrow(RangeError);
  });
});

describe("a sync while another sync runs", () => {
  let server: SyncfileServer;
  let data: string;
  beforeAll(async () => {
    data = await dataDir();
    server = await startServer({ dataDir: data });
  });
  afterAll(() => server.close());

  it("gives up at once with --wait 0, and otherwise waits, telling why, and succeeds", async () => {
    const client = createClient({ baseUrl: server.url, apiKey: KEY });
    const { id } = await client.uploadFile(fixture("valid/example.json"));

    let held = await holdSync(server.url, data);
    const refused = (await client.sync(id, 23, { waitMs: 0 }).catch((e: unknown) => e)) as ApiError;
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused.status).toBe(409);
    expect(refused.message).toMatch(/409 Conflict — another sync is running/);
    await held.release();
    expect((await held.answer).status).toBe(200);

    held = await holdSync(server.url, data);
    const waits: { waitedMs: number; nextMs: number; message: string }[] = [];
    const summary = await client.sync(id, 23, {
      pollMs: 100,
      onWaiting: (w) => {
        waits.push(w);
        void held.release(); // the running sync ends only once this one has been told to wait
      },
    });
    expect(summary).toMatchObject({ idFile: id, idAppAccount: 23, users: 3 });
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]?.message).toMatch(/another sync is running/);
    expect((await held.answer).status).toBe(200);
  });

  it("tries every pollMs while the time lasts, the last wait cut to what is left, then throws the 409", async () => {
    const clock = new TestClock();
    const client = createClient({ baseUrl: server.url, apiKey: KEY, clock: clientClock(clock) });
    const { id } = await client.uploadFile(fixture("valid/example.json"));
    const held = await holdSync(server.url, data, 24);
    const waits: { waitedMs: number; nextMs: number }[] = [];
    try {
      const refused = await client
        .sync(id, 24, {
          waitMs: 12_000,
          pollMs: 5000,
          onWaiting: ({ waitedMs, nextMs }) => waits.push({ waitedMs, nextMs }),
        })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).status).toBe(409);
    } finally {
      await held.release();
    }
    expect(waits).toEqual([
      { waitedMs: 0, nextMs: 5000 },
      { waitedMs: 5000, nextMs: 5000 },
      { waitedMs: 10_000, nextMs: 2000 },
    ]);
    expect((await held.answer).status).toBe(200);
  });
});

describe("pushFile", () => {
  it("refuses an invalid file without a single request, and pushes a valid one", async () => {
    const server = await startServer();
    const proxy = await startProxy(server.url);
    try {
      const client = createClient({ baseUrl: proxy.url, apiKey: KEY });
      const refused = await pushFile(client, fixture("invalid/license.user.duplicate.json"), {
        appAccount: 31,
      });
      expect(refused.synced).toBe(false);
      expect(refused.report.counts.error).toBe(1);
      expect(proxy.requests).toEqual([]);

      const steps: string[] = [];
      const pushed = await pushFile(client, fixture("valid/example.csv"), {
        appAccount: 31,
        onStep: (s) => steps.push(s),
      });
      expect(steps).toEqual(["validate", "upload", "sync"]);
      if (!pushed.synced) throw new Error("not synced");
      expect(pushed.summary).toMatchObject({ format: "csv", idAppAccount: 31, users: 3 });
      const storage = storageTraffic(server.url, proxy);
      const put = storage.line("PUT");
      expect(proxy.requests.filter((line) => !put.test(line)).map((line) => line.split("?")[0])).toEqual([
        "GET /v1.0/files/url",
        "POST /v1.0/files",
        "PUT /v1.0/services/sync/gluu",
      ]);
      expect(
        storage.proxy.requests.filter((line) => put.test(line)).map((line) => line.split("?")[0]),
      ).toEqual([expect.stringMatching(/\/\d+\/example\.csv$/)]);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});

describe("pushFile, a UTF-16 file", () => {
  it("goes up as the JSON it reads as: the service reads UTF-8", async () => {
    const server = await startServer();
    const proxy = await startProxy(server.url);
    try {
      const client = createClient({ baseUrl: proxy.url, apiKey: KEY });
      // Excel's Unicode Text of the service's own layout
      const path = join(work, "users.txt");
      const text = "\ufeffemail\tfirstName\tstatus\r\nyuki@example.com\tYūki\tactive\r\n";
      writeFileSync(path, Buffer.from(text, "utf16le"));
      const pushed = await pushFile(client, path, { appAccount: 32 });
      if (!pushed.synced) throw new Error(`not synced: ${JSON.stringify(pushed.report.findings)}`);
      expect(pushed.summary).toMatchObject({ format: "json", idAppAccount: 32, users: 1 });
      const storage = storageTraffic(server.url, proxy);
      const put = storage.line("PUT");
      expect(
        storage.proxy.requests.filter((line) => put.test(line)).map((line) => line.split("?")[0]),
      ).toEqual([expect.stringMatching(/\/\d+\/users\.json$/)]);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});

describe("the name a download takes from the service", () => {
  const named = (header: string) => suggestedName({ headers: { "content-disposition": header } } as never);

  it("is reduced to a safe base name, never a path", () => {
    expect(named('attachment; filename="report.zip"')).toBe("report.zip");
    expect(named("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.csv")).toBe("résumé.csv");
    expect(named('attachment; filename="../../etc/passwd"')).toBe("passwd");
    expect(named("attachment; filename*=UTF-8''..%2F..%2Fsecret")).toBe("secret");
    expect(named('attachment; filename="..\\\\windows\\\\evil.bat"')).toBe("evil.bat");
    expect(named('attachment; filename=".."')).toBeNull();
    expect(named('attachment; filename=".bashrc"')).toBe("bashrc");
    expect(named('attachment; filename="a\u0001b"')).toBeNull();
    expect(named("attachment; filename*=UTF-8''%E0%A4%A")).toBeNull();
    expect(named("inline")).toBeNull();
  });
});
