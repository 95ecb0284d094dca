// The page's calls to the service (src/web/service.ts), run in Node against our server over
// real HTTP, on a clock the test moves: a sync already running is waited out with a countdown of
// whole seconds and tried again; a wait stops on Cancel; a refusal says what was refused.

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { pushFile, type Service, ServiceError } from "../../src/web/service.js";
import { fixture } from "../support/paths.js";
import { clientClock, dataDir, holdSync, KEY, startServer, TestClock } from "../support/server.js";

describe("the page's push", () => {
  let server: SyncfileServer;
  let data: string;
  let service: Service;
  const upload = () => ({
    body: new Blob([readFileSync(fixture("valid/example.json"))]),
    name: "example.json",
    format: "json" as const,
  });

  beforeAll(async () => {
    data = await dataDir();
    server = await startServer({ dataDir: data });
    service = { base: server.url, key: KEY };
  });
  afterAll(() => server?.close());

  it("counts a running sync's wait down second by second, then syncs", async () => {
    const held = await holdSync(server.url, data, 4501);
    const clock = new TestClock();
    const steps: string[] = [];
    const waits: [string, number][] = [];
    try {
      const summary = await pushFile(service, upload(), 4501, {
        clock: clientClock(clock),
        onStep: (step) => steps.push(step),
        onWait: (why, seconds) => {
          waits.push([why, seconds]);
          if (seconds === 0) void held.release(); // the running sync ends during the first wait
        },
      });
      expect(summary).toMatchObject({ idAppAccount: 4501, users: 3 });
    } finally {
      await held.release();
    }
    expect((await held.answer).status).toBe(200);
    const why = "Another sync of this app account is running; trying again in";
    // one wait of five seconds at least (the held sync may end after a later try), each counted
    expect(waits.slice(0, 6)).toEqual([5, 4, 3, 2, 1, 0].map((s) => [why, s]));
    expect(waits.length % 6).toBe(0);
    expect(steps.slice(0, 4)).toEqual([
      "Asking for an upload URL…",
      "Uploading example.json…",
      "Registering the file…",
      "Syncing…",
    ]);
    // "Syncing…" again after each wait
    expect(steps.slice(4)).toEqual(Array(waits.length / 6).fill("Syncing…"));
  });

  it("stops waiting on Cancel, with the signal's reason", async () => {
    const held = await holdSync(server.url, data, 4502);
    const cancel = new AbortController();
    const reason = new Error("cancelled by the user");
    const waits: number[] = [];
    try {
      const failed = await pushFile(service, upload(), 4502, {
        clock: clientClock(new TestClock()),
        signal: cancel.signal,
        onStep: () => {},
        onWait: (_why, seconds) => {
          waits.push(seconds);
          if (seconds === 3) cancel.abort(reason);
        },
      }).catch((error: unknown) => error);
      expect(failed).toBe(reason);
      expect(waits).toEqual([5, 4, 3]);
    } finally {
      await held.release();
    }
    expect((await held.answer).status).toBe(200);
  });

  it("says what was refused and keeps the service's report of an invalid file", async () => {
    const failed = await pushFile(
      service,
      {
        body: new Blob([readFileSync(fixture("invalid/user.email.format.json"))]),
        name: "bad.json",
        format: "json",
      },
      4503,
      { onStep: () => {}, onWait: () => {} },
    ).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ServiceError);
    const refusal = failed as ServiceError;
    expect(refusal.status).toBe(400);
    expect(refusal.message).toMatch(/^PUT \/v1\.0\/services\/sync\/custom was refused \(400\): /);
    expect(refusal.body?.report).toMatchObject({ valid: false, counts: { error: 1 } });
  });
});
