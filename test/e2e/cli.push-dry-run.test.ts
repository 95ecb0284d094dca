// `syncfile push --dry-run` fails exactly when the push would be refused (issue 49): by the
// service's own guard too (serve --max-deletes), and never passes having checked nothing.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { type CliResult, runCli, runShell } from "../support/cli.js";
import { root } from "../support/paths.js";
import { type FaultyProxy, startProxy } from "../support/proxy.js";
import { call, KEY, removeDataDirs, startServer } from "../support/server.js";

const work = mkdtempSync(join(tmpdir(), "syncfile-push-dry-run-"));
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await removeDataDirs();
});

const people = (n: number) => ({
  users: Array.from({ length: n }, (_, i) => ({ email: `user${i}@example.com`, status: "active" })),
});
const write = (name: string, document: unknown) => {
  const path = join(work, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, JSON.stringify(document));
  return path;
};
/** The environment without a service: no URL, no key. */
const noService = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, SYNCFILE_STATE_DIR: join(work, "no-service-state") };
  delete env.SYNCFILE_BASE_URL;
  delete env.SYNCFILE_API_KEY;
  return env;
};

/**
 * A dry run against a service that cannot be reached: it waits out the CLI's retries (some 12 s,
 * as a user's would) and needs nothing of the other tests, so it starts with the file and waits
 * while they run; its test below checks what it ended with.
 */
let unreachable: Promise<CliResult>;
beforeAll(() => {
  unreachable = runCli(["push", write("ten.json", people(10)), "--app-account", "7", "--dry-run"], {
    env: {
      ...process.env,
      SYNCFILE_BASE_URL: "http://127.0.0.1:9",
      SYNCFILE_API_KEY: KEY,
      SYNCFILE_STATE_DIR: join(work, "unreachable-state"),
    },
  });
});

describe("against a service with a guard of its own (serve --max-deletes 5)", () => {
  let guarded: SyncfileServer;
  let proxy: FaultyProxy;
  beforeAll(async () => {
    guarded = await startServer({ maxDeletes: 5 });
    proxy = await startProxy(guarded.url);
  });
  afterAll(async () => {
    await proxy.close();
    await guarded.close();
  });
  const env = () => `SYNCFILE_BASE_URL=${proxy.url} SYNCFILE_API_KEY=${KEY} SYNCFILE_STATE_DIR=state`;

  it("the CI recipe of docs/sync.md fails with exit 5, and the push is refused with nothing uploaded", async () => {
    // the recipe as the page gives it
    const recipe = readFileSync(join(root, "docs/sync.md"), "utf8").match(
      /\*\*In CI, before a change to the export is merged\.\*\*[\s\S]*?```sh\n(.*)\n```/,
    )?.[1];
    expect(recipe).toBe(
      "syncfile push build/users.json --app-account 42 --against main/users.json --dry-run",
    );
    write("main/users.json", people(50));
    write("build/users.json", people(42)); // 8 users dropped: within push's guard (10), past the service's (5)
    const first = await runShell(`cd ${work} && ${env()} syncfile push main/users.json --app-account 42`);
    expect(first.code, first.stderr).toBe(0);

    const dry = await runShell(`cd ${work} && ${env()} ${recipe}`);
    expect(dry.code).toBe(5);
    expect(dry.stdout).toContain(
      "users taken away: 8 (the service's --max-deletes 5, stricter than this push's --max-deletes 10)",
    );
    expect(dry.stderr).toMatch(
      /^syncfile: refused: this push would remove or deactivate 8 users of app account 42, more than the service's own guard allows \(its --max-deletes 5\), which would refuse the sync; nothing was uploaded\n/,
    );
    expect(dry.stderr).toContain("push again with --allow-deletes, which the service is told too");

    // the real push, compared with the last push from here, is refused before anything goes up
    const before = proxy.requests.length;
    const push = await runShell(`cd ${work} && ${env()} syncfile push build/users.json --app-account 42`);
    expect(push.code).toBe(5);
    expect(push.stderr).toContain("more than the service's own guard allows (its --max-deletes 5)");
    expect(proxy.requests.slice(before)).toEqual(["GET /v1.0/appAccounts/42/syncs?limit=100"]);
    expect((await call(guarded.url, "GET", "/v1.0/appAccounts/42")).body.users).toEqual({
      active: 50,
      deleted: 0,
    });

    // --allow-deletes passes both guards: the dry run, and the push (the header sent)
    const allowedDry = await runShell(`cd ${work} && ${env()} ${recipe} --allow-deletes`);
    expect(allowedDry.code).toBe(0);
    const allowed = await runShell(
      `cd ${work} && ${env()} syncfile push build/users.json --app-account 42 --allow-deletes`,
    );
    expect(allowed.code, allowed.stderr).toBe(0);
    expect((await call(guarded.url, "GET", "/v1.0/appAccounts/42")).body.users).toEqual({
      active: 42,
      deleted: 0,
    });
  });

  it("says the service's guard in the account's syncs list", async () => {
    const list = await call(guarded.url, "GET", "/v1.0/appAccounts/42/syncs?limit=1");
    expect(list.body).toMatchObject({ idAppAccount: 42, maxDeletes: 5 });
  });
});

describe("a dry run that checks nothing does not pass", () => {
  it("exits 8 when the service cannot be reached, and says no first push", async () => {
    const r = await unreachable; // started with the file
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/no complete answer from http:\/\/127\.0\.0\.1:9 — connection refused/);
    expect(r.stdout).not.toContain("a first push");
    expect(r.stdout).not.toContain("dry run: nothing was uploaded");
  }, 60_000);

  it("--dry-run --against FILE needs no service URL nor key", async () => {
    const refused = await runCli(
      [
        "push",
        write("three.json", people(3)),
        "--app-account",
        "7",
        "--against",
        write("twenty.json", people(20)),
        "--dry-run",
      ],
      { env: noService() },
    );
    expect(refused.code, refused.stderr).toBe(5);
    expect(refused.stdout).toContain("users taken away: 17 (--max-deletes 10)");
    const passed = await runCli(
      [
        "push",
        write("nineteen.json", people(19)),
        "--app-account",
        "7",
        "--against",
        join(work, "twenty.json"),
        "--dry-run",
      ],
      { env: noService() },
    );
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.stdout).toMatch(/^changes against .*twenty\.json:\n/);
    expect(passed.stdout).toMatch(/dry run: nothing was uploaded\n$/);
    // a real push still needs the service
    const push = await runCli(
      ["push", join(work, "nineteen.json"), "--app-account", "7", "--against", join(work, "twenty.json")],
      { env: noService() },
    );
    expect(push.code).toBe(2);
  });
});
