// `syncfile profiles`, `syncfile mapping suggest` and --profile / --mapping as a user runs them.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROFILES } from "../../src/mapping/profiles.js";
import { runCli } from "../support/cli.js";
import { fixture } from "../support/paths.js";

const work = mkdtempSync(join(tmpdir(), "syncfile-cli-mapping-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("syncfile profiles", () => {
  it("lists every profile with what it is recognised by and the columns it reads", async () => {
    const r = await runCli(["profiles"]);
    expect(r.code).toBe(0);
    for (const profile of PROFILES) expect(r.stdout).toContain(`${profile.name}: ${profile.title}\n`);
    expect(r.stdout).toContain('  recognised by: "userPrincipalName", "accountEnabled"\n');
    expect(r.stdout).toContain('  email            "mail" or "userPrincipalName"\n');
  });

  it("prints a profile's mapping document, which reads the export as the profile does", async () => {
    const r = await runCli(["profiles", "okta"]);
    expect(r.code).toBe(0);
    const mine = join(work, "my-okta.json");
    writeFileSync(mine, r.stdout);
    const withIt = await runCli([
      "validate",
      fixture("exports/okta.csv"),
      "--mapping",
      mine,
      "--format",
      "json",
    ]);
    const detected = await runCli(["validate", fixture("exports/okta.csv"), "--format", "json"]);
    const findings = (text: string) => JSON.parse(text).findings as { code: string; message: string }[];
    // as a file of one's own, the columns it names that this export lacks are said once each
    const absent = findings(withIt.stdout).filter((f) => f.code === "mapping.column");
    expect(absent.map((f) => f.message)).toEqual([
      'the header has no column "User" or "Display name", which the mapping reads for fullName',
    ]);
    expect(findings(withIt.stdout).filter((f) => f.code !== "mapping.column")).toEqual(
      findings(detected.stdout),
    );
    expect(JSON.parse(withIt.stdout).mapping).toMatchObject({ name: "okta", how: "file" });
  });

  it("refuses a profile it does not have, naming those it has", async () => {
    const r = await runCli(["profiles", "workday"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^syncfile: no profile "workday": the profiles are google-workspace, okta,/);
  });
});

describe("--profile and --mapping", () => {
  it("say which profile read the file, in the text report", async () => {
    const r = await runCli(["validate", fixture("exports/slack.csv")]);
    expect(r.stdout).toContain(
      "read as Slack: Manage members, Export member list (profile slack, recognised by its header); 1 row left out by the mapping\n",
    );
    const forced = await runCli(["validate", fixture("exports/slack.csv"), "--profile", "slack"]);
    expect(forced.stdout).toContain("(profile slack); 1 row left out by the mapping\n");
  });

  it("are usage errors for JSON, together, or with a profile that is not there", async () => {
    const json = await runCli(["validate", fixture("valid/example.json"), "--profile", "okta"]);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain("--profile reads the columns of a CSV file or a workbook, but");
    const both = await runCli([
      "validate",
      fixture("exports/okta.csv"),
      "--profile",
      "okta",
      "--mapping",
      "x.json",
    ]);
    expect(both.code).toBe(2);
    const unknown = await runCli(["validate", fixture("exports/okta.csv"), "--profile", "workday"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /argument 'workday' is invalid\. Allowed choices are google-workspace, okta,/,
    );
  });

  it("say a mapping's mistakes at their line and column, and read nothing", async () => {
    const mapping = join(work, "bad.json");
    writeFileSync(
      mapping,
      '{\n  "name": "hr",\n  "email": "Mail",\n  "roles": {"column": "Teams", "split": "|"}\n}\n',
    );
    const r = await runCli([
      "convert",
      fixture("exports/okta.csv"),
      join(work, "out.json"),
      "--mapping",
      mapping,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `syncfile: the mapping ${mapping} cannot be used:\n${mapping}:4:32: error: roles.split is not a field of a mapping here\n`,
    );
    const missing = await runCli([
      "validate",
      fixture("exports/okta.csv"),
      "--mapping",
      join(work, "none.json"),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^syncfile: cannot read the mapping .*none\.json: /);
  });

  // issue 48: every mistake was listed, each placed by a scan from the start of the text
  it("list a mapping's first mistakes, as many as --max-errors, and count the others", async () => {
    const mapping = join(work, "many.json");
    writeFileSync(mapping, '{\n"name": "hr",\n"email": "Mail",\n"a": 1,\n"b": 1,\n"c": 1,\n"d": 1\n}\n');
    const r = await runCli([
      "validate",
      fixture("exports/okta.csv"),
      "--mapping",
      mapping,
      "--max-errors",
      "2",
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^syncfile: the mapping .* cannot be used:\n.*many\.json:4:1: error: a is not a field of a mapping here; .*\n.*many\.json:5:1: error: b is not .*\n… 2 more mistakes not shown \(4 in all\)\n$/,
    );
  });

  // issue 48: 5,000 nested arrays overflowed the JSON parser's stack, an internal error (4)
  it("say a mapping nested thousands deep is a mistake at its place, not an internal error", async () => {
    const mapping = join(work, "deep.json");
    writeFileSync(mapping, `${"[".repeat(5000)}${"]".repeat(5000)}`);
    const r = await runCli(["validate", fixture("exports/okta.csv"), "--mapping", mapping]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `syncfile: the mapping ${mapping} cannot be used:\n${mapping}:1:17: error: arrays and objects nested more than 16 deep: a mapping nests them 4 deep at most\n`,
    );
  });
});

describe("syncfile mapping suggest", () => {
  const hr =
    "Employee,Work mail,Private mail,State,Last seen,Kind\n" +
    "Ada Lovelace,ada@example.com,,Employed,05.07.2024,person\n" +
    "Grace Hopper,grace@example.com,grace@example.org,Left,-,person\n" +
    "Alan Turing,alan@example.com,,On sabbatical,31.01.2024,person\n";

  it("writes a mapping from the header and the values, and says what it could not map", async () => {
    const file = join(work, "hr.csv");
    writeFileSync(file, hr);
    const r = await runCli(["mapping", "suggest", file]);
    expect(r.code).toBe(0);
    const document = JSON.parse(r.stdout);
    expect(document).toEqual({
      $schema: "https://syncfile.dev/schemas/mapping.schema.json",
      name: "hr",
      title: "Mapping of hr",
      email: "Work mail",
      fullName: "Employee",
      status: { column: "State", values: { Employed: "active", Left: "deleted", "On sabbatical": "?" } },
      lastUsedDate: { column: "Last seen", forms: ["D.M.YYYY"], never: ["-"] },
    });
    expect(r.stderr).toContain('  ? "On sabbatical" ×1\n');
    expect(r.stderr).toContain('not read: "Private mail", "Kind"\n');

    // used as it is, the value it could not map is an error at its row; mapped, the file is valid
    const mapping = join(work, "hr-mapping.json");
    writeFileSync(mapping, r.stdout);
    const first = await runCli(["validate", file, "--mapping", mapping, "--format", "json"]);
    expect(
      JSON.parse(first.stdout).findings.map((f: { code: string; row: number }) => [f.code, f.row]),
    ).toEqual([["mapping.value", 3]]);
    document.status.values["On sabbatical"] = "active";
    writeFileSync(mapping, JSON.stringify(document));
    expect((await runCli(["validate", file, "--mapping", mapping])).code).toBe(0);
  });

  it("finds the email column by its addresses when no header names it so", async () => {
    const file = join(work, "people.csv");
    writeFileSync(file, "Who,Contact,Enabled\nAda,ada@example.com,TRUE\nGrace,grace@example.com,FALSE\n");
    const r = await runCli(["mapping", "suggest", file]);
    expect(JSON.parse(r.stdout)).toMatchObject({
      email: "Contact",
      status: { column: "Enabled", values: { TRUE: "active", FALSE: "deleted" } },
    });
    expect(r.stderr).toContain('email: "Contact" (2 of 2 rows look like addresses)\n');
  });

  it("reads a workbook's sheet, and gives a known export's profile", async () => {
    const r = await runCli([
      "mapping",
      "suggest",
      fixture("workbooks/second-sheet.xlsx"),
      "--sheet",
      "Users",
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).email).toBe("Email");
    const okta = await runCli(["mapping", "suggest", fixture("exports/okta.csv")]);
    expect(JSON.parse(okta.stdout).name).toBe("okta");
    expect(okta.stderr).toContain("this is the okta export: syncfile reads it with no mapping");
  });

  it("refuses JSON and an unreadable file in one line", async () => {
    const json = await runCli(["mapping", "suggest", fixture("valid/example.json")]);
    expect(json.code).toBe(2);
    expect(json.stderr).toMatch(
      /^syncfile: .*example\.json is read as JSON: mapping suggest reads a CSV file or a workbook/,
    );
    const none = await runCli(["mapping", "suggest", join(work, "absent.csv")]);
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/^syncfile: cannot read .*absent\.csv: /);
  });
});
