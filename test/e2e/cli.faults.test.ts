// What faults do to `syncfile validate` and `convert` (issue 30): an output that cannot be
// written (a file past `ulimit -f`, standard output on /dev/full), a named pipe as input, a
// signal in the middle of a conversion, a directory given as input. Each ends in one line and
// its exit code, with no temporary file left behind, and never hangs.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { runCli, runShell, startCli } from "../support/cli.js";
import { fixture } from "../support/paths.js";
import { dataDir, KEY, removeDataDirs, startServer, upload } from "../support/server.js";
import { waitFor } from "../support/waitFor.js";

const dir = () => mkdtempSync(join(tmpdir(), "syncfile-cli-faults-"));
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at .+:\d+:\d+/);
const oneLine = (s: string, pattern: RegExp) => {
  expect(s.split("\n")).toHaveLength(2); // one line and its line feed
  expect(s).toMatch(pattern);
  noStack(s);
};

/** A valid JSON document of `users` users, about 95 bytes each: past 8 MB, a pass decodes it on a worker. */
function bigJson(users: number): string {
  const list = Array.from({ length: users }, (_, i) => ({ email: `u${i}@x.com`, firstName: "A".repeat(50) }));
  return JSON.stringify({ users: list });
}

/** The same users as CSV rows. */
function bigCsv(users: number): string {
  const rows = Array.from({ length: users }, (_, i) => `u${i}@x.com,${"A".repeat(50)}`);
  return `email,firstName\n${rows.join("\n")}\n`;
}

let inputs: string;
let json: string; // 150 k users, 14 MB
let csv: string;

beforeAll(() => {
  inputs = dir();
  json = join(inputs, "big.json");
  csv = join(inputs, "big.csv");
  writeFileSync(json, bigJson(150_000));
  writeFileSync(csv, bigCsv(150_000));
});

// processes a test started; a test that fails by hanging leaves none behind
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

describe("a write error", () => {
  // RLIMIT_FSIZE: a write past the limit fails with EFBIG (SIGXFSZ ignored), as a full disk would
  // fail it with ENOSPC, with no root needed; dash counts the limit in blocks of 512 bytes (1 MB)
  const limited = (command: string) => runShell(`ulimit -f 2048 && trap '' XFSZ && ${command}`);

  for (const [name, input] of [
    ["JSON decoded on a worker", () => json],
    ["CSV parsed on a worker", () => csv],
  ] as const) {
    it(`into the output file ends in one line, exit 3, no temporary file (${name})`, async () => {
      const out = dir();
      const target = join(out, "out.json");
      const r = await limited(`syncfile convert ${input()} ${target}`);
      expect(r.code).toBe(3);
      oneLine(r.stderr, new RegExp(`^syncfile: cannot write ${target}: .+\\n$`));
      expect(readdirSync(out)).toEqual([]);
    });
  }

  it("of standard output ends validate in one line, exit 3, whatever the format", async () => {
    // each format's command on its own, all at once
    const formats = ["text", "json", "github", "html", "sarif"];
    const results = await Promise.all(
      formats.map((format) =>
        runShell(`syncfile validate ${fixture("valid/example.json")} --format ${format} > /dev/full`),
      ),
    );
    for (const [i, r] of results.entries()) {
      expect([formats[i], r.code]).toEqual([formats[i], 3]);
      oneLine(r.stderr, /^syncfile: cannot write standard output: no space left on device\n$/);
    }
  });

  it("of standard output ends convert - in one line, exit 3, its temporary folder removed", async () => {
    const temporary = dir();
    for (const input of [json, fixture("valid/example.csv")]) {
      const r = await runShell(`TMPDIR=${temporary} syncfile convert ${input} - > /dev/full`);
      expect(r.code).toBe(3);
      oneLine(r.stderr, /^syncfile: cannot write standard output: no space left on device\n$/);
      expect(readdirSync(temporary)).toEqual([]);
    }
  });

  it("of the report ends convert in one line, exit 3 (stdout, or stderr when the output is stdout)", async () => {
    const out = dir();
    const r = await runShell(
      `syncfile convert ${fixture("valid/example.csv")} ${join(out, "out.json")} > /dev/full`,
    );
    expect(r.code).toBe(3);
    oneLine(r.stderr, /^syncfile: cannot write standard output: no space left on device\n$/);
    expect(readdirSync(out)).toEqual(["out.json"]); // written whole before the report

    const toStdout = await runShell(`syncfile convert ${fixture("valid/example.csv")} - 2> /dev/full`);
    expect(toStdout.code).toBe(3);
    expect(JSON.parse(toStdout.stdout).users).toHaveLength(3);
  });
});

describe("a write error of download", () => {
  let server: SyncfileServer;
  beforeAll(async () => {
    server = await startServer({ dataDir: await dataDir() });
  });
  afterAll(async () => {
    await server.close();
    await removeDataDirs();
  });
  const syncfile = (command: string) =>
    runShell(`export SYNCFILE_BASE_URL=${server.url} SYNCFILE_API_KEY=${KEY}; ${command}`);

  it("into the file, or of the line on stdout, ends in one line, exit 3, no temporary file", async () => {
    const id = await upload(server.url, "big.json", readFileSync(json).subarray(0, 2_000_000));
    const out = dir();
    const target = join(out, "copy.json");
    const limited = await syncfile(`ulimit -f 1024 && trap '' XFSZ && syncfile download ${id} -o ${target}`);
    expect(limited.code).toBe(3);
    oneLine(limited.stderr, new RegExp(`^syncfile: cannot write ${target}: .+\\n$`));
    expect(readdirSync(out)).toEqual([]);

    const full = await syncfile(`syncfile download ${id} -o ${target} > /dev/full`);
    expect(full.code).toBe(3);
    oneLine(full.stderr, /^syncfile: cannot write standard output: no space left on device\n$/);
    expect(readdirSync(out)).toEqual(["copy.json"]); // saved whole before the line
  });
});

describe("a named pipe as input", () => {
  /** A FIFO named `name` that a `cat` of `source` writes into, both started now. */
  function pipeOf(source: string, name: string): string {
    const fifo = join(dir(), name);
    execFileSync("mkfifo", [fifo]);
    const writer = spawn("sh", ["-c", `cat "$0" > "$1"`, source, fifo], { stdio: "ignore" });
    started.push(writer);
    return fifo;
  }

  const cases = [
    ["JSON", "valid/example.json", "in.json"],
    ["CSV", "valid/example.csv", "in.csv"],
  ] as const;

  for (const [format, source, name] of cases) {
    it(`is validated (${format}), read once, without hanging`, async () => {
      const fifo = pipeOf(fixture(source), name);
      const run = startCli(["validate", fifo]);
      started.push(run.child);
      const r = await run.result;
      expect(r.stderr).toBe("");
      expect(r.stdout).toContain(`${fifo}: valid`);
      expect(r.code).toBe(0);
    });

    it(`is converted (${format}) into what the file converts to`, async () => {
      const out = dir();
      const fifo = pipeOf(fixture(source), name);
      const run = startCli(["convert", fifo, join(out, "from-pipe.csv")]);
      started.push(run.child);
      const r = await run.result;
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const direct = await runCli(["convert", fixture(source), join(out, "from-file.csv")]);
      expect(direct.code).toBe(0);
      expect(readFileSync(join(out, "from-pipe.csv"), "utf8")).toBe(
        readFileSync(join(out, "from-file.csv"), "utf8"),
      );
    });
  }

  it("reports the findings of an invalid document, with no source lines to read again", async () => {
    const bad = join(dir(), "bad.json");
    writeFileSync(bad, '{"users": [{"email": "not an email"}]}\n');
    const fifo = pipeOf(bad, "bad.json");
    const run = startCli(["validate", fifo]);
    started.push(run.child);
    const r = await run.result;
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("user.email.format");
  });
});

describe("a signal during convert", () => {
  for (const [signal, code, input] of [
    ["SIGINT", 130, () => json],
    ["SIGTERM", 143, () => csv],
  ] as const) {
    it(`${signal} ends it with exit ${code}, its temporary file removed`, async () => {
      const out = dir();
      const temporary = dir();
      const run = startCli(["convert", input(), join(out, "out.json")], {
        env: { ...process.env, TMPDIR: temporary },
      });
      started.push(run.child);
      await waitFor(() => readdirSync(out).some((f) => f.endsWith(".part")), "the .part file");
      run.child.kill(signal);
      const r = await run.result;
      expect(r.code).toBe(code);
      noStack(r.stderr);
      expect(readdirSync(out)).toEqual([]);
      expect(readdirSync(temporary)).toEqual([]);
    });
  }

  it("SIGINT while converting to standard output removes the private temporary folder", async () => {
    const temporary = dir();
    const run = startCli(["convert", json, "-"], { env: { ...process.env, TMPDIR: temporary } });
    started.push(run.child);
    await waitFor(
      () => readdirSync(temporary).some((f) => f.startsWith("syncfile-convert-")),
      "the temporary folder",
    );
    run.child.kill("SIGINT");
    const r = await run.result;
    expect(r.code).toBe(130);
    expect(r.stdout).toBe("");
    expect(readdirSync(temporary)).toEqual([]);
  });
});

describe("a directory as input", () => {
  it("is blamed, not the output: exit 3, for convert and validate", async () => {
    const input = dir();
    mkdirSync(join(input, "sub"));
    const out = dir();
    const converted = await runCli(["convert", input, join(out, "out.json")]);
    expect(converted.code).toBe(3);
    oneLine(
      converted.stderr,
      new RegExp(`^syncfile: cannot read ${input}: it is a directory, not a file\\n$`),
    );
    expect(readdirSync(out)).toEqual([]);
    const validated = await runCli(["validate", input]);
    expect(validated.code).toBe(3);
    oneLine(
      validated.stderr,
      new RegExp(`^syncfile: cannot read ${input}: it is a directory, not a file\\n$`),
    );
  });
});
