// `syncfile convert` as users run it, and `validate` on CSV: exit codes, where output and
// report go, what is (not) written, formula escaping, currencies, and every wrong call.

import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at .+:\d+:\d+/);
const dir = () => mkdtempSync(join(tmpdir(), "syncfile-cli-convert-"));

describe("syncfile convert", () => {
  it("turns the spreadsheet dialect into JSON and prints the report on stdout", async () => {
    const out = join(dir(), "users.json");
    const r = await runCli(["convert", "fixtures/valid/spreadsheet.csv", out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "fixtures/valid/spreadsheet.csv: valid — 0 errors, 0 warnings (3 users, 2 licenses, 3 license users;",
    );
    expect(r.stdout).toContain(`wrote ${out} (JSON)`);
    const doc = JSON.parse(readFileSync(out, "utf8"));
    expect(doc.users[1]).toEqual({
      email: "grace@example.com",
      firstName: "Grace",
      lastName: "Hopper",
      status: "deleted",
      externalStatus: "Gone",
    });
    expect(doc.licenses.map((l: { name: string }) => l.name)).toEqual(["Pro", "Viewer"]);
  });

  it("prints its report as a page with --format html, what it wrote included", async () => {
    const out = join(dir(), "users.json");
    const r = await runCli(["convert", "fixtures/valid/spreadsheet.csv", out, "--format", "html"]);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith("<!doctype html>")).toBe(true);
    expect(r.stdout).toContain("<h1>syncfile conversion report</h1>");
    expect(r.stdout).toContain(`<p class="stats">wrote ${out} (JSON)</p>`);
    expect(existsSync(out)).toBe(true);
  });

  it("writes a workbook and reads it back to the same JSON; --sheet only for workbooks", async () => {
    const d = dir();
    const xlsx = join(d, "users.xlsx");
    const r = await runCli(["convert", "fixtures/valid/example.csv", xlsx]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`wrote ${xlsx} (XLSX)`);
    expect(readFileSync(xlsx).subarray(0, 2).toString()).toBe("PK");
    const back = await runCli(["convert", xlsx, join(d, "back.json")]);
    expect(back.code).toBe(0);
    const direct = await runCli(["convert", "fixtures/valid/example.csv", join(d, "direct.json")]);
    expect(direct.code).toBe(0);
    expect(readFileSync(join(d, "back.json"), "utf8")).toBe(readFileSync(join(d, "direct.json"), "utf8"));

    const sheet = await runCli([
      "convert",
      "fixtures/valid/example.csv",
      join(d, "x.json"),
      "--sheet",
      "Users",
    ]);
    expect(sheet.code).toBe(2);
    expect(sheet.stderr).toContain(
      "--sheet names a workbook's sheet, but fixtures/valid/example.csv is read as csv: give an .xlsx file, or add --input-format xlsx",
    );
    noStack(sheet.stderr);
  });

  it("says a workbook given as CSV is one, and validates it as xlsx when told", async () => {
    const csv = join(dir(), "export.csv");
    writeFileSync(csv, readFileSync("fixtures/workbooks/bad-status.xlsx"));
    const r = await runCli(["validate", csv]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("error file.type: the file is a ZIP archive, as an Excel workbook is");
    expect(r.stdout).toContain("name it .xlsx or add --input-format xlsx");
    expect(r.stdout).not.toMatch(/\| /); // no excerpt of binary bytes
    const told = await runCli(["validate", csv, "--input-format", "xlsx"]);
    expect(told.stdout).toContain(`${csv}:Users!D3: error user.status.enum`);
  });

  it("writes stdout with -, and the report to stderr then", async () => {
    const csv = readFileSync("fixtures/valid/example.csv");
    const r = await runCli(["convert", "-", "-", "--input-format", "csv", "--to", "json"], { input: csv });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).users).toHaveLength(3);
    expect(r.stderr).toContain("stdin: valid");
    expect(r.stderr).toContain("wrote stdout (JSON)");
  });

  it("refuses an invalid input: exit 1, the findings, no file; --force writes it", async () => {
    const d = dir();
    const out = join(d, "out.csv");
    const r = await runCli(["convert", "fixtures/invalid/user.email.format.json", out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("error user.email.format");
    expect(r.stdout).toContain(
      `not written to ${out}: the input has errors (fix them, or add --force to write anyway)`,
    );
    expect(readdirSync(d)).toEqual([]);
    const forced = await runCli(["convert", "fixtures/invalid/user.email.format.json", out, "--force"]);
    expect(forced.code).toBe(1);
    expect(forced.stdout).toContain("written despite errors (--force)");
    expect(readFileSync(out, "utf8")).toContain("grace.example.com");
  });

  it("prints nothing on stdout when refusing to write stdout", async () => {
    const r = await runCli(["convert", "fixtures/invalid/user.email.format.json", "-", "--format", "json"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(JSON.parse(r.stderr)).toMatchObject({ valid: false, output: { file: null, written: false } });
  });

  it("escapes formula cells by default and counts them; --no-escape-formulas does not", async () => {
    const input = JSON.stringify({ users: [{ email: "a@x.io", firstName: "=1+1", lastName: "-x" }] });
    const r = await runCli(["convert", "-", "-", "--to", "csv"], { input });
    expect(r.stdout.split("\n")[1]).toBe("a@x.io,,'=1+1,'-x,,,,,,,,");
    expect(r.stderr).toContain("wrote stdout (CSV; 2 formula cells escaped)");
    const raw = await runCli(
      ["convert", "-", "-", "--to", "csv", "--no-escape-formulas", "--format", "json"],
      { input },
    );
    expect(raw.stdout.split("\n")[1]).toBe("a@x.io,,=1+1,-x,,,,,,,,");
    expect(JSON.parse(raw.stderr).output.formulasEscaped).toBe(0);
  });

  it("normalises with a display currency and a rates file (flat, or with a base)", async () => {
    const d = dir();
    writeFileSync(join(d, "flat.json"), '{"EUR": "0.9215"}');
    writeFileSync(join(d, "based.json"), '{"base": "USD", "date": "2026-11-20", "rates": {"EUR": 0.9215}}');
    for (const rates of ["flat.json", "based.json"]) {
      const r = await runCli([
        "convert",
        "fixtures/valid/example.json",
        "-",
        "--to",
        "json",
        "--normalize",
        "--display-currency",
        "eur",
        "--rates",
        join(d, rates),
      ]);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain("wrote stdout (JSON; normalised, prices in EUR)");
      const doc = JSON.parse(r.stdout);
      expect(doc.licenses[0]).toMatchObject({ name: "Pro", pricePerUser: 1152 });
      expect(doc.licenses[0].users[1]).toEqual({
        email: "beatrice.muller@example.com",
        licenseStatus: "deleted",
      });
    }
  });

  it.each([
    [
      ["--display-currency", "EUR"],
      /--display-currency, --source-currency and --rates apply only with --normalize/,
    ],
    [["--normalize", "--display-currency", "EUR"], /no rate from USD to EUR: give one/],
    [["--normalize", "--display-currency", "XYZ"], /unknown currency "XYZ"/],
    [
      ["--normalize", "--display-currency", "EUR", "--rates", "missing.json"],
      /cannot read the rates file missing\.json: no such file/,
    ],
    [
      ["--normalize", "--display-currency", "EUR", "--rates", "package.json"],
      /must map currency codes to rates/,
    ],
    [
      ["--normalize", "--display-currency", "EUR", "--rates", "README.md"],
      /cannot read the rates file README\.md: it is not JSON/,
    ],
    [["--to", "xml"], /argument 'xml' is invalid/],
    [["--input-format", "yaml"], /argument 'yaml' is invalid/],
  ])("exits 2 with one clear line for %j", async (flags, message) => {
    const r = await runCli(["convert", "fixtures/valid/example.json", join(dir(), "out.json"), ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    noStack(r.stderr);
  });

  it("rejects rates from another base than the source currency", async () => {
    const d = dir();
    writeFileSync(join(d, "rates.json"), '{"base": "EUR", "rates": {"JPY": "160"}}');
    const r = await runCli([
      "convert",
      "fixtures/valid/example.json",
      "-",
      "--normalize",
      "--display-currency",
      "JPY",
      "--rates",
      join(d, "rates.json"),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "are from EUR, but prices are read as USD: give rates from USD, or --source-currency EUR",
    );
  });

  it("exits 3 when the input cannot be read or the output cannot be written, leaving nothing behind", async () => {
    const d = dir();
    const missing = await runCli(["convert", join(d, "nope.csv"), join(d, "out.json")]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe(`syncfile: cannot read ${join(d, "nope.csv")}: no such file or directory\n`);
    const unwritable = await runCli([
      "convert",
      "fixtures/valid/example.csv",
      join(d, "no-such-dir", "out.json"),
    ]);
    expect(unwritable.code).toBe(3);
    expect(unwritable.stderr).toBe(
      `syncfile: cannot write ${join(d, "no-such-dir", "out.json")}: no such file or directory\n`,
    );
    expect(readdirSync(d)).toEqual([]);
  });

  it("needs both arguments and has help", async () => {
    const r = await runCli(["convert", "fixtures/valid/example.json"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("missing required argument 'output'");
    const help = await runCli(["convert", "--help"]);
    expect(help.code).toBe(0);
    for (const flag of [
      "--to",
      "--normalize",
      "--force",
      "--no-escape-formulas",
      "--display-currency",
      "--rates",
      "--input-format",
    ]) {
      expect(help.stdout).toContain(flag);
    }
  });

  it("can replace its own input", async () => {
    const d = dir();
    const file = join(d, "users.json");
    writeFileSync(file, readFileSync("fixtures/valid/example.json"));
    const r = await runCli(["convert", file, file, "--normalize"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8")).users[2]).toEqual({
      email: "chen.wei@example.com",
      firstName: "Chen",
      lastName: "Wei",
      status: "active",
    });
    expect(existsSync(file)).toBe(true);
    expect(readdirSync(d)).toEqual(["users.json"]);
  });
});

describe("syncfile validate on CSV", () => {
  it("validates CSV files by extension, with row, line and column", async () => {
    const r = await runCli(["validate", "fixtures/invalid/csv.user.conflict.csv"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^fixtures\/invalid\/csv\.user\.conflict\.csv:4: error csv\.user\.conflict: .*\(\/users\/\d+\/firstName, row 3, column firstName\)/m,
    );
  });

  it("reads CSV from stdin with --input-format csv", async () => {
    const csv = readFileSync("fixtures/valid/example.csv");
    const r = await runCli(["validate", "-", "--input-format", "csv", "--format", "json"], { input: csv });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      valid: true,
      format: "csv",
      stats: { users: 3, licenses: 2 },
    });
    const asJson = await runCli(["validate", "-"], { input: csv });
    expect(asJson.code).toBe(1);
    expect(asJson.stdout).toContain("json.syntax");
  });
});
