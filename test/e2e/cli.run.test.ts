// `syncfile run` as a nightly job runs it against the project's own server over real HTTP, the
// job file in a temporary folder: a first run pushes; the same data again uploads nothing; a
// truncated export is refused and leaves the account as it was, and the complete one the next
// night goes through as a recovery; a command that fails pushes nothing; a file still being
// written is left alone; a second run of a job while one holds it waits, then gives up.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { runCli } from "../support/cli.js";
import { call, KEY, removeDataDirs, shownEmails, startServer } from "../support/server.js";

let server: SyncfileServer;
const work = mkdtempSync(join(tmpdir(), "syncfile-run-"));
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  await removeDataDirs();
  rmSync(work, { recursive: true, force: true });
});

let accounts = 500;

/** A job folder: an export folder, a job file of one job reading it, and how to run it. */
function jobFolder(source: string, extra = "") {
  const dir = join(work, `job-${accounts}`);
  mkdirSync(join(dir, "exports"), { recursive: true });
  const account = accounts++;
  writeFileSync(
    join(dir, "people.job.yaml"),
    `jobs:
  - name: people
    source: ${source}
    profile: bamboohr
    service: { url: "\${BASE_URL}", apiKey: "\${API_KEY}", appAccount: ${account} }
    state: ./state
${extra}`,
  );
  const runWith =
    (extra: NodeJS.ProcessEnv) =>
    (...flags: string[]) =>
      runCli(["run", join(dir, "people.job.yaml"), ...flags], {
        env: { ...process.env, BASE_URL: server.url, API_KEY: KEY, ...extra },
      });
  const run = Object.assign(runWith({}), { withEnv: runWith });
  return { dir, account, run };
}

/** A BambooHR report of `n` active employees, written `minutesAgo` (settled, unless 0). */
function exportOf(dir: string, name: string, n: number, minutesAgo = 60): void {
  const rows = Array.from({ length: n }, (_, i) => `${i + 1},Person,${i + 1},p${i + 1}@example.com,Active`);
  const path = join(dir, "exports", name);
  writeFileSync(path, `Employee #,First Name,Last Name,Work Email,Status\n${rows.join("\n")}\n`);
  const time = Date.now() / 1000 - minutesAgo * 60;
  utimesSync(path, time, time);
}

const runsOf = (dir: string) =>
  readFileSync(join(dir, "state", "runs.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown> & { files?: { report: string } });

describe("syncfile run", () => {
  it("pushes a first time, uploads nothing for the same data, refuses a truncated export, recovers", async () => {
    const { dir, account, run } = jobFolder('{ file: "exports/people-*.csv" }');
    exportOf(dir, "people-1.csv", 40, 120);
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^people: synced; 40 users, file \d+, sync \d+ \(run \S+\)\n$/);
    expect(await shownEmails(server.url, account)).toHaveLength(40);

    const again = await run();
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /^people: unchanged — the source is what this job last pushed: nothing was uploaded/,
    );

    // the night the export is cut short: 35 of 40 users would go, more than the guard's 10
    exportOf(dir, "people-2.csv", 5, 60);
    const cut = await run();
    expect(cut.code).toBe(5);
    expect(cut.stdout).toMatch(
      /^people: refused — this run takes away 35 users, more than the guard's 10; 35 user\.removed; would take away p10@example\.com, p11@example\.com, .* and 15 more \(run /,
    );
    expect(await shownEmails(server.url, account)).toHaveLength(40);

    // the next night's complete export goes through, and says it recovered
    exportOf(dir, "people-3.csv", 41, 30);
    const next = await run();
    expect(next.code, next.stdout).toBe(0);
    expect(next.stdout).toMatch(/^people: recovered; 1 user\.added; 41 users, file \d+, sync \d+/);
    expect(await shownEmails(server.url, account)).toHaveLength(41);

    const runs = runsOf(dir);
    expect(runs.map((r) => r.outcome)).toEqual(["synced", "unchanged", "refused", "recovered"]);
    expect(runs[2]).toMatchObject({
      step: "guard",
      deletes: 35,
      source: { name: "people-2.csv", bytes: expect.any(Number) },
    });
    expect(JSON.stringify(runs)).not.toContain(KEY);
  });

  it("pushes nothing from a command that fails, from invalid data, or from a file still being written", async () => {
    const failing = jobFolder(
      `{ command: ["${process.execPath}", "-e", "console.error('db down'); process.exit(2)"] }`,
    );
    const r = await failing.run();
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^people: failed — .* exited with 2: db down \(run /);
    expect((await call(server.url, "GET", `/v1.0/appAccounts/${failing.account}/users`)).status).toBe(404);

    const invalid = jobFolder('{ file: "exports/people-*.csv" }');
    exportOf(invalid.dir, "people-1.csv", 3);
    const path = join(invalid.dir, "exports", "people-1.csv");
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace("p2@example.com,Active", "p2@example.com,On leave"),
    );
    utimesSync(path, Date.now() / 1000 - 3600, Date.now() / 1000 - 3600);
    const i = await invalid.run();
    expect(i.code).toBe(1);
    expect(i.stdout).toMatch(
      /^people: invalid — the data is invalid: 1 error \(syncfile validate says where\) \(run /,
    );
    expect((await call(server.url, "GET", `/v1.0/appAccounts/${invalid.account}/users`)).status).toBe(404);

    const writing = jobFolder('{ file: "exports/people-*.csv", settle: 600 }');
    exportOf(writing.dir, "people-1.csv", 3, 1);
    const w = await writing.run();
    expect(w.code).toBe(0);
    expect(w.stdout).toMatch(
      /^people: unchanged — .*people-1\.csv changed \d+ s ago: it may still be being written \(settle: 600 s\)/,
    );
    expect((await call(server.url, "GET", `/v1.0/appAccounts/${writing.account}/users`)).status).toBe(404);
  });

  it("lets one run of a job hold it: a second gives up after its wait, with its own exit code", async () => {
    const { dir, run } = jobFolder('{ file: "exports/people-*.csv" }');
    exportOf(dir, "people-1.csv", 3);
    mkdirSync(join(dir, "state"), { recursive: true });
    // a run of this job in a live process (the test's own) holds the lock
    writeFileSync(
      join(dir, "state", "lock"),
      JSON.stringify({ pid: process.pid, host: (await import("node:os")).hostname(), since: "now" }),
    );
    const busy = await run("--lock-wait", "1");
    expect(busy.code).toBe(7);
    expect(busy.stderr).toMatch(
      /^syncfile: people: waiting up to 1 s for another run of the job to end \(pid \d+ on .*\)\nsyncfile: people: another run of the job people is still running/,
    );
    // a lock left by a process that is gone is taken over
    writeFileSync(
      join(dir, "state", "lock"),
      JSON.stringify({ pid: 2 ** 22 + 17, host: (await import("node:os")).hostname(), since: "then" }),
    );
    const taken = await run("--lock-wait", "1");
    expect(taken.code, taken.stderr).toBe(0);
  });

  it("lets a refused run's data through once when approved, for that data only; lists the runs", async () => {
    const { dir, account, run } = jobFolder('{ file: "exports/people-*.csv" }');
    const job = join(dir, "people.job.yaml");
    const env = { ...process.env, BASE_URL: server.url, API_KEY: KEY };
    const approve = (...flags: string[]) => runCli(["approve", job, "--job", "people", ...flags], { env });
    exportOf(dir, "people-1.csv", 40, 120);
    expect((await run()).code).toBe(0);
    const nothing = await approve();
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(
      /^syncfile: the last run of the job people \(\S+\) was synced, not refused: nothing to approve\n/,
    );

    // the company really did shrink: the admin lets this export through
    exportOf(dir, "people-2.csv", 5, 60);
    expect((await run()).code).toBe(5);
    const approved = await approve();
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(/^people: the data of run \S+ goes through on the next run\n$/);
    // a different export is judged by the guard again, and the approval waits for its own data
    exportOf(dir, "people-3.csv", 4, 50);
    expect((await run()).code).toBe(5);
    exportOf(dir, "people-4.csv", 5, 40); // the approved data again, a file of its own
    const through = await run();
    expect(through.code, through.stdout).toBe(0);
    expect(through.stdout).toMatch(/^people: recovered; 35 user\.removed; 5 users, file \d+, sync \d+/);
    expect(await shownEmails(server.url, account)).toHaveLength(5);
    // once: the approval is gone
    expect((await approve()).code).toBe(2);

    const listed = await runCli(["runs", job], { env });
    expect(listed.code).toBe(0);
    expect(listed.stdout.split("\n")[0]).toBe("people: 4 runs");
    expect(listed.stdout).toMatch(
      /^ {2}\S+ {2}people: recovered; 35 user\.removed; 5 users, file \d+, sync \d+ \(run \S+\)$/m,
    );
    const json = await runCli(["runs", job, "--job", "people", "--format", "json"], { env });
    const records = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records.map((r: { outcome: string }) => r.outcome)).toEqual([
      "synced",
      "refused",
      "refused",
      "recovered",
    ]);
    expect(records[3].approved).toBe(records[1].id);

    // one run, with its changes (every one, as JSON lines) and their page kept beside the history
    const refused = records[1].id as string;
    const shown = await runCli(["runs", "show", job, refused], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("syncfile job people: refused by its guard\n");
    expect(shown.stdout).toMatch(/^would take away: p10@example\.com, .* and 15 more$/m);
    expect(shown.stdout).toContain(`changes: ${join(dir, "state", "runs", `${refused}.changes.jsonl`)}\n`);
    const changes = await runCli(["runs", "show", job, refused, "--changes"], { env });
    const removed = changes.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { kind: string; email: string });
    expect(removed).toHaveLength(35);
    expect(removed.every((c) => c.kind === "user.removed")).toBe(true);
    const page = readFileSync(join(dir, "state", "runs", `${refused}.html`), "utf8");
    expect(page).toContain("user.removed (35)");
    expect(page).toContain("p40@example.com");
    const last = await runCli(["runs", "show", job, "last", "--format", "json"], { env });
    expect(JSON.parse(last.stdout)).toEqual(records[3]);
    const unknown = await runCli(["runs", "show", job, "20200101T000000Z-000000"], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^syncfile: the job people has no run "20200101T000000Z-000000" \(syncfile runs /,
    );
  });

  it("approve --now lets the refused data through at once, with the run's own exit code", async () => {
    const { dir, account, run } = jobFolder('{ file: "exports/people-*.csv" }');
    exportOf(dir, "people-1.csv", 40, 120);
    expect((await run()).code).toBe(0);
    exportOf(dir, "people-2.csv", 5, 60);
    expect((await run()).code).toBe(5);
    const now = await runCli(["approve", join(dir, "people.job.yaml"), "--job", "people", "--now"], {
      env: { ...process.env, BASE_URL: server.url, API_KEY: KEY },
    });
    expect(now.code, now.stderr).toBe(0);
    expect(now.stdout).toMatch(
      /^people: the data of run \S+ goes through on the run now\npeople: recovered; 35 user\.removed; 5 users/,
    );
    expect(await shownEmails(server.url, account)).toHaveLength(5);
  });

  it("refuses an export without users unless the job says it may be empty; never pushes one", async () => {
    const { dir, account, run } = jobFolder('{ file: "exports/people-*.csv" }');
    exportOf(dir, "people-1.csv", 0);
    const empty = await run();
    expect(empty.code).toBe(5);
    expect(empty.stdout).toMatch(
      /^people: refused — the data holds no users: nothing is pushed \(a job whose/,
    );
    expect((await call(server.url, "GET", `/v1.0/appAccounts/${account}/users`)).status).toBe(404);
    const approve = await runCli(["approve", join(dir, "people.job.yaml"), "--job", "people"], {
      env: { ...process.env, BASE_URL: server.url, API_KEY: KEY },
    });
    expect(approve.code).toBe(2);
    expect(approve.stderr).toMatch(/read no users: such an export is never pushed/);

    const allowed = jobFolder('{ file: "exports/people-*.csv" }', "    guard: { allowEmpty: true }\n");
    exportOf(allowed.dir, "people-1.csv", 40);
    expect((await allowed.run()).code).toBe(0);
    exportOf(allowed.dir, "people-2.csv", 0, 30);
    const left = await allowed.run();
    expect(left.code, left.stdout).toBe(0);
    expect(left.stdout).toMatch(/^people: unchanged — the export holds no users, as the job allows/);
    expect(await shownEmails(server.url, allowed.account)).toHaveLength(40);
  });

  it("guards a job whose state folder is lost (a CI cache gone) with the service's record", async () => {
    const { dir, account, run } = jobFolder('{ file: "exports/people-*.csv" }');
    exportOf(dir, "people-1.csv", 40, 120);
    expect((await run()).code).toBe(0);
    rmSync(join(dir, "state"), { recursive: true });
    exportOf(dir, "people-2.csv", 5, 60);
    const cut = await run();
    expect(cut.code, cut.stdout).toBe(5);
    expect(cut.stdout).toMatch(/^people: refused — this run takes away 35 users, more than the guard's 10/);
    expect(await shownEmails(server.url, account)).toHaveLength(40);
    const page = readFileSync(join(dir, "state", runsOf(dir)[0]?.files?.report as string), "utf8");
    expect(page).toContain(`against the service&#39;s record of app account ${account}`);
  });

  it("dry-runs: compares, never pushes", async () => {
    const { dir, account, run } = jobFolder('{ file: "exports/people-*.csv" }');
    exportOf(dir, "people-1.csv", 3);
    const dry = await run("--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^people: unchanged — staging: compared, not pushed/);
    expect((await call(server.url, "GET", `/v1.0/appAccounts/${account}/users`)).status).toBe(404);
  });
});

describe("syncfile run's notifications", () => {
  const hooks: { text: string; run: Record<string, unknown> }[] = [];
  const mails: { from: string; to: string[]; text: string }[] = [];
  let hookServer: Server;
  let smtp: SMTPServer;
  let hookUrl = "";
  let smtpUrl = "";
  const SMTP_PASSWORD = "smtp-pass-8841";
  beforeAll(async () => {
    hookServer = createHttpServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        hooks.push(JSON.parse(body));
        response.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => hookServer.listen(0, "127.0.0.1", resolve));
    // the hook's URL is its secret, as Slack's are
    hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/services/T0/B0/hook-token-5531`;
    smtp = new SMTPServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      onAuth(auth, _session, done) {
        if (auth.username === "mailer" && auth.password === SMTP_PASSWORD) done(null, { user: "mailer" });
        else done(new Error("who are you?"));
      },
      onData(stream, session, done) {
        let text = "";
        stream.setEncoding("utf8");
        stream.on("data", (chunk: string) => {
          text += chunk;
        });
        stream.on("end", () => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            text,
          });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
    smtpUrl = `smtp://mailer:${SMTP_PASSWORD}@127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => hookServer.close(() => resolve()));
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it("tells a refusal with the users it would take away, once a day, and the recovery; no secret shown", async () => {
    const { dir, account, run } = jobFolder(
      '{ file: "exports/people-*.csv" }',
      `    notify:
      - webhook: "\${HOOK_URL}"
      - email: { to: it-ops@example.com, from: syncfile@example.com, smtp: "\${SMTP_URL}" }
`,
    );
    const env = { HOOK_URL: hookUrl, SMTP_URL: smtpUrl };
    exportOf(dir, "people-1.csv", 40, 120);
    const first = await run.withEnv(env)();
    expect(first.code).toBe(0);
    expect(hooks).toHaveLength(0); // a sync is not told by default

    exportOf(dir, "people-2.csv", 5, 60);
    const refused = await run.withEnv(env)();
    expect(refused.code).toBe(5);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]?.text).toMatch(
      /^syncfile job people: refused by its guard\nthis run takes away 35 users, more than the guard's 10\n/,
    );
    expect(hooks[0]?.text).toContain("would take away: p10@example.com, p11@example.com");
    expect(hooks[0]?.run).toMatchObject({ outcome: "refused", deletes: 35, job: "people" });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ from: "syncfile@example.com", to: ["it-ops@example.com"] });
    expect(mails[0]?.text).toContain("Subject: syncfile job people: refused by its guard");

    // refused again the same night: recorded, not told again
    const again = await run.withEnv(env)();
    expect(again.code).toBe(5);
    expect(hooks).toHaveLength(1);
    expect(mails).toHaveLength(1);

    exportOf(dir, "people-3.csv", 40, 30);
    const recovered = await run.withEnv(env)();
    expect(recovered.code).toBe(0);
    expect(hooks.map((h) => h.run.outcome)).toEqual(["refused", "recovered"]);
    expect(mails).toHaveLength(2);
    expect(await shownEmails(server.url, account)).toHaveLength(40);

    const everything = [first, refused, again, recovered].map((r) => r.stdout + r.stderr).join("\n");
    const kept = readFileSync(join(dir, "state", "runs.jsonl"), "utf8");
    for (const secret of [KEY, "hook-token-5531", SMTP_PASSWORD]) {
      expect(everything).not.toContain(secret);
      expect(kept).not.toContain(secret);
      expect(JSON.stringify(hooks) + mails.map((m) => m.text).join("")).not.toContain(secret);
    }
  });

  it("keeps the outcome when the e-mail cannot be sent, and says so without its password", async () => {
    const { dir, run } = jobFolder(
      `{ command: ["${process.execPath}", "-e", "process.exit(4)"] }`,
      `    notify:
      - email: { to: it-ops@example.com, smtp: "smtp://mailer:dead-pass-913@127.0.0.1:1" }
`,
    );
    const r = await run();
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^people: failed — /);
    expect(r.stderr).toMatch(
      /^syncfile: the e-mail to it-ops@example.com could not be sent after 3 tries: /m,
    );
    expect(r.stdout + r.stderr).not.toContain("dead-pass-913");
    expect(runsOf(dir).map((x) => x.outcome)).toEqual(["failed"]);
  });
});
