// `syncfile push | download | reports` as a user runs them, against the project's own server
// over real HTTP: exit codes, one-line errors, nothing sent for an invalid file.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { type CliResult, runCli, startCli } from "../support/cli.js";
import { fixture } from "../support/paths.js";
import { type FaultyProxy, startForwardProxy, startProxy } from "../support/proxy.js";
import {
  call,
  dataDir,
  holdSync,
  KEY,
  removeDataDirs,
  startServer,
  TestClock,
  upload,
} from "../support/server.js";
import { waitFor } from "../support/waitFor.js";

let server: SyncfileServer;
let data: string;
let proxy: FaultyProxy;
const work = mkdtempSync(join(tmpdir(), "syncfile-cli-client-"));
/**
 * Two commands that wait out the CLI's retries of a refused connection (some 14 s each, as a
 * user's would) and need nothing of the other tests: started with the file, so that they wait
 * while the others run; their tests below check what they ended with.
 */
let unreachable: { service: Promise<CliResult>; proxy: Promise<CliResult> };
beforeAll(async () => {
  data = await dataDir();
  server = await startServer({ dataDir: data });
  proxy = await startProxy(server.url);
  unreachable = {
    service: syncfile(["download", "1"], { SYNCFILE_BASE_URL: "http://127.0.0.1:9" }),
    proxy: syncfile(["download", "1", "--info"], { HTTP_PROXY: "http://someone:proxy-secret-9@127.0.0.1:9" }),
  };
});
afterAll(async () => {
  await proxy.close();
  await server.close();
  rmSync(work, { recursive: true, force: true });
  await removeDataDirs();
});

/** The CLI with the service's URL and key in the environment. */
const syncfile = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(args, { env: { ...process.env, SYNCFILE_BASE_URL: server.url, SYNCFILE_API_KEY: KEY, ...env } });

describe("syncfile push", () => {
  it("refuses an invalid file with its report, exit 1, and not a single request", async () => {
    const before = proxy.requests.length;
    const r = await syncfile(["push", fixture("invalid/license.user.duplicate.json"), "--app-account", "5"], {
      SYNCFILE_BASE_URL: proxy.url,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("error license.user.duplicate");
    expect(r.stderr).toBe(
      `syncfile: ${fixture("invalid/license.user.duplicate.json")} was not uploaded: fix its 1 error and push again\n`,
    );
    expect(proxy.requests.length).toBe(before);
  });

  it("uploads, registers and syncs a valid JSON file and prints the summary", async () => {
    const r = await syncfile(["push", fixture("valid/example.json"), "--app-account", "5"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^no earlier push to app account 5 from here: nothing to compare with \(a first push\)\npushed .*example\.json \(1\.0 KB\) as file \d+, synced into app account 5\n {2}3 users \(2 active\), 2 licenses, 3 license users, 0 warnings\n {2}prices in USD; sync \d+ took /,
    );
    const account = await call(server.url, "GET", "/v1.0/appAccounts/5");
    expect(account.body.users).toEqual({ active: 2, deleted: 1 });
  });

  it("pushes CSV, and prints JSON with --format json", async () => {
    const r = await syncfile([
      "push",
      fixture("valid/example.csv"),
      "--app-account",
      "6",
      "--format",
      "json",
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.file).toMatchObject({ name: "example.csv", contentType: "text/csv" });
    expect(out.sync).toMatchObject({ format: "csv", idAppAccount: 6, users: 3 });
  });

  it("pushes a workbook's sheet as the JSON it converts to, and refuses a bad one with its cells", async () => {
    const workbook = fixture("workbooks/second-sheet.xlsx");
    const r = await syncfile(["push", workbook, "--sheet", "Users", "--app-account", "7"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^no earlier push to app account 7 from here: nothing to compare with \(a first push\)\npushed .*second-sheet\.xlsx as second-sheet\.json \([\d.]+ (B|KB)\) as file \d+, synced into app account 7\n {2}4 users \(3 active\), 2 licenses, 4 license users, 0 warnings\n/,
    );
    const id = Number(/as file (\d+)/.exec(r.stdout)?.[1]);
    const file = join(work, "pushed.json");
    expect((await syncfile(["download", String(id), "-o", file])).code).toBe(0);
    const converted = join(work, "converted.json");
    expect((await runCli(["convert", workbook, converted, "--sheet", "Users"])).code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(readFileSync(converted, "utf8"));

    const before = proxy.requests.length;
    const bad = await syncfile(["push", fixture("workbooks/bad-status.xlsx"), "--app-account", "7"], {
      SYNCFILE_BASE_URL: proxy.url,
    });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("bad-status.xlsx:Users!D3: error user.status.enum");
    expect(proxy.requests.length).toBe(before);
  });

  it("pushes an export read through its profile, or a mapping, as the JSON it converts to", async () => {
    const okta = join(work, "okta.csv");
    writeFileSync(
      okta,
      "User,Login,Status,Activation date,Authentication Source,Last Login,Last Password Change\n" +
        "Ada Lovelace,ada@example.com,ACTIVE,1/10/2023,OKTA,7/5/2024 2:23:11 PM,1/10/2023\n" +
        "Grace Hopper,grace@example.com,SUSPENDED,1/10/2023,OKTA,Never,1/10/2023\n",
    );
    const r = await syncfile(["push", okta, "--app-account", "8"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(
      /\npushed .*okta\.csv as okta\.json \([\d.]+ B\) as file \d+, synced into app account 8\n {2}2 users \(1 active\)/,
    );
    const id = Number(/as file (\d+)/.exec(r.stdout)?.[1]);
    const pushed = join(work, "okta-pushed.json");
    expect((await syncfile(["download", String(id), "-o", pushed])).code).toBe(0);
    expect(JSON.parse(readFileSync(pushed, "utf8")).users).toEqual([
      {
        email: "ada@example.com",
        firstName: "Ada",
        lastName: "Lovelace",
        status: "active",
        externalStatus: "ACTIVE",
        lastUsedDate: "2024-07-05",
      },
      {
        email: "grace@example.com",
        firstName: "Grace",
        lastName: "Hopper",
        status: "deleted",
        externalStatus: "SUSPENDED",
      },
    ]);

    // the same rows under headers no profile knows, through a mapping of one's own
    const hr = join(work, "hr.csv");
    writeFileSync(hr, "Mail,State\nada@example.com,Employed\ngrace@example.com,Left\n");
    const mapping = join(work, "hr-mapping.json");
    writeFileSync(
      mapping,
      JSON.stringify({
        name: "hr",
        email: "Mail",
        status: { column: "State", values: { Employed: "active", Left: "deleted" } },
      }),
    );
    const own = await syncfile(["push", hr, "--mapping", mapping, "--app-account", "8"]);
    expect(own.code).toBe(0);
    expect(own.stdout).toMatch(/as hr\.json .* synced into app account 8\n {2}2 users \(1 active\)/);
  });

  describe("comparing with the account's previous state", () => {
    const people = (n: number, deleted: readonly number[] = []) => ({
      users: Array.from({ length: n }, (_, i) => ({
        email: `user${i}@example.com`,
        status: deleted.includes(i) ? "deleted" : "active",
      })),
    });
    const write = (name: string, document: unknown) => {
      const path = join(work, name);
      writeFileSync(path, JSON.stringify(document));
      return path;
    };
    // one state folder for these pushes: each push compares with the one before it
    const env = () => ({ SYNCFILE_BASE_URL: proxy.url, SYNCFILE_STATE_DIR: join(work, "state") });

    it("says a first push has nothing to compare with, then what a push changes", async () => {
      const first = await syncfile(["push", write("all.json", people(30)), "--app-account", "12"], env());
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(
        /^no earlier push to app account 12 from here: nothing to compare with \(a first push\)\npushed /,
      );
      const second = await syncfile(
        ["push", write("two-gone.json", people(30, [3, 4])), "--app-account", "12"],
        env(),
      );
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(
        /^changes against the last push to this account from here:\n {2}users: 0 added, 0 removed, 2 deactivated, 0 reactivated, 0 changed\n.*\n.*\n {2}users taken away: 2 \(--max-deletes 10\)\npushed /,
      );
    });

    it("refuses a push that takes away more users than --max-deletes: nothing uploaded, the users listed, exit 5", async () => {
      const truncated = write("truncated.json", people(12));
      const before = proxy.requests.length;
      const refused = await syncfile(["push", truncated, "--app-account", "12"], env());
      expect(refused.code).toBe(5);
      // nothing went up: the one request read the account's syncs (the service's record)
      expect(proxy.requests.slice(before)).toEqual(["GET /v1.0/appAccounts/12/syncs?limit=100"]);
      expect(refused.stdout).toContain("  users: 0 added, 18 removed, 0 deactivated");
      expect(refused.stderr).toMatch(
        /^syncfile: refused: this push would remove or deactivate 18 users of app account 12, more than --max-deletes 10; nothing was uploaded\nsyncfile: the first of them: (user(1[2-9]|2\d)@example\.com, ){17}user(1[2-9]|2\d)@example\.com\n/,
      );
      // the account still holds the 30 users
      expect((await call(server.url, "GET", "/v1.0/appAccounts/12")).text).toContain('"users":30');

      // a dry run says the same and stops; --max-deletes raised, or --allow-deletes, goes ahead
      const dry = await syncfile(
        ["push", truncated, "--app-account", "12", "--dry-run", "--allow-deletes"],
        env(),
      );
      expect(dry.code).toBe(0);
      expect(dry.stdout).toMatch(
        /users taken away: 18 \(--max-deletes 10\)\ndry run: nothing was uploaded\n$/,
      );
      expect(proxy.requests.slice(before).filter((line) => !line.startsWith("GET "))).toEqual([]);
      const allowed = await syncfile(["push", truncated, "--app-account", "12", "--allow-deletes"], env());
      expect(allowed.code).toBe(0);
      expect(allowed.stdout).toMatch(/synced into app account 12\n {2}12 users/);
      // what was pushed is the next previous state: nothing changes now
      const again = await syncfile(["push", truncated, "--app-account", "12", "--dry-run"], env());
      expect(again.stdout).toContain("users: 0 added, 0 removed, 0 deactivated, 0 reactivated, 0 changed");
    });

    it("compares with the service's record when the account was synced from elsewhere since", async () => {
      const here = { SYNCFILE_BASE_URL: proxy.url, SYNCFILE_STATE_DIR: join(work, "here") };
      const elsewhere = { SYNCFILE_BASE_URL: proxy.url, SYNCFILE_STATE_DIR: join(work, "elsewhere") };
      expect(
        (await syncfile(["push", write("forty.json", people(40)), "--app-account", "15"], here)).code,
      ).toBe(0);
      // another machine, which never pushed to the account: the service's record is the state
      const other = await syncfile(
        ["push", write("thirty.json", people(29)), "--app-account", "15"],
        elsewhere,
      );
      expect(other.code).toBe(5);
      expect(other.stdout).toMatch(
        /^changes against the service's record of app account 15 \(sync \d+, file \d+\):\n {2}users: 0 added, 11 removed/,
      );
      expect(
        (
          await syncfile(
            ["push", join(work, "thirty.json"), "--app-account", "15", "--allow-deletes"],
            elsewhere,
          )
        ).code,
      ).toBe(0);
      // this machine's last push is no longer the account's state: the service's record is
      const again = await syncfile(
        ["push", write("thirty-one.json", people(31)), "--app-account", "15", "--dry-run"],
        here,
      );
      expect(again.stdout).toMatch(
        /^changes against the service's record of app account 15 \(sync \d+, file \d+\):\n {2}users: 2 added, 0 removed/,
      );
      // and where it still is, the file kept here is compared with, nothing downloaded
      const before = proxy.requests.filter((line) => line.includes("/download")).length;
      const mine = await syncfile(
        ["push", join(work, "thirty.json"), "--app-account", "15", "--dry-run"],
        elsewhere,
      );
      expect(mine.stdout).toMatch(
        /^changes against the last push to this account from here:\n {2}users: 0 added, 0 removed/,
      );
      expect(proxy.requests.filter((line) => line.includes("/download")).length).toBe(before);
    });

    it("keeps what --no-compare pushed as the next push's previous state; --dry-run alone uploads nothing", async () => {
      const to = { SYNCFILE_BASE_URL: proxy.url, SYNCFILE_STATE_DIR: join(work, "unguarded") };
      const before = proxy.requests.length;
      const dry = await syncfile(
        ["push", write("five.json", people(5)), "--app-account", "16", "--no-compare", "--dry-run"],
        to,
      );
      expect(dry.code).toBe(0);
      expect(dry.stdout).toBe("dry run: nothing was uploaded\n");
      expect(proxy.requests.length).toBe(before);
      expect(
        (await syncfile(["push", join(work, "five.json"), "--app-account", "16", "--no-compare"], to)).code,
      ).toBe(0);
      const next = await syncfile(
        ["push", write("four.json", people(4)), "--app-account", "16", "--dry-run"],
        to,
      );
      expect(next.stdout).toMatch(
        /^changes against the last push to this account from here:\n {2}users: 0 added, 1 removed/,
      );
    });

    it("prints the changes in JSON with --format json: the local comparison's, and the service's", async () => {
      const json = async (args: string[]) => {
        const r = await syncfile([...args, "--app-account", "14", "--format", "json"], env());
        expect(r.code).toBe(0);
        return JSON.parse(r.stdout);
      };
      const first = await json(["push", write("three.json", people(3))]);
      expect(first.changes).toMatchObject({ compared: false, deletes: 0 });
      expect(first.sync.changes).toMatchObject({ previousSync: null, counts: { "user.added": 3 } });
      const dry = await json(["push", write("one-off.json", people(3, [1])), "--dry-run"]);
      expect(dry).toEqual({
        changes: expect.objectContaining({
          compared: true,
          counts: expect.objectContaining({ "user.deactivated": 1, "user.added": 0 }),
          deletes: 1,
          firstDeletes: ["user1@example.com"],
        }),
      });
      const pushed = await json(["push", join(work, "one-off.json")]);
      expect(pushed.changes).toMatchObject({ compared: true, deletes: 1 });
      // the service's own record of the sync says the same
      expect(pushed.sync.changes).toEqual({
        previousSync: first.sync.idSync,
        counts: pushed.changes.counts,
        deletes: 1,
      });
    });

    it("says so when the service's own guard (serve --max-deletes) refuses, exit 5; --allow-deletes goes ahead", async () => {
      const guarded = await startServer({ maxDeletes: 2 });
      try {
        const to = { SYNCFILE_BASE_URL: guarded.url, SYNCFILE_STATE_DIR: join(work, "guarded-state") };
        const push = (file: string, ...more: string[]) =>
          syncfile(["push", file, "--app-account", "3", "--wait", "10m", ...more], to);
        expect((await push(write("eight.json", people(8)))).code).toBe(0);
        // within this machine's guard (10), past the service's (2), which the service says:
        // refused here, nothing uploaded, naming the service's guard (issue 49)
        const five = write("five.json", people(5));
        const here = await push(five);
        expect(here.code).toBe(5);
        expect(here.stderr).toContain(
          "more than the service's own guard allows (its --max-deletes 2), which would refuse the sync; nothing was uploaded",
        );
        // uncompared, the file goes up and the service refuses it at once, not waited on
        const refused = await push(five, "--no-compare");
        expect(refused.code).toBe(5);
        expect(refused.stderr).toMatch(
          /^syncfile: refused by the service: the sync would take away 3 users \(removed, or deactivated\) .* more than this server's --max-deletes 2; nothing was applied\. First: user5@example\.com, user6@example\.com, user7@example\.com\. .*\nsyncfile: push again with --allow-deletes to go ahead\n$/,
        );
        expect((await call(guarded.url, "GET", "/v1.0/appAccounts/3")).body.users).toEqual({
          active: 8,
          deleted: 0,
        });
        const allowed = await push(five, "--allow-deletes");
        expect(allowed.code).toBe(0);
        expect((await call(guarded.url, "GET", "/v1.0/appAccounts/3")).body.users).toEqual({
          active: 5,
          deleted: 0,
        });
      } finally {
        await guarded.close();
      }
    });

    it("compares with --against FILE instead, and --max-deletes 0 turns the guard off", async () => {
      const r = await syncfile(
        [
          "push",
          write("one.json", people(1)),
          "--app-account",
          "13",
          "--against",
          write("many.json", people(40)),
          "--dry-run",
        ],
        env(),
      );
      expect(r.code).toBe(5); // a dry run the guard would refuse fails as the push would (a check for CI)
      expect(r.stdout).toMatch(/^changes against .*many\.json:\n {2}users: 0 added, 39 removed/);
      expect(r.stdout).toContain("users taken away: 39 (--max-deletes 10)");
      const off = await syncfile(
        [
          "push",
          write("one.json", people(1)),
          "--app-account",
          "13",
          "--against",
          join(work, "many.json"),
          "--max-deletes",
          "0",
          "--dry-run",
        ],
        env(),
      );
      expect(off.code).toBe(0);
      // a previous state that is no data file is said in one line, nothing uploaded
      const broken = await syncfile(
        [
          "push",
          join(work, "one.json"),
          "--app-account",
          "13",
          "--against",
          fixture("invalid/user.email.format.json"),
        ],
        env(),
      );
      expect(broken.code).toBe(3);
      expect(broken.stderr).toMatch(
        /^syncfile: cannot compare: the previous state .*user\.email\.format\.json is not a valid data file \(1 errors\)/,
      );
      expect(off.code).toBe(0);
      expect(off.stdout).toContain("users taken away: 39 (--max-deletes off)");
    });
  });

  it("goes through the proxy HTTP_PROXY names, but to the hosts NO_PROXY lists", async () => {
    const forward = await startForwardProxy();
    try {
      const through = await syncfile(
        ["push", fixture("valid/example.json"), "--app-account", "61", "--no-compare"],
        {
          HTTP_PROXY: forward.url,
        },
      );
      expect(through.code, through.stderr).toBe(0);
      const origin = server.url;
      expect(forward.requests.map((line) => line.split("?")[0])).toEqual([
        `GET ${origin}/v1.0/files/url`,
        expect.stringMatching(new RegExp(`^PUT ${origin}/storage/\\d+/example\\.json$`)),
        `POST ${origin}/v1.0/files`,
        `PUT ${origin}/v1.0/services/sync/custom`,
      ]);
      forward.requests.length = 0;
      const direct = await syncfile(
        ["push", fixture("valid/example.json"), "--app-account", "61", "--no-compare"],
        {
          HTTP_PROXY: forward.url,
          NO_PROXY: "127.0.0.1",
        },
      );
      expect(direct.code, direct.stderr).toBe(0);
      expect(forward.requests).toEqual([]);
      const wrong = await syncfile(["push", fixture("valid/example.json"), "--app-account", "61"], {
        HTTP_PROXY: "http://[not a host",
      });
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).toContain(
        'the proxy "http://[not a host" of the environment (HTTP_PROXY) is not a URL such as http://proxy.example.com:3128',
      );
    } finally {
      await forward.close();
    }
  });

  it("says in one line that the key is wrong: no stack trace", async () => {
    const r = await syncfile(["push", fixture("valid/example.json"), "--app-account", "5"], {
      SYNCFILE_API_KEY: "wrong-key",
    });
    expect(r.code).toBe(6);
    // the first request reads the account's syncs (its previous state, the service's guard)
    expect(r.stderr).toBe("syncfile: [GET] /v1.0/appAccounts/5/syncs: 401 Unauthorized — invalid API key\n");
    expect(r.stdout).toBe("");
  });

  it("exits 7 when a sync still runs after --wait, and 8 when the service is not there", async () => {
    const held = await holdSync(server.url, data);
    try {
      const r = await syncfile(["push", fixture("valid/example.json"), "--app-account", "9", "--wait", "0"]);
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(
        /\nsyncfile: gave up after --wait 0 ms: push again later, or with a longer --wait\n$/,
      );
    } finally {
      await held.release();
    }
    expect((await held.answer).status).toBe(200);
    const gone = await unreachable.service; // started with the file
    expect(gone.code).toBe(8);
    expect(gone.stderr).toMatch(/no complete answer from http:\/\/127\.0\.0\.1:9 — connection refused/);
  });

  it("names the proxy that refused, not the service, when the service is up and the proxy is not", async () => {
    // started with the file: the retries take about 14 s, as for a service that does not answer
    const deadProxy = await unreachable.proxy;
    expect(deadProxy.code).toBe(8);
    expect(deadProxy.stderr).toContain(
      "the proxy http://someone:***@127.0.0.1:9 (HTTP_PROXY) refused the connection (is the proxy running, and is HTTP_PROXY right?)",
    );
    expect(deadProxy.stderr).not.toContain("is the service running");
    expect(deadProxy.stderr).not.toContain("proxy-secret-9");
  });

  it("waits while another sync runs, says so, and then syncs", async () => {
    const held = await holdSync(server.url, data);
    const push = startCli(["push", fixture("valid/example.json"), "--app-account", "9", "--wait", "2m"], {
      env: { ...process.env, SYNCFILE_BASE_URL: server.url, SYNCFILE_API_KEY: KEY },
    });
    await waitFor(() => push.output().stderr.includes("waiting: trying again"), "push to say it waits");
    await held.release();
    const r = await push.result;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^syncfile: another sync is running \(sync \d+, started .*\); only one sync runs at a time: try again when it ends\nsyncfile: waiting: trying again in 2 s \(waited \d+ ms of 2 min\)\n/,
    );
    expect(r.stdout).toMatch(/synced into app account 9/);
    expect((await held.answer).status).toBe(200);
  });

  it("explains every wrong flag with exit 2, and an unreadable file with exit 3", async () => {
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [["push", fixture("valid/example.json")], {}, /required option '--app-account <id>' not specified/],
      [
        ["push", fixture("valid/example.json"), "--app-account", "0"],
        {},
        /--app-account takes a whole number of at least 1, not "0"/,
      ],
      [
        ["push", fixture("valid/example.json"), "--app-account", "1", "--wait", "soon"],
        {},
        /--wait takes a duration such as 30s, 10m or 1h, not "soon"/,
      ],
      [
        ["push", fixture("valid/example.json"), "--app-account", "1"],
        { SYNCFILE_BASE_URL: "" },
        /no service URL: pass --base-url/,
      ],
      [
        ["push", fixture("valid/example.json"), "--app-account", "1"],
        { SYNCFILE_API_KEY: "" },
        /no API key: pass --api-key/,
      ],
      [
        ["push", fixture("valid/example.json"), "--app-account", "1", "--base-url", "ftp://x"],
        {},
        /must start with http:\/\/ or https:\/\//,
      ],
      [["download", "abc"], {}, /the file id takes a whole number of at least 1, not "abc"/],
      [["reports", "--limit", "1001"], {}, /--limit takes a whole number from 1 to 1000, not "1001"/],
      [["reports", "--since", "yesterday"], {}, /--since takes an ISO 8601 time/],
      [["reports", "--interval", "5m"], {}, /--interval goes with --watch/],
    ];
    // each command on its own, all at once
    const results = await Promise.all(cases.map(([args, env]) => syncfile(args, env)));
    for (const [i, [args, , message]] of cases.entries()) {
      const r = results[i] as Awaited<(typeof results)[number]>;
      expect([args, r.code]).toEqual([args, 2]);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const missing = await syncfile(["push", join(work, "nope.json"), "--app-account", "1"]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe(
      `syncfile: cannot read ${join(work, "nope.json")}: no such file or directory\n`,
    );
  });
});

describe("syncfile download", () => {
  it("saves a file byte-identical, under -o or under the service's name in a folder", async () => {
    const id = await upload(server.url, "users.json", readFileSync(fixture("valid/example.json")));
    const dest = join(work, "copy.json");
    const r = await syncfile(["download", String(id), "-o", dest]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`saved ${dest} (1.0 KB)\n`);
    expect(readFileSync(dest)).toEqual(readFileSync(fixture("valid/example.json")));

    const dir = mkdtempSync(join(work, "into-"));
    const named = await syncfile(["download", String(id), "-o", dir]);
    expect(named.code).toBe(0);
    expect(readdirSync(dir)).toEqual(["users.json"]);
    // a name the service chose does not replace a file; -o does
    const again = await syncfile(["download", String(id), "-o", dir]);
    expect(again.code).toBe(3);
    expect(again.stderr).toBe(
      `syncfile: ${join(dir, "users.json")} already exists: name the file with -o to replace it\n`,
    );
    expect((await syncfile(["download", String(id), "-o", join(dir, "users.json")])).code).toBe(0);
  });

  it("--info shows a file's information, looked up as --type, and names the type to ask as", async () => {
    const id = await upload(server.url, "users.json", readFileSync(fixture("valid/example.json")));
    const info = await syncfile(["download", String(id), "--info"]);
    expect(info.code).toBe(0);
    expect(info.stdout).toMatch(
      new RegExp(
        `^file ${id}: users\\.json\\n  type: customIntegrationData\\n  registered: \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z, by API key 1\\n$`,
      ),
    );
    const other = await syncfile(["download", String(id), "--info", "--type", "expenseReport"]);
    expect(other.code).toBe(1);
    expect(other.stderr).toBe(
      `syncfile: file ${id} is not of type expenseReport but customIntegrationData: ask with --type customIntegrationData\n`,
    );
    const wrong = await syncfile(["download", String(id), "--info", "--type", "report"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /--type <type>' argument 'report' is invalid\. Allowed choices are customIntegrationData, expenseReport, attachment, plugin/,
    );
  });

  it("reports an unknown id in one line, and an unwritable destination with exit 3", async () => {
    const unknown = await syncfile(["download", "987654"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      "syncfile: [GET] /v1.0/files/987654/download: 404 Not Found — file 987654 not found\n",
    );
    const id = await upload(server.url, "users.json", readFileSync(fixture("valid/example.json")));
    const nowhere = join(work, "missing-folder", "copy.json");
    const r = await syncfile(["download", String(id), "-o", nowhere]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`syncfile: cannot write ${nowhere}: no such file or directory\n`);
  });
});

describe("syncfile reports", () => {
  // the service's time stands still unless a test moves it: which executions have finished,
  // and which reports exist, is up to the test, not to how long the tests before it took
  let clock: TestClock;
  let reviews: SyncfileServer;
  let reviewsProxy: FaultyProxy;
  beforeAll(async () => {
    clock = new TestClock(Date.now());
    reviews = await startServer({ clock: clock.read, seed: fixture("seed.json"), reportDelayMs: 0 });
    await reviews.generateReports();
    reviewsProxy = await startProxy(reviews.url);
  });
  afterAll(async () => {
    await reviewsProxy.close();
    await reviews.close();
  });
  const reports = (args: string[], base = reviews.url) =>
    syncfile(["reports", ...args], { SYNCFILE_BASE_URL: base });
  const listings = () =>
    reviewsProxy.requests.filter((r) => r.startsWith("GET /v1.0/accessReviews/campaigns"));

  it("downloads every finished execution's archive, and on the next run only what is new", async () => {
    const dir = join(work, "reviews");
    const first = await reports(["--out", dir]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^saved .*execution-\d+\.zip \(.*\): execution \d+ of "/m);
    expect(first.stdout).toMatch(/4 new reports, 0 downloaded before\n$/);
    expect(readdirSync(dir).filter((f) => f.endsWith(".zip"))).toHaveLength(4);

    const again = await reports(["--out", dir]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("0 new reports, 4 downloaded before\n");

    // a state file syncfile did not write: said, and nothing downloaded
    const foreign = mkdtempSync(join(work, "foreign-"));
    writeFileSync(join(foreign, ".syncfile-reports.json"), "[]");
    const refused = await reports(["--out", foreign]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toBe(
      `syncfile: ${join(foreign, ".syncfile-reports.json")} is not a state file this version of syncfile wrote: move it away to download every report again\n`,
    );
    expect(readdirSync(foreign)).toEqual([".syncfile-reports.json"]);

    // --out naming a file: said in words, not as the file system's EEXIST
    const file = join(work, "not-a-folder.txt");
    writeFileSync(file, "x");
    const onFile = await reports(["--out", file]);
    expect(onFile.code).toBe(3);
    expect(onFile.stderr).toBe(
      `syncfile: cannot write in ${file}: it is a file, not a folder; give a folder, or a name that is free\n`,
    );
  });

  it("lists in --help only the exit codes the command can end with", async () => {
    for (const command of ["download", "reports"]) {
      const help = (await runCli([command, "--help"])).stdout;
      expect(help, command).toMatch(/6 the API key refused/);
      expect(help, command).not.toMatch(/\b7 a sync still running/);
    }
    expect((await runCli(["push", "--help"])).stdout).toMatch(/7 a sync still running after --wait/);
  });

  it("--watch polls until Ctrl-C: quiet while nothing changes, and it saves what appears", async () => {
    const dir = join(work, "watched");
    const watch = startCli(["reports", "--out", dir, "--watch", "--interval", "1s"], {
      env: { ...process.env, SYNCFILE_BASE_URL: reviewsProxy.url, SYNCFILE_API_KEY: KEY },
    });
    const before = listings().length;
    await waitFor(() => watch.output().stdout.includes("new reports"), "the first pass");
    // a second pass that found nothing new, and said nothing
    await waitFor(() => listings().length >= before + 2, "a second pass");
    expect(watch.output().stdout.match(/new reports?,/g)).toHaveLength(1);
    // executions 104 and 203 finish (20 s and 45 s after the start), and their reports are made
    clock.advance(60_000);
    expect(await reviews.generateReports()).toBe(2);
    await waitFor(() => watch.output().stdout.includes("2 new reports, 4 downloaded before"), "their pass");
    watch.child.kill("SIGINT");
    const { code, stdout, stderr } = await watch.result;
    expect(code).toBe(130); // interrupted, as the table of exit codes says

    expect(stderr).toBe("syncfile: watching for reports every 1 s; Ctrl-C stops\n");
    const passes = stdout.split("\n").filter((line) => /new reports?,/.test(line));
    // a pass between the two steps above may also have said that they were being generated
    expect(passes.filter((line) => !line.includes("still being generated"))).toEqual([
      "4 new reports, 0 downloaded before",
      "2 new reports, 4 downloaded before",
    ]);
    expect(readdirSync(dir).filter((f) => f.endsWith(".zip"))).toHaveLength(6);
  });
});
