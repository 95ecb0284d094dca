// `syncfile diff OLD NEW` as a user runs it: each kind of change in text and JSON, the exit
// codes of diff(1), a case-only email change that is no change, the same document in two
// formats that is none, an invalid or unreadable file; and the partitions on disk, which give
// the changes one partition gives, whatever their number.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { type Change, diffFiles } from "../../src/diff/diffFiles.js";
import { CHANGES, NEW, OLD } from "../support/changes.js";
import { runCli } from "../support/cli.js";
import { serialize } from "../support/jsonAst.js";
import { fixture, root } from "../support/paths.js";
import { modelAst, validModelArb } from "../support/validDocument.js";

const work = mkdtempSync(join(tmpdir(), "syncfile-diff-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const file = (name: string, document: unknown): string => {
  const path = join(work, name);
  writeFileSync(path, typeof document === "string" ? document : JSON.stringify(document));
  return path;
};

describe("syncfile diff", () => {
  it("tells each kind of change in JSON, one a line, and exits 1", async () => {
    const r = await runCli(["diff", file("old.json", OLD), file("new.json", NEW), "--format", "json"]);
    expect(r.code).toBe(1);
    const changes = r.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Change);
    expect(changes).toEqual(CHANGES);
  });

  it("prints the counts and the first changes of each kind in text; --ignore-dates leaves date moves out", async () => {
    const r = await runCli(["diff", file("old.json", OLD), file("new.json", NEW), "--limit", "1"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      ": 11 changes\n  users: 1 added, 1 removed, 1 deactivated, 1 reactivated, 1 changed\n",
    );
    expect(r.stdout).toContain("  licenses: 1 added, 1 removed, 1 changed\n");
    expect(r.stdout).toContain("  license users: 1 granted, 1 revoked, 1 changed\n");
    expect(r.stdout).toContain(
      'user.changed (1):\n  ada@example.com: lastName "Lovelace" → "King", lastUsedDate "2024-07-01" → "2024-07-05"\n',
    );
    expect(r.stdout).toContain("assignment.changed (1):\n  Pro: ada@example.com active → inactive\n");
    const dates = await runCli(["diff", file("old.json", OLD), file("new.json", NEW), "--ignore-dates"]);
    expect(dates.stdout).toContain('ada@example.com: lastName "Lovelace" → "King"\n');
    expect(dates.stdout).not.toContain("lastUsedDate");
  });

  it("writes a CSV row per change, or per changed field, and one self-contained HTML page", async () => {
    const csv = await runCli(["diff", file("old.json", OLD), file("new.json", NEW), "--format", "csv"]);
    expect(csv.code).toBe(1);
    const lines = csv.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("kind,email,license,field,from,to");
    expect(lines).toContain("user.changed,ada@example.com,,lastName,Lovelace,King");
    expect(lines).toContain("user.changed,ada@example.com,,lastUsedDate,2024-07-01,2024-07-05");
    expect(lines).toContain("license.changed,,Pro,pricePerUser,1000,1200");
    expect(lines).toContain("assignment.changed,ada@example.com,Pro,licenseStatus,active,inactive");
    expect(lines).toContain("user.deactivated,eve@example.com,,,,");
    expect(lines).toHaveLength(1 + 12); // 11 changes, one of them two fields
    const html = await runCli(["diff", file("old.json", OLD), file("new.json", NEW), "--format", "html"]);
    expect(html.stdout).toMatch(/^<!doctype html>/);
    expect(html.stdout).toContain("default-src 'none'");
    expect(html.stdout).toContain("<caption>user.changed (1)</caption>");
    expect(html.stdout).toContain("ada@example.com: lastName &#34;Lovelace&#34; → &#34;King&#34;");
  });

  it("exits 0 when nothing changes: the same file, an email in another case, the same document as CSV", async () => {
    const same = await runCli(["diff", fixture("valid/example.json"), fixture("valid/example.json")]);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/: no change\n/);
    const upper = file("upper.json", { users: [{ email: "ADA@EXAMPLE.COM", status: "active" }] });
    const lower = file("lower.json", { users: [{ email: "ada@example.com" }] });
    expect((await runCli(["diff", upper, lower])).code).toBe(0);
    const csv = join(work, "example.csv");
    expect((await runCli(["convert", fixture("valid/example.json"), csv])).code).toBe(0);
    expect((await runCli(["diff", fixture("valid/example.json"), csv])).code).toBe(0);
  });

  it("reads the CSV files and workbooks among the two through a profile or a mapping; a JSON file as JSON", async () => {
    // an Okta people report, read as its header says, against the JSON it converts to: no change
    const header = "Username,First name,Last name,Primary email,Status,Last login,Groups\n";
    const ada = 'ada,Ada,Lovelace,ada@example.com,ACTIVE,2024-07-05T14:23:11.000Z,"Engineering, Admins"\n';
    const okta = file(
      "okta.csv",
      `${header}${ada}grace,Grace,Hopper,grace@example.com,ACTIVE,11/30/2023 8:00:00 AM,Engineering\n`,
    );
    const json = join(work, "okta.json");
    expect((await runCli(["convert", okta, json])).code).toBe(0);
    expect((await runCli(["diff", json, okta])).code).toBe(0);
    expect((await runCli(["diff", okta, json, "--profile", "okta"])).code).toBe(0);
    // the next day's export: Grace suspended
    const tomorrow = file(
      "okta-tomorrow.csv",
      `${header}${ada}grace,Grace,Hopper,grace@example.com,SUSPENDED,11/30/2023 8:00:00 AM,Engineering\n`,
    );
    const moved = await runCli(["diff", okta, tomorrow, "--profile", "okta", "--format", "json"]);
    expect(moved.code).toBe(1);
    expect(moved.stdout).toMatch(/"kind":"user\.deactivated"/);
    // --profile none reads the service's layout only: an export is not in it
    const none = await runCli(["diff", okta, tomorrow, "--profile", "none"]);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain("csv.header.missing");
    // a layout flag with two JSON files says why it cannot apply
    const both = await runCli(["diff", fixture("valid/example.json"), json, "--profile", "okta"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe(
      "syncfile: --profile reads the columns of a CSV file or a workbook, but both files are JSON\n",
    );
  });

  it("refuses an invalid file with its report (exit 2) and an unreadable one (exit 3)", async () => {
    const bad = await runCli([
      "diff",
      fixture("valid/example.json"),
      fixture("invalid/user.email.format.json"),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain("error user.email.format");
    expect(bad.stderr).toMatch(/^syncfile: cannot compare: .*user\.email\.format\.json has 1 error\n$/);
    const none = await runCli(["diff", fixture("valid/example.json"), join(work, "absent.json")]);
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/^syncfile: cannot read .*absent\.json: /);
  });
});

describe("a diff of large files", () => {
  it("reads OLD on a worker thread while NEW is read here, and tells the same changes", async () => {
    // past 8 MB each: the built CLI reads OLD on its worker thread
    const users = (day: number) =>
      Array.from({ length: 60_000 }, (_, i) => ({
        email: `person.${i}@example.com`,
        firstName: `Name ${i} ${"x".repeat(60)}`,
        status: (i + day) % 7 === 0 ? "deleted" : "active",
        ...(i % 5 === day ? {} : { lastUsedDate: `2024-0${1 + ((i + day) % 9)}-1${day}` }),
      }));
    const doc = (day: number) => {
      const listed = users(day).filter((_, i) => (i + day) % 13 !== 0);
      const pro = listed.filter((_, i) => i % (3 + day) === 0).map((u) => ({ email: u.email }));
      return { users: listed, licenses: [{ name: "Pro", users: pro }] };
    };
    const oldPath = file("large-old.json", doc(1));
    const newPath = file("large-new.json", doc(2));
    const cli = await runCli(["diff", oldPath, newPath, "--format", "json"]);
    expect(cli.code).toBe(1);
    const told: string[] = [];
    const here = await diffFiles(oldPath, newPath, (change) => told.push(JSON.stringify(change)));
    expect(here.threads).toBe("one"); // from src: no built worker beside it
    expect(told.length).toBeGreaterThan(1000);
    expect(cli.stdout).toBe(`${told.join("\n")}\n`);
    // the module the CLI loads, built as an internal entry in dist/internal/diff/, finds the
    // worker in dist/ (it once looked beside itself, found none, and read both files here)
    const built = (await import(pathToFileURL(`${root}dist/internal/diff/diffFiles.js`).href)) as {
      diffFiles: typeof diffFiles;
    };
    const there: string[] = [];
    const threaded = await built.diffFiles(oldPath, newPath, (change) => there.push(JSON.stringify(change)));
    expect(threaded.threads).toBe("diff-worker");
    expect(there).toEqual(told);
    // an OLD that is no data file: its report, as with one thread
    const broken = file("large-broken.json", `${JSON.stringify(doc(1)).slice(0, -20)}`);
    const refused = await runCli(["diff", broken, newPath]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain("json.syntax");
  });
});

describe("the partitions of a diff", () => {
  it("give the changes one partition gives, however many there are", async () => {
    await fc.assert(
      fc.asyncProperty(
        validModelArb,
        validModelArb,
        fc.integer({ min: 16, max: 400 }),
        async (a, b, bytes) => {
          const before = file("a.json", serialize(modelAst(a)));
          const after = file("b.json", serialize(modelAst(b)));
          const collect = async (partitionBytes?: number) => {
            const changes: string[] = [];
            const result = await diffFiles(before, after, (c) => changes.push(JSON.stringify(c)), {
              ...(partitionBytes ? { partitionBytes } : {}),
            });
            return { changes: changes.sort(), counts: result.counts };
          };
          expect(await collect(bytes)).toEqual(await collect());
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
