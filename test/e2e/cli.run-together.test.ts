// Runs of one job that meet, against the project's own server over real HTTP: two `syncfile run`
// processes started together push once (the second finds the data pushed); `syncfile run
// --daemon` on a per-second schedule runs the job, skips the ticks that come while its run is
// under way, and on SIGTERM lets that run end before it stops; a service that cannot be reached
// is a failed run, exit 8. The job's source is a command
// that waits for the test to let it answer (a file appears), so nothing here depends on how
// fast the machine is.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { type RunningCli, runCli, startCli } from "../support/cli.js";
import { call, KEY, removeDataDirs, startServer } from "../support/server.js";

let server: SyncfileServer;
const work = mkdtempSync(join(tmpdir(), "syncfile-together-"));
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  await removeDataDirs();
  rmSync(work, { recursive: true, force: true });
});

let accounts = 700;

/**
 * A job whose source is a command that says it started (a file of its own, a line each time),
 * then gives a BambooHR report of three employees once the test lets it (`go()`).
 */
function gatedJob(schedule = "") {
  const dir = join(work, `job-${accounts}`);
  mkdirSync(dir, { recursive: true });
  const account = accounts++;
  writeFileSync(
    join(dir, "source.cjs"),
    `const fs = require("node:fs");
fs.appendFileSync("started", "run\\n");
const wait = setInterval(() => {
  if (!fs.existsSync("go")) return;
  clearInterval(wait);
  process.stdout.write("Employee #,First Name,Last Name,Work Email,Status\\n1,Ada,L,ada@example.com,Active\\n2,Bo,M,bo@example.com,Active\\n3,Cy,N,cy@example.com,Active\\n");
}, 20);
`,
  );
  writeFileSync(
    join(dir, "people.job.yaml"),
    `jobs:
  - name: people
    source: { command: ["${process.execPath}", "source.cjs"] }
    profile: bamboohr
    service: { url: "\${BASE_URL}", apiKey: "\${API_KEY}", appAccount: ${account} }
    state: ./state
${schedule}`,
  );
  const env = { ...process.env, BASE_URL: server.url, API_KEY: KEY };
  return {
    dir,
    account,
    start: (...flags: string[]) => startCli(["run", join(dir, "people.job.yaml"), ...flags], { env }),
    started: () =>
      existsSync(join(dir, "started")) ? readFileSync(join(dir, "started"), "utf8").length / 4 : 0,
    go: () => writeFileSync(join(dir, "go"), ""),
    runs: () =>
      readFileSync(join(dir, "state", "runs.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { outcome: string; message: string; step: string }),
  };
}

/** Waits until `ready()` holds, checking every 20 ms; fails with `what` after 20 s. */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`waited 20 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The JSON lines a daemon has logged so far. */
function logOf(
  daemon: RunningCli,
): { level: string; msg: string; job?: string; run?: { outcome: string } }[] {
  return daemon
    .output()
    .stdout.split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

async function syncsOf(account: number): Promise<unknown[]> {
  const list = await call(server.url, "GET", `/v1.0/appAccounts/${account}/syncs?limit=100`);
  return (list.body.syncs as unknown[] | undefined) ?? [];
}

describe("runs of one job that meet", () => {
  it("two syncfile run of one job at once push once: the second finds the data pushed", async () => {
    const job = gatedJob();
    const first = job.start("--lock-wait", "60");
    await until(() => job.started() === 1, "the first run's source to start");
    // the second one, started while the first holds the job, waits for it
    const second = job.start("--lock-wait", "60");
    await until(() => second.output().stderr.includes("waiting up to 60 s"), "the second run to wait");
    expect(second.output().stderr).toMatch(
      /^syncfile: people: waiting up to 60 s for another run of the job to end \(pid \d+ on \S+ since /,
    );
    job.go();
    const [a, b] = await Promise.all([first.result, second.result]);
    expect([a.code, b.code], `${a.stdout}${a.stderr}${b.stdout}${b.stderr}`).toEqual([0, 0]);
    expect(a.stdout).toMatch(/^people: synced; 3 users, file \d+, sync \d+ \(run /);
    expect(b.stdout).toMatch(/^people: unchanged — the source is what this job last pushed/);
    expect(job.runs().map((r) => r.outcome)).toEqual(["synced", "unchanged"]);
    expect(await syncsOf(job.account)).toHaveLength(1);
  });

  it("--daemon runs each tick, skips ticks while a run is under way, and stops after it on SIGTERM", async () => {
    const job = gatedJob('    schedule: { cron: "* * * * * *" }\n');
    const daemon = job.start("--daemon");
    await until(() => logOf(daemon).some((l) => l.msg.startsWith("daemon started")), "the daemon to start");
    expect(logOf(daemon)[0]).toMatchObject({
      level: "info",
      jobs: [{ job: "people", next: expect.any(String) }],
    });
    await until(() => job.started() === 1, "the first tick's run");
    // the run waits for its source: the ticks that come meanwhile are skipped, and said
    await until(() => logOf(daemon).some((l) => l.msg.includes("tick skipped")), "a skipped tick");
    expect(job.started()).toBe(1);

    // stopped mid-run: no run starts now, the one under way ends and is recorded
    daemon.child.kill("SIGTERM");
    await until(() => logOf(daemon).some((l) => l.msg.startsWith("stopping")), "the daemon to stop");
    job.go();
    const ended = await daemon.result;
    expect(ended.code, ended.stderr).toBe(0);
    const log = logOf(daemon);
    const ran = log.filter((l) => l.run !== undefined);
    expect(ran).toHaveLength(1);
    expect(ran[0]?.run?.outcome).toBe("synced");
    expect(log.at(-1)?.msg).toBe("stopped");
    expect(log.findIndex((l) => l.run)).toBeGreaterThan(log.findIndex((l) => l.msg.startsWith("stopping")));
    expect(job.started()).toBe(1);
    expect(job.runs().map((r) => r.outcome)).toEqual(["synced"]);
    expect(await syncsOf(job.account)).toHaveLength(1);
    expect(ended.stdout).not.toContain(KEY);
  });

  it("exits 8 when the service cannot be reached, the run recorded as failed at the push", async () => {
    const job = gatedJob();
    job.go();
    // a port nothing listens on: the client tries a few times, then the run fails
    const closed = createNetServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    const r = await runCli(["run", join(job.dir, "people.job.yaml")], {
      env: { ...process.env, BASE_URL: `http://127.0.0.1:${port}`, API_KEY: KEY },
    });
    expect(r.code, r.stderr).toBe(8);
    expect(r.stdout).toMatch(/^people: failed — \[GET\] .*127\.0\.0\.1.* \(run /);
    expect(job.runs()).toMatchObject([{ outcome: "failed", step: "push" }]);
  }, 60_000);

  it("--daemon refuses jobs without a schedule, naming them", async () => {
    const job = gatedJob();
    const r = await job.start("--daemon").result;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^syncfile: --daemon runs each job on its schedule, and people has none: add schedule:/,
    );
  });
});
