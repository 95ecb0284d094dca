// `syncfile validate` as users run it: exit codes, formats, stdin, and every wrong call.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packagesLoaded, runCli } from "../support/cli.js";

const valid = "fixtures/valid/example.json";
const invalid = "fixtures/invalid/user.email.format.json";
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at .+:\d+:\d+/);

describe("syncfile validate", () => {
  it("loads only what its file needs: no schema compiler, workbook reader or converter for JSON", async () => {
    // each package loaded costs every run its time: the schemas are compiled ahead of time, and
    // the other formats and commands are loaded when used (see src/cli/ and src/pass/runPass.ts)
    const json = await packagesLoaded(["validate", valid]);
    expect(json.result.code).toBe(0);
    expect(json.packages).toContain("commander"); // the record sees packages at all
    for (const unneeded of ["ajv", "saxes", "yauzl", "fflate", "csv-stringify", "dinero.js"])
      expect(json.packages, unneeded).not.toContain(unneeded);
    const workbook = await packagesLoaded([
      "validate",
      "fixtures/workbooks/second-sheet.xlsx",
      "--sheet",
      "Users",
    ]);
    expect(workbook.result.stdout).toMatch(/second-sheet.xlsx: valid/);
    expect(workbook.packages).toEqual(expect.arrayContaining(["saxes", "yauzl"]));
    const help = await packagesLoaded(["--help"]);
    expect(help.result.code).toBe(0);
    expect(help.packages).toEqual(["commander"]);
  });

  it("exits 0 for a valid file and prints a summary, nothing on stderr", async () => {
    const r = await runCli(["validate", valid]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^fixtures\/valid\/example\.json: valid — 0 errors/);
    expect(r.stderr).toBe("");
  });

  it("exits 1 for an invalid file", async () => {
    const r = await runCli(["validate", invalid]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${invalid}:4:16: error user.email.format:`);
  });

  it("checks several files and exits 1 when any is invalid", async () => {
    const r = await runCli(["validate", valid, invalid, "--format", "json"]);
    expect(r.code).toBe(1);
    const reports = r.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(reports.map((x) => [x.file, x.valid])).toEqual([
      [valid, true],
      [invalid, false],
    ]);
  });

  it("reads standard input with -", async () => {
    const r = await runCli(["validate", "-", "--format", "json"], {
      input: '{"users":[{"email":"a@b.co"}]}',
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: true, file: null, stats: { users: 1 } });
  });

  it("prints GitHub annotations", async () => {
    const r = await runCli(["validate", invalid, "--format", "github"]);
    expect(r.stdout.split("\n")[0]).toMatch(/^::error file=.*,line=4,col=16,title=user\.email\.format::/);
  });

  it("writes no workflow command that a file's name makes, on standard output or error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "syncfile-github-"));
    const named = join(dir, "users\n::error title=x::y.json");
    writeFileSync(named, '{"users":[{"email":"a@b.co"}]}');
    const missing = join(dir, "gone\n::add-mask::secret\n::stop-commands::x.json");
    const r = await runCli(["validate", named, missing, "--format", "github"]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain("valid (0 errors, 0 warnings)");
    expect(r.stderr).toContain("gone");
    for (const line of `${r.stdout}\n${r.stderr}`.split(/\r\n|\r|\n/)) {
      expect(line, JSON.stringify(line)).not.toMatch(/^\s*(::|##\[)/);
    }
  });

  it("makes warnings fail with --strict", async () => {
    const file = "fixtures/invalid/user.property.unknown.json";
    expect((await runCli(["validate", file])).code).toBe(0);
    expect((await runCli(["validate", file, "--strict"])).code).toBe(1);
  });

  it("limits the listed findings with --max-errors", async () => {
    const r = await runCli([
      "validate",
      "fixtures/invalid/document.users.noneValid.json",
      "--max-errors",
      "1",
      "--format",
      "json",
    ]);
    const report = JSON.parse(r.stdout);
    expect(report.findings).toHaveLength(1);
    expect(report.counts.error).toBe(3);
  });

  it("exits 3 for a file it cannot read, and goes on with the others", async () => {
    const dir = mkdtempSync(join(tmpdir(), "syncfile-"));
    const r = await runCli(["validate", "nope.json", dir, valid]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("syncfile: cannot read nope.json: no such file or directory");
    expect(r.stderr).toContain(`syncfile: cannot read ${dir}: it is a directory, not a file`);
    expect(r.stdout).toContain("example.json: valid");
    noStack(r.stderr);
  });

  it.each([
    [["validate"], "missing required argument 'files'"],
    [["validate", valid, "--max-errors", "-3"], "--max-errors takes a whole number"],
    [["validate", valid, "--max-errors", "x"], "--max-errors takes a whole number"],
    [
      ["validate", valid, "--format", "xml"],
      "argument 'xml' is invalid. Allowed choices are text, json, github",
    ],
    [["validate", valid, "--colour"], "unknown option '--colour'"],
    [["validate", "-", "-"], "standard input (-) can be read only once"],
    [["valdate", valid], "unknown command 'valdate'"],
  ])("exits 2 with a one-line message for %j", async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr.startsWith("syncfile: ")).toBe(true);
    expect(r.stdout).toBe("");
    noStack(r.stderr);
  });

  it("explains itself with --help, exit codes included", async () => {
    const top = await runCli(["--help"]);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain("validate [options] <files...>");
    const sub = await runCli(["validate", "--help"]);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain(
      "Exit codes: 0 every file valid, 1 a file invalid, 2 usage error, 3 a file unreadable.",
    );
  });

  it("prints its version", async () => {
    const r = await runCli(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.each([
    ["an empty file", "", "json.empty"],
    ["an array", "[1, 2]", "document.type"],
    ["a number", "42", "document.type"],
    ["deep nesting", `{"users": ${"[".repeat(100_000)}`, "json.depth"],
    ["a truncated file", '{"users": [{"email": "a@b.co"', "json.syntax"],
    ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]), "json.encoding"],
  ])("exits 1 with a clear finding for %s", async (_what, content, code) => {
    const r = await runCli(["validate", "-", "--format", "json"], { input: content });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).findings.map((f: { code: string }) => f.code)).toEqual([code]);
    noStack(r.stderr);
  });

  it("handles a garbage file without a stack trace", async () => {
    const dir = mkdtempSync(join(tmpdir(), "syncfile-"));
    const file = join(dir, "garbage.json");
    writeFileSync(file, Buffer.from([0x00, 0xff, 0x13, 0x37, 0x7b, 0x5b, 0x22]));
    const r = await runCli(["validate", file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("error json.");
    noStack(r.stdout + r.stderr);
  });
});

describe("syncfile validate --format html", () => {
  const rows = (html: string) => html.match(/<tr data-severity=[^>]*>/g) ?? [];

  it("writes one self-contained page: the banner, the counts, each finding where it is, the spot marked", async () => {
    const r = await runCli(["validate", invalid, "--format", "html"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    const html = r.stdout;
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain('<div class="banner invalid" role="status">invalid — 1 error, 0 warnings</div>');
    expect(rows(html)).toEqual(['<tr data-severity="error" data-code="user.email.format">']);
    expect(html).toContain("<code>4:16</code>");
    expect(html).toContain('<div class="where">/users/1/email</div>');
    // the source line, its number, and the character under the caret marked
    expect(html).toMatch(
      /<pre><span class="gutter">4 \| <\/span>.*&#34;email&#34;: <mark>&#34;<\/mark>grace\.example\.com/,
    );
    // nothing is fetched: no address in an attribute, and a policy that forbids every request
    expect(html).not.toMatch(/\b(src|href|action)=/i);
    expect(html).toContain(
      `content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"`,
    );
  });

  it("puts every file in one page, a section each, and exits 1 when any is invalid", async () => {
    const r = await runCli(["validate", valid, "fixtures/invalid/csv.ragged.csv", "--format", "html"]);
    expect(r.code).toBe(1);
    expect(r.stdout.match(/<!doctype html>/g)).toHaveLength(1);
    expect(r.stdout.match(/<section /g)).toHaveLength(2);
    expect(r.stdout).toContain('<div class="banner valid" role="status">valid — 0 errors, 0 warnings</div>');
    expect(r.stdout).toContain('data-code="csv.ragged"');
    expect(r.stdout).toContain('<div class="where">row 2</div>');
  });

  it("escapes what the file holds: a value cannot become markup", async () => {
    const dir = mkdtempSync(join(tmpdir(), "syncfile-"));
    const file = join(dir, "users<b>.csv");
    writeFileSync(file, 'email,firstName\n"<script>alert(1)</script>",Ada\n');
    const r = await runCli(["validate", file, "--format", "html"]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain("<script>alert");
    expect(r.stdout).not.toContain("users<b>");
    expect(r.stdout).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
    // the page's own script is its only one
    expect(r.stdout.match(/<script>/g)).toHaveLength(1);
  });
});

describe("progress", () => {
  it("draws a bar on a terminal, nothing elsewhere, and clears itself", async () => {
    const { Progress } = await import("../../src/cli/_progress.js");
    const ci = process.env.CI;
    delete process.env.CI;
    try {
      const written: string[] = [];
      const tty = new Progress("validating big.json", 2_000_000, {
        isTTY: true,
        write: (s: string) => written.push(s),
      });
      tty.update(500_000);
      tty.done();
      const clear = "\r\u001b[2K";
      expect(
        written[0]?.startsWith(
          `${clear}validating big.json [${"#".repeat(6)}${"-".repeat(18)}]  25% 500 KB / 2.0 MB`,
        ),
      ).toBe(true);
      expect(written[1]).toBe("\r\u001b[2K");
      const piped: string[] = [];
      const none = new Progress("x", 10, { isTTY: false, write: (s: string) => piped.push(s) });
      none.update(5);
      none.done();
      expect(piped).toEqual([]);
    } finally {
      if (ci !== undefined) process.env.CI = ci;
    }
  });
});
