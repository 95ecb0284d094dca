// The report: limits with exact totals, strict mode, and the three formats.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Excerpt, Finding, Report } from "../../src/index.js";
import {
  catalog,
  formatGithub,
  formatJson,
  formatText,
  readExcerpts,
  validateFile,
  validateText,
} from "../../src/index.js";
import { reportSection } from "../../src/report/formatHtml.js";
import { groupDigits } from "../../src/report/formatText.js";
import { fixture } from "../support/paths.js";

const manyBadUsers = (n: number) =>
  JSON.stringify({ users: Array.from({ length: n }, (_, i) => ({ email: `bad${i}`, extra: i })) });

describe("limits", () => {
  it("keeps maxErrors errors and as many warnings, with exact totals beyond", () => {
    const report = validateText(manyBadUsers(3000), { maxErrors: 10 });
    expect(report.findings.filter((f) => f.severity === "error")).toHaveLength(10);
    expect(report.findings.filter((f) => f.severity === "warning")).toHaveLength(10);
    expect(report.counts).toEqual({
      error: 3001,
      warning: 3000,
      byCode: { "user.email.format": 3000, "user.property.unknown": 3000, "document.users.noneValid": 1 },
    });
    expect(report.truncated).toBe(true);
    expect(report.suppressed).toBe(6001 - 20);
  });

  it("defaults to 1000 and accepts 0", () => {
    expect(validateText(manyBadUsers(1200)).findings.filter((f) => f.severity === "error")).toHaveLength(
      1000,
    );
    const none = validateText(manyBadUsers(5), { maxErrors: 0 });
    expect(none.findings).toEqual([]);
    expect(none.counts.error).toBe(6);
    expect(none.valid).toBe(false);
  });

  it("rejects bad option values with a message that names them", () => {
    expect(() => validateText("{}", { maxErrors: -1 })).toThrow(
      /maxErrors must be a whole number of at least 0, got -1/,
    );
    expect(() => validateText("{}", { maxDepth: 2 })).toThrow(/maxDepth/);
    expect(() => validateText("{}", { maxRecordBytes: 1.5 })).toThrow(/maxRecordBytes/);
  });

  it("makes warnings errors with strict", () => {
    const text = '{"users":[{"email":"a@b.co","nickname":"x"}]}';
    expect(validateText(text).valid).toBe(true);
    const strict = validateText(text, { strict: true });
    expect(strict.valid).toBe(false);
    expect(strict.findings[0]).toMatchObject({ code: "user.property.unknown", severity: "error" });
  });
});

describe("numbers", () => {
  it("group their thousands as en-US writes them", () => {
    expect([0, 7, 999, 1000, 12_345, 1_234_567, -4500].map(groupDigits)).toEqual([
      "0",
      "7",
      "999",
      "1,000",
      "12,345",
      "1,234,567",
      "-4,500",
    ]);
    fc.assert(
      fc.property(
        fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        (n) => groupDigits(n) === (n || 0).toLocaleString("en-US"), // -0 is written "0" here
      ),
    );
  });
});

describe("catalog", () => {
  it("has a title, a message and a hint for every code", () => {
    for (const [code, entry] of Object.entries(catalog)) {
      expect(code).toMatch(/^(file|json|csv|mapping|xlsx|document|user|license)\.[a-zA-Z.]+$/);
      expect(entry.title.length, code).toBeGreaterThan(3);
      expect(entry.message.length, code).toBeGreaterThan(3);
      expect(entry.hint.length, code).toBeGreaterThan(3);
      expect(["error", "warning"]).toContain(entry.severity);
    }
  });
});

describe("formats", () => {
  it("json is the report object on one line", async () => {
    const report = await validateFile(fixture("invalid/user.email.format.json"));
    const text = formatJson(report);
    expect(text.endsWith("\n")).toBe(true);
    expect(text.trimEnd()).not.toContain("\n");
    expect(JSON.parse(text)).toEqual(report);
  });

  it("text gives file:line:column, code, message, pointer, hint and the source line with a caret", async () => {
    const file = fixture("invalid/user.status.enum.json");
    const report = await validateFile(file);
    const text = formatText(report, { excerpts: readExcerpts(file, report.findings) });
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      `${file}:4:47: error user.status.enum: status "Active" is not one of active, deleted (/users/1/status)`,
    );
    expect(lines[1]).toBe('  hint: did you mean "active"? Values are lower case.');
    expect(lines[2]).toBe('  4 |     { "email": "grace@example.com", "status": "Active" }');
    expect(lines[3]?.indexOf("^")).toBe(lines[2]?.indexOf('"Active"'));
    expect(lines[4]).toMatch(
      /: invalid — 1 error, 0 warnings \(2 users, 0 licenses, 0 license users; 114 B in \d+ ms\)$/,
    );
  });

  it("text clips long lines around the column", () => {
    const dir = mkdtempSync(join(tmpdir(), "syncfile-"));
    const file = join(dir, "long.json");
    const pad = "x".repeat(300);
    writeFileSync(file, `{"users":[{"email":"a@b.co","note":"${pad}","status":"on"}]}`);
    return validateFile(file).then((report) => {
      const excerpt = readExcerpts(file, report.findings).get(report.findings[0]!);
      expect(excerpt?.text.length).toBeLessThanOrEqual(102);
      expect(excerpt?.text.slice(excerpt.caret, excerpt.caret + 4)).toBe('"on"');
    });
  });

  it("text lists the totals by code when findings were left out", () => {
    const text = formatText(validateText(manyBadUsers(50), { maxErrors: 2, file: "big.json" }));
    expect(text).toContain(
      "… 97 more findings not shown (raise --max-errors to see them). All findings by code:",
    );
    expect(text).toMatch(/ {7}50 {2}user\.email\.format/);
  });

  it("text can be coloured", () => {
    const text = formatText(validateText('{"users":[{"email":"x"}]}'), { color: true });
    expect(text).toContain("\u001b[31merror\u001b[39m");
  });

  it("html escapes every value of a report, which may come from another service", () => {
    const evil = '<img src=x onerror="alert(1)">';
    const report = validateText(manyBadUsers(3), { maxErrors: 1 });
    const hostile = {
      ...report,
      file: evil,
      sheet: evil,
      format: evil,
      suppressed: evil,
      truncated: true,
      stats: { ...report.stats, users: evil, bytes: evil, durationMs: evil },
      counts: { error: evil, warning: evil, byCode: { [evil]: evil } },
      findings: report.findings.map((f) => ({
        ...f,
        code: evil,
        severity: evil,
        message: evil,
        hint: evil,
        pointer: evil,
        field: evil,
        line: evil,
        column: evil,
        row: evil,
        cell: evil,
      })),
    } as unknown as Report;
    const excerpts = new Map([
      [hostile.findings[0] as Finding, { line: evil, text: evil, caret: 1 } as unknown as Excerpt],
    ]);
    const html = reportSection(hostile, 0, { excerpts, codeLink: (code) => `#code-${code}` });
    expect(html).toContain("&#60;img");
    expect(html).not.toContain("<img");
    expect(html).not.toMatch(/="[^"]*"[^ >/]/); // no attribute broken out of its quotes
  });

  it("github escapes data and properties", () => {
    const report = validateText('{"users":[{"email":"100%\\nbad"}]}', { file: "a,b:c.json" });
    const out = formatGithub(report);
    expect(out).toContain("::error file=a%2Cb%3Ac.json,line=1,col=20,title=user.email.format::");
    expect(out).toContain('email "100%25\\nbad"');
    expect(out.split("\n")[0]).not.toContain("\n");
  });
});
