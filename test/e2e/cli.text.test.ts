// Exports as spreadsheets and admin consoles save them, read through a mapping of one's own:
// Excel's "Unicode Text" (UTF-16 LE, tab-separated, a .txt) and a CSV export whose rows leave
// off their trailing empty cells.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { fixture } from "../support/paths.js";

const work = mkdtempSync(join(tmpdir(), "syncfile-cli-text-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `document` written as a mapping file of the work folder. */
function mappingFile(name: string, document: object): string {
  const path = join(work, `${name}.mapping.json`);
  writeFileSync(path, JSON.stringify(document));
  return path;
}

describe("Excel's Unicode Text (UTF-16 LE, tab-separated)", () => {
  // as given on the command line: the report names it so
  const file = "fixtures/exports/unicode-text.txt";
  const mapping = mappingFile("hr-unicode", {
    name: "hr-unicode",
    title: "An HR system's employee list, saved by Excel as Unicode Text",
    id: "Employee ID",
    email: "E-mail Address",
    firstName: "First Name",
    lastName: "Last Name",
    status: { column: "Employee Status", values: { Active: "active", Terminated: "deleted" } },
    lastUsedDate: "Last Sign-In",
  });

  it("is a small UTF-16 LE file with its byte-order mark", () => {
    const bytes = readFileSync(fixture("exports/unicode-text.txt"));
    expect(bytes.length).toBeLessThan(2048);
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe]);
  });

  it("validates through a mapping, and says the text was tab-separated UTF-16LE", async () => {
    const r = await runCli(["validate", file, "--mapping", mapping]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^fixtures\/exports\/unicode-text\.txt: valid — 0 errors, 0 warnings \(5 users,/m,
    );
    expect(r.stdout).toContain(
      "read as An HR system's employee list, saved by Excel as Unicode Text (mapping hr-unicode), from tab-separated UTF-16LE text\n",
    );
    const json = JSON.parse(
      (await runCli(["validate", file, "--mapping", mapping, "--format", "json"])).stdout,
    );
    expect(json.text).toEqual({ encoding: "UTF-16LE", delimiter: "\t" });
    expect(json.format).toBe("csv");
  });

  it("converts through a mapping to every user's email, names, status and last use", async () => {
    const out = join(work, "unicode-text.json");
    const r = await runCli(["convert", file, out, "--mapping", mapping]);
    expect(r.code).toBe(0);
    const users = JSON.parse(readFileSync(out, "utf8")).users;
    expect(users).toEqual([
      {
        id: "1001",
        email: "yuki.yoshida@example.com",
        firstName: "Yūki",
        lastName: "𠮷田",
        status: "active",
        externalStatus: "Active",
        lastUsedDate: "2024-06-03",
      },
      {
        id: "1002",
        email: "zoe.lukasiewicz@example.com",
        firstName: "Zoë",
        lastName: "Łukasiewicz",
        status: "deleted",
        externalStatus: "Terminated",
      },
      {
        id: "1003",
        email: "jose.nunez@example.com",
        firstName: "José",
        lastName: "Núñez García",
        status: "active",
        externalStatus: "Active",
        lastUsedDate: "2024-05-28",
      },
      {
        id: "1004",
        email: "alexandros.p@example.com",
        firstName: "Αλέξανδρος",
        lastName: "Παπαδόπουλος",
        status: "active",
        externalStatus: "Active",
        lastUsedDate: "2024-06-01",
      },
      {
        id: "1005",
        email: "misaki.sato@example.com",
        firstName: "美咲",
        lastName: "佐藤",
        status: "active",
        externalStatus: "Active",
      },
    ]);
  });

  it("is read by mapping suggest too, whose document then reads every user", async () => {
    const suggested = await runCli(["mapping", "suggest", file]);
    expect(suggested.code).toBe(0);
    const document = JSON.parse(suggested.stdout);
    expect(document).toMatchObject({
      email: "E-mail Address",
      firstName: "First Name",
      lastName: "Last Name",
      status: { column: "Employee Status", values: { Active: "active", Terminated: "deleted" } },
      lastUsedDate: "Last Sign-In",
    });
    // it says how it read the text, first
    expect(suggested.stderr).toMatch(
      /^read as tab-separated UTF-16LE text \(told by its byte-order mark and its first lines\)\n/,
    );
    const path = join(work, "suggested.mapping.json");
    writeFileSync(path, suggested.stdout);
    const r = await runCli(["validate", file, "--mapping", path, "--format", "json"]);
    expect(JSON.parse(r.stdout).stats.users).toBe(5);
  });

  it("shows no source line for a finding in it: its offsets are not the file's bytes", async () => {
    const broken = mappingFile("hr-unicode-no-terminated", {
      name: "hr-unicode-no-terminated",
      email: "E-mail Address",
      status: { column: "Employee Status", values: { Active: "active" } },
    });
    const r = await runCli(["validate", file, "--mapping", broken]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toMatch(/^fixtures\/exports\/unicode-text\.txt:3: error mapping\.value: "Terminated"/m);
    // an excerpt is "  3 | …": none for a file decoded from UTF-16
    expect(r.stdout).not.toMatch(/^ {2}\d+ \| /m);
    const json = JSON.parse(
      (await runCli(["validate", file, "--mapping", broken, "--format", "json"])).stdout,
    );
    expect(json.findings.map((f: { line: number; offset?: number }) => [f.line, f.offset])).toEqual([
      [3, undefined],
    ]);
  });
});

describe("an export whose rows leave off their trailing empty cells", () => {
  const file = "fixtures/exports/short-rows.csv";
  const mapping = mappingFile("console", {
    name: "console",
    title: "An admin console's user export",
    email: "Work email",
    fullName: "Full name",
    status: { column: "Account state", values: { Enabled: "active", Disabled: "deleted" } },
    roles: "Department",
    lastUsedDate: "Last activity",
  });

  it("validates through a mapping with one warning that counts the short rows", async () => {
    const r = await runCli(["validate", file, "--mapping", mapping, "--format", "json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.valid).toBe(true);
    expect(report.findings).toMatchObject([
      {
        code: "csv.row.short",
        severity: "warning",
        row: 2,
        line: 3,
        message:
          "2 rows had fewer cells than the header's 6, starting with this one (4); their missing cells were read as empty",
      },
    ]);
    expect(report.counts.byCode).toEqual({ "csv.row.short": 1 });
  });

  it("converts the short rows' missing cells as empty", async () => {
    const out = join(work, "short-rows.json");
    const r = await runCli(["convert", file, out, "--mapping", mapping]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("warning csv.row.short");
    expect(JSON.parse(readFileSync(out, "utf8")).users).toEqual([
      {
        email: "ada@example.com",
        firstName: "Ada",
        lastName: "Lovelace",
        status: "active",
        externalStatus: "Enabled",
        roles: ["Research"],
        lastUsedDate: "2024-06-03",
      },
      {
        email: "grace@example.com",
        firstName: "Grace",
        lastName: "Hopper",
        status: "deleted",
        externalStatus: "Disabled",
      },
      {
        email: "linus@example.com",
        firstName: "Linus",
        lastName: "Torvalds",
        status: "active",
        externalStatus: "Enabled",
        roles: ["Kernel"],
      },
      {
        email: "margaret@example.com",
        firstName: "Margaret",
        lastName: "Hamilton",
        status: "active",
        externalStatus: "Enabled",
        roles: ["Apollo"],
        lastUsedDate: "2024-05-30",
      },
    ]);
  });

  it("keeps a row with more cells than the header an error (csv.ragged)", async () => {
    const longer = join(work, "longer-row.csv");
    writeFileSync(
      longer,
      `${readFileSync(fixture("exports/short-rows.csv"), "utf8")}alan,Alan Turing,alan@example.com,Enabled,Bletchley,2024-06-02,extra\n`,
    );
    const r = await runCli(["validate", longer, "--mapping", mapping, "--format", "json"]);
    expect(r.code).not.toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.findings.map((f: { code: string; row: number }) => [f.code, f.row])).toEqual([
      ["csv.ragged", 5],
      ["csv.row.short", 2],
    ]);
    expect(report.stats.users).toBe(4);
  });
});
