// What `syncfile push` keeps for the next push (the copy of the file synced and the id of its
// file, in $SYNCFILE_STATE_DIR/pushed) when that state is damaged, cannot be written, or has a
// link planted at its name (issue 48, items 4 to 6): never an internal error, never a push that
// succeeded reported as failed, never a file written through a link.

import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { runCli, startCli } from "../support/cli.js";
import { type FaultyProxy, startProxy } from "../support/proxy.js";
import { call, dataDir, KEY, removeDataDirs, startServer } from "../support/server.js";

let server: SyncfileServer;
let proxy: FaultyProxy;
const work = mkdtempSync(join(tmpdir(), "syncfile-push-state-test-"));
beforeAll(async () => {
  server = await startServer({ dataDir: await dataDir() });
  proxy = await startProxy(server.url);
});
afterAll(async () => {
  await proxy.close();
  await server.close();
  rmSync(work, { recursive: true, force: true });
  await removeDataDirs();
});

/** `syncfile push FILE --app-account N …` through the proxy, keeping its state in `stateDir`. */
const push = (file: string, account: number, stateDir: string, more: string[] = []) =>
  runCli(["push", file, "--app-account", String(account), ...more], { env: env(stateDir) });
const env = (stateDir: string) => ({
  ...process.env,
  SYNCFILE_BASE_URL: proxy.url,
  SYNCFILE_API_KEY: KEY,
  SYNCFILE_STATE_DIR: stateDir,
});

/** A data file of `n` active users, written under `work`. */
function people(name: string, n: number): string {
  const path = join(work, name);
  const users = Array.from({ length: n }, (_, i) => ({ email: `user${i}@example.com`, status: "active" }));
  writeFileSync(path, JSON.stringify({ users }));
  return path;
}

/** The state push keeps for `account` in `stateDir`: its files by what follows the account. */
function stateOf(stateDir: string, account: number): { synced: string; copy: string } {
  const name = readdirSync(join(stateDir, "pushed")).find((f) => f.endsWith(`-account-${account}.json`));
  expect(name, `the copy of the last push to ${account}`).toBeDefined();
  const copy = join(stateDir, "pushed", name as string);
  return { synced: copy.replace(/\.json$/, ".synced.json"), copy };
}

/** The requests that upload or sync something, among the proxy's since `before`. */
const uploads = (before: number) =>
  proxy.requests.slice(before).filter((line) => /\/files\/url|\/v1\.0\/files |\/services\/sync/.test(line));

const noStackTrace = (stderr: string) => expect(stderr).not.toMatch(/internal error|\n\s+at /);

describe("a push state that cannot be read", () => {
  it.each([
    ["an empty", 31, ""],
    ["a cut-short", 32, '{"idFile":'],
  ])(
    "%s .synced.json is a warning naming it, and the push compares with the service's record",
    async (_, account, text) => {
      const state = join(work, `synced-${account}`);
      expect((await push(people(`forty-${account}.json`, 40), account, state)).code).toBe(0);
      const { synced } = stateOf(state, account);
      writeFileSync(synced, text);

      const r = await push(people(`thirty-nine-${account}.json`, 39), account, state);
      noStackTrace(r.stderr);
      expect(r.stderr).toBe(
        `syncfile: warning: the push state ${synced} cannot be read (empty or cut short: a crash, a full disk?): comparing with the service's record instead\n`,
      );
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(
        /^changes against the service's record of app account \d+ .*\n {2}users: 0 added, 1 removed/,
      );
      // written anew: the next push reads it
      expect(JSON.parse(readFileSync(synced, "utf8"))).toEqual({ idFile: expect.any(Number) });
      expect(
        (await push(join(work, `thirty-nine-${account}.json`), account, state, ["--dry-run"])).stderr,
      ).toBe("");
    },
  );

  it("a copy of the last push cut short: nothing to compare with, refused but with --allow-deletes", async () => {
    const state = join(work, "copy-cut");
    expect((await push(people("twenty.json", 20), 40, state)).code).toBe(0);
    const { copy } = stateOf(state, 40);
    writeFileSync(copy, readFileSync(copy, "utf8").slice(0, 50));

    const before = proxy.requests.length;
    const refused = await push(people("nineteen.json", 19), 40, state);
    noStackTrace(refused.stderr);
    expect(refused.code).toBe(5);
    expect(refused.stdout).toBe("the previous state of app account 40 is lost: nothing to compare with\n");
    expect(refused.stderr).toBe(
      `syncfile: warning: the push state ${copy} cannot be read (not a valid data file: 1 error): nothing to compare with\n` +
        "syncfile: refused: without the account's previous state, what this push takes away is unknown; nothing was uploaded\n" +
        "syncfile: push again with --allow-deletes to push it as a first push (the state is written anew), or compare with --against FILE\n",
    );
    expect(uploads(before)).toEqual([]);

    const allowed = await push(join(work, "nineteen.json"), 40, state, ["--allow-deletes"]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/synced into app account 40\n {2}19 users/);
    // the state is whole again: the next push compares with it
    const next = await push(join(work, "nineteen.json"), 40, state, ["--dry-run"]);
    expect(next.stderr).toBe("");
    expect(next.stdout).toMatch(
      /^changes against the last push to this account from here:\n {2}users: 0 added, 0 removed/,
    );
  });
});

describe("a push state that cannot be written", () => {
  it("is found before anything is uploaded: one line naming the folder, exit 3", async () => {
    const blocker = join(work, "a-file");
    writeFileSync(blocker, "not a folder\n");
    const state = join(blocker, "state");
    const before = proxy.requests.length;
    const r = await push(people("ten.json", 10), 50, state);
    noStackTrace(r.stderr);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `syncfile: cannot keep the push state in ${join(state, "pushed")}: not a folder (a file is in the way); nothing was uploaded\n` +
        "syncfile: make it a folder you can write, or set SYNCFILE_STATE_DIR to one\n",
    );
    expect(uploads(before)).toEqual([]);
    expect((await call(server.url, "GET", "/v1.0/appAccounts/50")).status).toBe(404);
  });

  it("after the sync succeeded: the summary, then that the state was not saved, exit 9", async () => {
    const state = join(work, "vanishing");
    mkdirSync(join(state, "pushed"), { recursive: true });
    // the sync's answer is held back while the state folder becomes a file
    const held = proxy.holdNext(/^PUT \/v1\.0\/services\/sync\/custom/);
    const running = startCli(["push", people("eleven.json", 11), "--app-account", "51"], { env: env(state) });
    await held.seen;
    rmSync(join(state, "pushed"), { recursive: true, force: true });
    writeFileSync(join(state, "pushed"), "in the way\n");
    held.release();
    const r = await running.result;
    noStackTrace(r.stderr);
    expect(r.code).toBe(9);
    expect(r.stdout).toMatch(/^no earlier push .*\npushed .* as file \d+, synced into app account 51\n/);
    expect(r.stderr).toMatch(
      new RegExp(
        `^syncfile: the sync succeeded; the state was not saved: cannot write ${join(state, "pushed").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/\\S+: not a folder \\(a file is in the way\\)\n` +
          "syncfile: the next push from here may compare with an older state: make the folder writable \\(or set SYNCFILE_STATE_DIR\\) and push the same file again to save it\n$",
      ),
    );
    expect((await call(server.url, "GET", "/v1.0/appAccounts/51")).text).toContain('"users":11');
  });
});

describe("a link planted at a state file's name", () => {
  it("is replaced, never written through: its target is untouched", async () => {
    const state = join(work, "linked");
    expect((await push(people("twelve.json", 12), 60, state)).code).toBe(0);
    const { synced, copy } = stateOf(state, 60);
    const target = join(work, "precious.json");
    const precious = '{"precious": true}\n';
    writeFileSync(target, precious);
    for (const path of [synced, copy]) {
      rmSync(path);
      symlinkSync(target, path);
    }

    const r = await push(people("thirteen.json", 13), 60, state);
    noStackTrace(r.stderr);
    expect(r.code).toBe(0);
    // neither link is followed to read what it points at: the service's record is compared with
    const link = "a symbolic link, which syncfile never follows there";
    const instead = "comparing with the service's record instead";
    expect(r.stderr).toBe(
      `syncfile: warning: the push state ${copy} cannot be read (${link}): ${instead}\n` +
        `syncfile: warning: the push state ${synced} cannot be read (${link}): ${instead}\n`,
    );
    expect(r.stdout).toMatch(
      /^changes against the service's record of app account 60 .*\n {2}users: 1 added/,
    );
    expect(readFileSync(target, "utf8")).toBe(precious);
    for (const path of [synced, copy]) expect(lstatSync(path).isFile()).toBe(true);
    expect(JSON.parse(readFileSync(copy, "utf8")).users).toHaveLength(13);
  });

  it("a dangling link at its name: nothing is made where it points", async () => {
    const state = join(work, "dangling");
    mkdirSync(join(state, "pushed"), { recursive: true });
    const service = createHash("sha256").update(new URL(proxy.url).href).digest("hex").slice(0, 16);
    const base = join(state, "pushed", `${service}-account-61`);
    const nowhere = join(work, "nowhere");
    for (const extension of [".json", ".synced.json"])
      symlinkSync(`${nowhere}${extension}`, `${base}${extension}`);

    // an account the service never synced, and a state here that cannot be read: refused
    const refused = await push(people("two.json", 2), 61, state);
    noStackTrace(refused.stderr);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^syncfile: warning: the push state ${base}\\.json cannot be read \\(a symbolic link, which syncfile never follows there\\): nothing to compare with\n`,
      ),
    );
    expect(existsSync(`${nowhere}.json`)).toBe(false);
    const r = await push(join(work, "two.json"), 61, state, ["--allow-deletes"]);
    noStackTrace(r.stderr);
    expect(r.code).toBe(0);
    for (const extension of [".json", ".synced.json"]) {
      expect(existsSync(`${nowhere}${extension}`)).toBe(false);
      expect(lstatSync(`${base}${extension}`).isFile()).toBe(true);
    }
  });

  it("syncfile reports refuses a link at its state file's name, and leaves its target as it was", async () => {
    const dir = join(work, "reports-linked");
    mkdirSync(dir);
    const target = join(work, "reports-precious.json");
    const precious = '{"version": 1, "cursor": null, "downloaded": {}, "pending": {}}\n';
    writeFileSync(target, precious);
    symlinkSync(target, join(dir, ".syncfile-reports.json"));
    const r = await runCli(["reports", "--out", dir], {
      env: { ...process.env, SYNCFILE_BASE_URL: server.url, SYNCFILE_API_KEY: KEY },
    });
    noStackTrace(r.stderr);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `syncfile: ${join(dir, ".syncfile-reports.json")} is a symbolic link, not a state file syncfile wrote: syncfile never writes through one; remove it to download every report again\n`,
    );
    expect(readFileSync(target, "utf8")).toBe(precious);
  });
});
