// Collecting the access-review reports against the project's own server (real HTTP, a test
// clock): every finished execution's archive once, a report still being generated fetched on
// a later pass, the state file, --since, full buckets, and the tolerant reading of answers.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  collectReports,
  createClient,
  STATE_FILE,
  StateFileError,
  watchReports,
} from "../../src/client/index.js";
import { readExecutions, readFileId, readUploadParameters } from "../../src/http/tolerant.js";
import type { SyncfileServer } from "../../src/server/index.js";
import { fixture } from "../support/paths.js";
import { startProxy } from "../support/proxy.js";
import {
  clientClock,
  dataDir,
  KEY,
  removeDataDirs,
  removeObject,
  startServer,
  TestClock,
} from "../support/server.js";

const work = mkdtempSync(join(tmpdir(), "syncfile-reports-test-"));
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await removeDataDirs();
});

const ids = (list: { execution: { id: number } }[]) => list.map((r) => r.execution.id).sort();

describe("collectReports", () => {
  let clock: TestClock;
  let server: SyncfileServer;
  beforeAll(async () => {
    clock = new TestClock();
    server = await startServer({ clock: clock.read, seed: fixture("seed.json"), reportDelayMs: 5000 });
  });
  afterAll(() => server.close());

  it("downloads each finished execution's archive once, and a report generated late on a later pass", async () => {
    const client = createClient({ baseUrl: server.url, apiKey: KEY, clock: clientClock(clock) });
    const dir = join(work, "reports");
    // seeded executions that finished long ago get their reports once the delay has passed
    clock.advance(6000);
    expect(await server.generateReports()).toBe(4);

    const first = await collectReports(client, { dir });
    expect(ids(first.downloaded)).toEqual([101, 102, 201, 202]);
    expect(first).toMatchObject({ pending: [], known: 0, full: [] });
    const archive = unzipSync(readFileSync(join(dir, "quarterly-review-engineering-apps-execution-101.zip")));
    expect(Object.keys(archive).sort()).toEqual([
      "GitHub.csv",
      "GitHub.pdf",
      "Jira.csv",
      "Jira.pdf",
      "Slack.csv",
      "Slack.pdf",
    ]);

    // execution 104 completes 20 s after the start: listed, but its report does not exist yet
    clock.advance(15_000);
    const second = await collectReports(client, { dir });
    expect(second.downloaded).toEqual([]);
    expect(second.pending.map((e) => [e.id, e.reportFileId])).toEqual([[104, null]]);
    expect(second.known).toBe(4);

    // the report appears; the next pass comes back for it
    clock.advance(5000);
    expect(await server.generateReports()).toBe(1);
    const third = await collectReports(client, { dir });
    expect(ids(third.downloaded)).toEqual([104]);
    expect(third.pending).toEqual([]);

    const fourth = await collectReports(client, { dir });
    expect(fourth).toMatchObject({ downloaded: [], pending: [], known: 5 });
    expect(readdirSync(dir).sort()).toEqual([
      STATE_FILE,
      "offboarding-check-finance-tools-execution-201.zip",
      "offboarding-check-finance-tools-execution-202.zip",
      "quarterly-review-engineering-apps-execution-101.zip",
      "quarterly-review-engineering-apps-execution-102.zip",
      "quarterly-review-engineering-apps-execution-104.zip",
    ]);
    const state = JSON.parse(readFileSync(join(dir, STATE_FILE), "utf8"));
    expect(Object.keys(state.downloaded).sort()).toEqual(["101", "102", "104", "201", "202"]);
    expect(state.pending).toEqual({});
  });

  it("takes only executions completed after --since, and says when a bucket may hide older ones", async () => {
    const client = createClient({ baseUrl: server.url, apiKey: KEY, clock: clientClock(clock) });
    const since = await collectReports(client, { dir: join(work, "since"), since: "2026-06-01T00:00:00Z" });
    expect(ids(since.downloaded)).toEqual([102, 104, 201]);

    const dir = join(work, "limited");
    const limited = await collectReports(client, { dir, limit: 2 });
    expect(limited.full).toEqual(["completedExecutions"]);
    // completed, newest first: 104, then 201 (ended early); 102 and 101 lie beyond
    expect(ids(limited.downloaded)).toEqual([104, 201, 202]);
    // the cursor stays put: nothing beyond the full bucket is taken as seen
    expect(JSON.parse(readFileSync(join(dir, STATE_FILE), "utf8")).cursor).toBeNull();
  });

  it("refuses a state file it did not write, and changes nothing", async () => {
    const client = createClient({ baseUrl: server.url, apiKey: KEY });
    const dir = mkdtempSync(join(work, "foreign-"));
    writeFileSync(join(dir, STATE_FILE), "{not json");
    await expect(collectReports(client, { dir })).rejects.toThrow(/is not a state file .* move it away/);
    await expect(collectReports(client, { dir })).rejects.toBeInstanceOf(StateFileError);
    expect(readdirSync(dir)).toEqual([STATE_FILE]);
  });

  it("watches: passes until aborted, picking up a report that appears between passes", async () => {
    const client = createClient({ baseUrl: server.url, apiKey: KEY, clock: clientClock(clock) });
    const dir = join(work, "watched");
    const controller = new AbortController();
    const passes: number[][] = [];
    await watchReports(client, {
      dir,
      intervalMs: 60_000,
      signal: controller.signal,
      clock: clientClock(clock),
      onPass: async (pass) => {
        passes.push(ids(pass.downloaded));
        if (passes.length === 1) {
          // between passes: execution 203 ends (45 s after the start) and its report is made
          clock.advance(30_000);
          await server.generateReports();
        }
        if (passes.length === 2) controller.abort();
      },
    });
    expect(passes[0]).toEqual([101, 102, 104, 201, 202]);
    expect(passes[1]).toEqual([203]);
  });
});

describe("a report the service refuses", () => {
  it("is reported and asked for again, and the others still come", async () => {
    const data = await dataDir();
    const clock = new TestClock();
    const server = await startServer({ dataDir: data, clock: clock.read, seed: fixture("seed.json") });
    try {
      clock.advance(6000);
      await server.generateReports();
      await removeObject(server.url, data, "reports/execution-101.zip"); // gone from storage: 404
      const client = createClient({ baseUrl: server.url, apiKey: KEY, clock: clientClock(clock) });
      const dir = join(work, "refused");
      const pass = await collectReports(client, { dir });
      expect(ids(pass.downloaded)).toEqual([102, 201, 202]);
      expect(pass.failed.map((f) => [f.execution.id, f.error.status])).toEqual([[101, 404]]);
      const state = JSON.parse(readFileSync(join(dir, STATE_FILE), "utf8"));
      expect(Object.keys(state.pending)).toEqual(["101"]);
      const again = await collectReports(client, { dir });
      expect(again.failed.map((f) => f.execution.id)).toEqual([101]);
      expect(again.downloaded).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe("the client's clock", () => {
  it("times the state file, and lets a report awaited for over 7 days stop holding the passes back", async () => {
    const data = await dataDir();
    const clock = new TestClock();
    const server = await startServer({ dataDir: data, clock: clock.read, seed: fixture("seed.json") });
    const proxy = await startProxy(server.url);
    const listed = () => {
      const line = proxy.requests.filter((r) => r.startsWith("GET /v1.0/accessReviews/campaigns")).at(-1);
      return new URL(`http://x${line?.split(" ")[1]}`).searchParams.get("completedAfter");
    };
    try {
      clock.advance(6000);
      await server.generateReports();
      await removeObject(server.url, data, "reports/execution-101.zip"); // refused (404): awaited from now on
      const client = createClient({ baseUrl: proxy.url, apiKey: KEY, clock: clientClock(clock) });
      const dir = join(work, "clocked");
      const first = await collectReports(client, { dir });
      expect(first.failed.map((f) => f.execution.id)).toEqual([101]);
      const state = JSON.parse(readFileSync(join(dir, STATE_FILE), "utf8"));
      expect(state.downloaded["102"].downloadedAt).toBe(new Date(clock.now).toISOString());
      expect(state.pending["101"].since).toBe(new Date(clock.now).toISOString());

      // the next pass looks back to just before the awaited report's execution (completed 15 April)
      await collectReports(client, { dir });
      expect(listed()).toBe("2026-04-15T16:59:59.999Z");
      // 6 days later it still does; 8 days later it looks back from the cursor less an hour (the
      // newest completion seen: execution 203, 45 s after the start, listed since)
      clock.advance(6 * 24 * 3_600_000);
      await collectReports(client, { dir });
      expect(listed()).toBe("2026-04-15T16:59:59.999Z");
      clock.advance(2 * 24 * 3_600_000);
      await collectReports(client, { dir });
      expect(listed()).toBe("2026-11-21T09:00:45.000Z");
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});

describe("tolerant reading of the service's answers", () => {
  it("reads the upload parameters wrapped or flat, and the file id under its usual names", () => {
    expect(
      readUploadParameters({ uploadFileParameters: { url: "https://s3/x", filePath: "1/a.json" } }),
    ).toEqual({
      url: "https://s3/x",
      filePath: "1/a.json",
    });
    expect(readUploadParameters({ url: "https://s3/x", filePath: "1/a.json" })).toEqual({
      url: "https://s3/x",
      filePath: "1/a.json",
    });
    expect(readUploadParameters({ url: 3 })).toBeNull();
    expect([
      readFileId({ id: 7 }),
      readFileId({ idFile: "8" }),
      readFileId({ fileId: 9 }),
      readFileId({}),
    ]).toEqual([7, 8, 9, null]);
  });

  it("takes every array under a key ending in Executions as a bucket, and finds the report id by name", () => {
    const list = readExecutions({
      completedExecutions: [
        { id: 1, campaignName: "A", completionTime: "2026-01-01T00:00:00Z", reportId: 55 },
      ],
      expiredExecutions: [
        { id: 2, campaignName: "B", completionTime: "2026-01-02T00:00:00Z", idReportFile: "56" },
      ],
      inProgressExecutions: [{ id: 3, campaignName: "C", startTime: "2026-01-03T00:00:00Z" }],
      total: 3,
    });
    expect(Object.keys(list?.buckets ?? {})).toEqual([
      "completedExecutions",
      "expiredExecutions",
      "inProgressExecutions",
    ]);
    expect(list?.completedExecutions[0]).toMatchObject({ id: 1, reportFileId: 55, state: "completed" });
    expect(list?.buckets.expiredExecutions?.[0]).toMatchObject({ id: 2, reportFileId: 56 });
    expect(list?.archivedExecutions).toEqual([]);
    expect(list?.inProgressExecutions[0]).toMatchObject({ id: 3, state: "inProgress", reportFileId: null });
    expect(list?.sizes).toEqual({ completedExecutions: 1, expiredExecutions: 1, inProgressExecutions: 1 });
    // an item that cannot be read is left out of the bucket, but still counts for its size
    expect(readExecutions({ completedExecutions: [{ name: "no id" }] })?.sizes).toEqual({
      completedExecutions: 1,
    });
    expect(readExecutions({ executions: "none" })).toBeNull();
  });
});
