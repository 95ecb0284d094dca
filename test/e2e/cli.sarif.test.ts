// `--format sarif` as code-scanning tools read it: one SARIF 2.1.0 log for every file given,
// valid against the OASIS schema (test/sarif/), each finding a result with its rule and place.

import { readFileSync } from "node:fs";
import Ajv04 from "ajv-draft-04";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { describe, expect, it } from "vitest";
import { type Code, catalog, formatSarif, SARIF_SCHEMA, validateText } from "../../src/index.js";
import { uriOf } from "../../src/report/formatSarif.js";
import { runCli } from "../support/cli.js";
import { root } from "../support/paths.js";

const schema = JSON.parse(readFileSync(`${root}test/sarif/sarif-schema-2.1.0.json`, "utf8"));
// ajv's strict mode lints a schema's style (e.g. `required` naming a property defined only in a
// sibling): the standard's schema is taken as published
const validateSarif = new Ajv04.default({ allErrors: true, strict: false, formats: fullFormats }).compile(
  schema,
);

/** The schema's complaints about `log`, as lines; none when it is valid. */
function schemaErrors(log: unknown): string[] {
  return validateSarif(log) ? [] : (validateSarif.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

// a valid file, invalid JSON, a CSV, a workbook and a warning, in one run
const files = [
  "fixtures/valid/example.json",
  "fixtures/invalid/json.syntax.json",
  "fixtures/invalid/csv.ragged.csv",
  "fixtures/workbooks/bad-status.xlsx",
  "fixtures/invalid/user.property.unknown.json",
];

// biome-ignore lint/suspicious/noExplicitAny: a SARIF log read back, looked into by test
type Json = any;

async function sarifOf(args: string[], input?: string): Promise<{ code: number; log: Json }> {
  const r = await runCli(["validate", "--format", "sarif", ...args], input === undefined ? {} : { input });
  expect(r.stderr).toBe("");
  return { code: r.code, log: JSON.parse(r.stdout) };
}

describe("syncfile validate --format sarif", () => {
  it("writes one log for several files, valid against the SARIF 2.1.0 schema, exit as ever", async () => {
    const { code, log } = await sarifOf(files);
    expect(code).toBe(1);
    expect(schemaErrors(log)).toEqual([]);
    expect(log).toMatchObject({ $schema: SARIF_SCHEMA, version: "2.1.0" });
    expect(log.runs).toHaveLength(1);
    const [run] = log.runs;
    expect(run.tool.driver).toMatchObject({
      name: "syncfile",
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    expect(run.artifacts.map((a: Json) => [a.location.uri, a.mimeType, a.properties.valid])).toEqual([
      [files[0], "application/json", true],
      [files[1], "application/json", false],
      [files[2], "text/csv", false],
      [files[3], "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", false],
      [files[4], "application/json", true],
    ]);
    expect(run.results.map((r: Json) => r.ruleId)).toEqual([
      "json.syntax",
      "csv.ragged",
      "user.status.enum",
      "user.property.unknown",
    ]);
  });

  it("has one rule per code found, from the catalog, and results that point at them", async () => {
    const { log } = await sarifOf(files);
    const [run] = log.runs;
    const codes = ["json.syntax", "csv.ragged", "user.status.enum", "user.property.unknown"] as Code[];
    expect(run.tool.driver.rules).toEqual(
      codes.map((code) => ({
        id: code,
        shortDescription: { text: catalog[code].title },
        help: { text: catalog[code].hint },
        defaultConfiguration: { level: catalog[code].severity },
      })),
    );
    for (const result of run.results) expect(run.tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
    expect(run.results.map((r: Json) => r.level)).toEqual(["error", "error", "error", "warning"]);
  });

  it("places JSON findings by line, column and pointer, CSV by line and row, a workbook's by cell", async () => {
    const { log } = await sarifOf(files);
    const [json, csv, cell] = log.runs[0].results;
    expect(json.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: files[1], index: 1 },
      region: { startLine: 4, startColumn: 5 },
    });
    expect(json.properties).toEqual({ pointer: "/users" });
    // a finding's own hint, more specific than the rule's, goes in its message
    expect(json.message.text).toBe(
      "expected ',' or ']' but found '{'\nhint: a comma is missing between two items",
    );
    expect(csv.locations[0].physicalLocation.region).toEqual({ startLine: 3 });
    expect(csv.properties).toEqual({ row: 2 });
    expect(cell.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: files[3], index: 3 } });
    expect(cell.locations[0].logicalLocations).toEqual([
      { name: "D3", fullyQualifiedName: "Users!D3", kind: "cell" },
    ]);
    expect(cell.properties).toEqual({
      pointer: "/users/1/status",
      row: 3,
      field: "Status",
      cell: "Users!D3",
    });
  });

  it("exits 0 with no result for valid files; --strict makes a warning an error", async () => {
    const ok = await sarifOf([files[0] as string, files[4] as string]);
    expect(ok.code).toBe(0);
    expect(schemaErrors(ok.log)).toEqual([]);
    expect(ok.log.runs[0].results.map((r: Json) => r.level)).toEqual(["warning"]);
    const strict = await sarifOf([files[4] as string, "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.log.runs[0].results.map((r: Json) => r.level)).toEqual(["error"]);
  });

  it("counts what --max-errors left out, and reads standard input as an artifact without a URI", async () => {
    const { log } = await sarifOf(["fixtures/invalid/document.users.noneValid.json", "--max-errors", "1"]);
    expect(schemaErrors(log)).toEqual([]);
    expect(log.runs[0].results).toHaveLength(1);
    expect(log.runs[0].artifacts[0].properties).toMatchObject({ errors: 3, suppressed: 2 });
    const stdin = await sarifOf(["-"], '{"users":[{"email":"nope"}]}');
    expect(stdin.code).toBe(1);
    expect(schemaErrors(stdin.log)).toEqual([]);
    expect(stdin.log.runs[0].artifacts[0]).toMatchObject({ description: { text: "standard input" } });
    expect(stdin.log.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({ index: 0 });
  });

  it("is the report of convert too", async () => {
    const r = await runCli(["convert", "fixtures/invalid/csv.ragged.csv", "-", "--format", "sarif"]);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stderr);
    expect(schemaErrors(log)).toEqual([]);
    expect(log.runs[0].results.map((x: Json) => x.ruleId)).toEqual(["csv.ragged"]);
  });

  it("is checked for real: the schema refuses the log when a required property is dropped", async () => {
    const { log } = await sarifOf(files);
    const drops: [string, (l: Json) => void][] = [
      ["version", (l) => delete l.version],
      ["runs", (l) => delete l.runs],
      ["tool", (l) => delete l.runs[0].tool],
      ["driver", (l) => delete l.runs[0].tool.driver],
      ["driver name", (l) => delete l.runs[0].tool.driver.name],
      ["rule id", (l) => delete l.runs[0].tool.driver.rules[0].id],
      ["result message", (l) => delete l.runs[0].results[0].message],
      ["message text", (l) => delete l.runs[0].results[0].message.text],
      ["a level SARIF lacks", (l) => (l.runs[0].results[0].level = "fatal")],
      ["a start line of 0", (l) => (l.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0)],
    ];
    for (const [what, drop] of drops) {
      const broken = structuredClone(log);
      drop(broken);
      expect(schemaErrors(broken), what).not.toEqual([]);
    }
  });
});

describe("formatSarif", () => {
  it("names a code this catalog lacks (a report from another version) by itself", () => {
    const report = validateText('{"users":[{"email":"nope"}]}', { file: "users.json" });
    const finding = { ...report.findings[0], code: "user.email.newer" } as (typeof report.findings)[0];
    const log = JSON.parse(formatSarif([{ ...report, findings: [finding] }]));
    expect(schemaErrors(log)).toEqual([]);
    expect(log.runs[0].tool.driver.rules).toEqual([
      { id: "user.email.newer", shortDescription: { text: "user.email.newer" } },
    ]);
  });

  it("makes one artifact of a file given twice (SARIF's artifacts are unique)", () => {
    const report = validateText('{"users":[{"email":"nope"}]}', { file: "users.json" });
    const log = JSON.parse(formatSarif([report, report]));
    expect(schemaErrors(log)).toEqual([]);
    expect(log.runs[0].artifacts).toHaveLength(1);
    expect(
      log.runs[0].results.map((r: Json) => r.locations[0].physicalLocation.artifactLocation.index),
    ).toEqual(report.findings.flatMap(() => [0, 0]));
  });
});

describe("SARIF artifact URIs", () => {
  it("keep a name relative to the current directory relative, encoded; make an absolute one a file: URI", () => {
    expect(uriOf("fixtures/valid/example.json")).toBe("fixtures/valid/example.json");
    expect(uriOf("./data/hr export.csv")).toBe("data/hr%20export.csv");
    expect(uriOf("../up/a#b.json")).toBe("../up/a%23b.json");
    expect(uriOf("c:users.json")).toBe("c%3Ausers.json"); // not a scheme
    expect(uriOf("/tmp/x y.json")).toBe("file:///tmp/x%20y.json");
    expect(uriOf("C:\\data\\users.json")).toBe("file:///C:/data/users.json");
  });
});
