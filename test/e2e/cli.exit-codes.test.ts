// Every exit code a command's --help lists can happen for that command: each one is brought
// about here, as a user would meet it, and a code that cannot happen is not listed. The
// service is the project's own server, reached through a proxy that can answer for it (a 409
// of a running sync, a 429 that asks to wait an hour, a 400) or hold an answer back.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { type CliResult, runCli, startCli } from "../support/cli.js";
import { fixture } from "../support/paths.js";
import { type FaultyProxy, startProxy } from "../support/proxy.js";
import { KEY, removeDataDirs, startServer } from "../support/server.js";

let server: SyncfileServer;
let proxy: FaultyProxy;
const work = mkdtempSync(join(tmpdir(), "syncfile-exit-codes-"));
beforeAll(async () => {
  server = await startServer({ seed: fixture("seed.json"), reportDelayMs: 0 });
  await server.generateReports();
  proxy = await startProxy(server.url);
});
afterAll(async () => {
  await proxy.close();
  await server.close();
  await removeDataDirs();
  rmSync(work, { recursive: true, force: true });
});

const valid = fixture("valid/example.json");
const invalid = fixture("invalid/user.email.format.json");
const missing = join(work, "missing.json");
/** A job file reading a fixture (a CSV of the service's layout), for pull. */
const pullJob = (name: string, csv: string, folder = "valid") => {
  const file = join(work, `${name}.job.yaml`);
  writeFileSync(
    file,
    `jobs:\n  - name: a\n    source: { file: "${fixture(`${folder}/${csv}`)}", settle: 0 }\n    service: { url: "http://x", apiKey: k, appAccount: 1 }\n`,
  );
  return file;
};
/** A whole HTTP answer with a JSON body, as the proxy sends it in the service's place. */
const answer = (status: string, headers: string, body: object) => {
  const text = JSON.stringify(body);
  return `HTTP/1.1 ${status}\r\n${headers}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
};
// an hour's wait asked for: longer than the client waits, so it gives up at once
const TOO_MANY = answer("429 Too Many Requests", "Retry-After: 3600\r\n", {
  statusCode: 429,
  error: "Too Many Requests",
  message: "slow down",
});
const RUNNING = answer("409 Conflict", "", {
  statusCode: 409,
  error: "Conflict",
  message: "another sync is running",
});
const REFUSED = answer("400 Bad Request", "", { statusCode: 400, error: "Bad Request", message: "no." });

let account = 100;
const env = (extra: NodeJS.ProcessEnv = {}) => ({
  ...process.env,
  SYNCFILE_BASE_URL: proxy.url,
  SYNCFILE_API_KEY: KEY,
  SYNCFILE_STATE_DIR: join(work, `state-${account++}`),
  ...extra,
});
const run = (args: string[], extra?: NodeJS.ProcessEnv) => runCli(args, { env: env(extra) });

/** Runs `args` until `pattern`'s request is held by the proxy, then interrupts it (Ctrl-C). */
async function interrupted(args: string[], pattern: RegExp): Promise<CliResult> {
  const held = proxy.holdNext(pattern);
  const running = startCli(args, { env: env() });
  await held.seen;
  running.child.kill("SIGINT");
  const result = await running.result;
  held.release();
  return result;
}

type Scenarios = Record<number, () => Promise<CliResult>>;

const SCENARIOS: Record<string, Scenarios> = {
  validate: {
    0: () => run(["validate", valid]),
    1: () => run(["validate", invalid]),
    2: () => run(["validate", valid, "--format", "xml"]),
    3: () => run(["validate", missing]),
  },
  convert: {
    0: () => run(["convert", valid, join(work, "out-0.csv")]),
    1: () => run(["convert", invalid, join(work, "out-1.csv")]),
    2: () => run(["convert", valid]),
    3: () => run(["convert", missing, join(work, "out-3.csv")]),
  },
  diff: {
    0: () => run(["diff", valid, valid]),
    1: () => run(["diff", valid, fixture("valid/licenses-first.json")]),
    2: () => run(["diff", valid, invalid]),
    3: () => run(["diff", valid, missing]),
  },
  "job check": {
    0: () => {
      const file = join(work, "ok.job.yaml");
      writeFileSync(
        file,
        'jobs:\n  - name: a\n    source: { file: a.csv }\n    service: { url: "http://x", apiKey: k, appAccount: 1 }\n',
      );
      return run(["job", "check", file]);
    },
    2: () => run(["job", "check", join(work, "missing.job.yaml")]),
  },
  pull: {
    0: () => run(["pull", pullJob("pull-ok", "example.csv")]),
    1: () => run(["pull", pullJob("pull-invalid", "csv.ragged.csv", "invalid")]),
    2: () => run(["pull", join(work, "missing.job.yaml")]),
    3: () => run(["pull", pullJob("pull-missing", "no-such.csv")]),
  },
  "mapping suggest": {
    0: () => run(["mapping", "suggest", fixture("valid/example.csv")]),
    1: () => {
      const none = join(work, "no-addresses.csv");
      writeFileSync(none, "Employee,Department\nAda Lovelace,Engineering\n");
      return run(["mapping", "suggest", none]);
    },
    2: () => run(["mapping", "suggest"]),
    3: () => run(["mapping", "suggest", join(work, "missing.csv")]),
  },
  push: {
    0: () => run(["push", valid, "--app-account", "1", "--no-compare"]),
    1: () => run(["push", invalid, "--app-account", "1"]),
    2: () => run(["push", valid]),
    3: () => run(["push", missing, "--app-account", "1"]),
    5: () =>
      // two active users taken away, one allowed
      run([
        "push",
        fixture("valid/minimal.json"),
        "--app-account",
        "1",
        "--against",
        valid,
        "--max-deletes",
        "1",
      ]),
    6: () => run(["push", valid, "--app-account", "1", "--no-compare"], { SYNCFILE_API_KEY: "not-the-key" }),
    7: () => {
      proxy.answerNext(/^PUT \/v1\.0\/services\/sync\/custom/, RUNNING);
      return run(["push", valid, "--app-account", "1", "--no-compare", "--wait", "0"]);
    },
    8: () => {
      proxy.answerNext(/^GET \/v1\.0\/files\/url/, TOO_MANY);
      return run(["push", valid, "--app-account", "1", "--no-compare"]);
    },
    9: async () => {
      // the state folder is replaced by a file while the sync's answer is held back
      const state = join(work, "state-9");
      mkdirSync(join(state, "pushed"), { recursive: true });
      const held = proxy.holdNext(/^PUT \/v1\.0\/services\/sync\/custom/);
      const push = startCli(["push", valid, "--app-account", "1"], {
        env: env({ SYNCFILE_STATE_DIR: state }),
      });
      await held.seen;
      rmSync(join(state, "pushed"), { recursive: true, force: true });
      writeFileSync(join(state, "pushed"), "in the way\n");
      held.release();
      return push.result;
    },
    130: () =>
      interrupted(["push", valid, "--app-account", "1", "--no-compare"], /^PUT \/v1\.0\/services\/sync/),
  },
  download: {
    // file 1 is a report archive of the seed's
    0: () => run(["download", "1", "-o", join(work, "download-0.zip")]),
    1: () => run(["download", "999999", "--info"]),
    2: () => run(["download", "one"]),
    3: () => run(["download", "1", "-o", join(valid, "under-a-file.json")]),
    6: () => run(["download", "1", "--info"], { SYNCFILE_API_KEY: "not-the-key" }),
    8: () => {
      proxy.answerNext(/^GET \/v1\.0\/files\/1/, TOO_MANY);
      return run(["download", "1", "--info"]);
    },
    130: () => interrupted(["download", "1", "--info"], /^GET \/v1\.0\/files\/1/),
  },
  reports: {
    0: () => run(["reports", "--out", join(work, "reports-0")]),
    1: () => {
      proxy.answerNext(/^GET \/v1\.0\/accessReviews\/campaigns/, REFUSED);
      return run(["reports", "--out", join(work, "reports-1")]);
    },
    2: () => run(["reports", "--limit", "0"]),
    3: () => run(["reports", "--out", valid]),
    6: () => run(["reports", "--out", join(work, "reports-6")], { SYNCFILE_API_KEY: "not-the-key" }),
    8: () => {
      proxy.answerNext(/^GET \/v1\.0\/accessReviews\/campaigns/, TOO_MANY);
      return run(["reports", "--out", join(work, "reports-8")]);
    },
    130: () =>
      interrupted(
        ["reports", "--out", join(work, "reports-130"), "--watch", "--interval", "1s"],
        /^GET \/v1\.0\/accessReviews\/campaigns/,
      ),
  },
};

/** The codes `syncfile <command> --help` lists after "Exit codes:". */
async function listedCodes(command: string): Promise<number[]> {
  const help = (await runCli([...command.split(" "), "--help"])).stdout;
  const section = /Exit codes:([\s\S]*?)(?:\n\n|$)/.exec(help)?.[1] ?? "";
  return [...section.matchAll(/(?:^\s*|[,;]\s*|\n)(\d+) /g)].map((m) => Number(m[1]));
}

describe("every exit code a command lists can happen", () => {
  it.each(Object.keys(SCENARIOS))(
    "%s",
    async (command) => {
      const scenarios = SCENARIOS[command] as Scenarios;
      expect(await listedCodes(command)).toEqual(Object.keys(scenarios).map(Number));
      for (const [code, scenario] of Object.entries(scenarios)) {
        const result = await scenario();
        expect(result.code, `${command} → ${code}: ${result.stderr}`).toBe(Number(code));
        expect(result.stderr, `${command} → ${code}`).not.toMatch(/\n\s+at .+:\d+:\d+/);
      }
    },
    60_000,
  );
});
