// One assertion helper for findings, shared by every test.

import { expect } from "vitest";
import type { Finding, Report } from "../../src/index.js";

/** One line per finding: `code pointer line:column` (`<root>` for the empty pointer). Readable in diffs. */
export function describeFindings(report: Report): string[] {
  return report.findings.map(
    (f) =>
      `${f.code} ${f.pointer === "" ? "<root>" : (f.pointer ?? "-")} ${f.line ?? "?"}:${f.column ?? "?"}`,
  );
}

/** Asserts that `report` has a finding with every field of `expected`; returns it. */
export function expectFinding(report: Report, expected: Partial<Finding> & { code: string }): Finding {
  const found = report.findings.find((f) =>
    Object.entries(expected).every(([k, v]) => (f as unknown as Record<string, unknown>)[k] === v),
  );
  if (!found) {
    expect.fail(`no finding ${JSON.stringify(expected)} among:\n  ${describeFindings(report).join("\n  ")}`);
  }
  return found;
}

/** Asserts a well-formed finding: rendered message and hint, no placeholder left. */
export function expectRendered(finding: Finding): void {
  expect(finding.message).not.toMatch(/\{\w+\}/);
  expect(finding.hint ?? "").not.toMatch(/\{\w+\}/);
  expect(finding.message.length).toBeGreaterThan(5);
  expect(finding.hint?.length ?? 0).toBeGreaterThan(5);
}
