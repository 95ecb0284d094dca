// `--format github` in a CI runner: the only workflow commands in its output are the
// annotations it writes, whatever a file's name or its values hold (CR and LF included).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Finding, Report } from "../../src/index.js";
import { formatGithub, validateText } from "../../src/index.js";
import { neutralizeCommands } from "../../src/text/workflowCommands.js";

// a line the runner takes for a command: `::` or `##[` after the spaces .NET's Trim() removes
const OBEYED = /^[\s\u0085]*(?:::|##\[)/;
// one of ours: a known command, properties with no raw `:` `,` CR or LF, data with no CR or LF
const ANNOTATION = /^::(error|warning) file=[^:,\r\n]*(,line=\d+)?(,col=\d+)?,title=[^:,\r\n]*::[^\r\n]*$/;

/** What the runner reads a property or a message as (its unescaping). */
const unescapeCommand = (s: string) =>
  s
    .replace(/%3A/g, ":")
    .replace(/%2C/g, ",")
    .replace(/%0D/g, "\r")
    .replace(/%0A/g, "\n")
    .replace(/%25/g, "%");

function reportOf(file: string | null, findings: Finding[], valid: boolean): Report {
  return {
    reportVersion: 1,
    valid,
    file,
    format: "json",
    stats: { bytes: 0, records: 0, users: 0, licenses: 0, licenseUsers: 0, durationMs: 0 },
    counts: { error: findings.length, warning: 0, byCode: {} },
    truncated: false,
    suppressed: 0,
    findings,
  } as Report;
}

// any characters, with the dangerous ones often
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom("\n", "\r", ":", "::", ",", "%", "#", "##[", " ", "\u0085", "\t", "=", "error"),
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  ),
  maxLength: 40,
});

const finding: fc.Arbitrary<Finding> = fc.record(
  {
    code: hostile,
    severity: fc.constantFrom("error" as const, "warning" as const),
    message: hostile,
    hint: hostile,
    pointer: hostile,
    cell: hostile,
    line: fc.nat(),
    column: fc.nat(),
  },
  { requiredKeys: ["code", "severity", "message"] },
) as fc.Arbitrary<Finding>;

describe("formatGithub", () => {
  it("writes no command but its annotations, each read back by the runner as it was given", () => {
    fc.assert(
      fc.property(
        fc.option(hostile, { nil: null }),
        fc.array(finding, { maxLength: 4 }),
        (file, findings) => {
          const out = formatGithub(reportOf(file, findings, findings.length === 0));
          // the runner reads lines ending at LF, CR or CR LF
          const lines = out.replace(/\n$/, "").split(/\r\n|\r|\n/);
          expect(lines).toHaveLength(findings.length + 1);
          findings.forEach((f, i) => {
            const line = lines[i] as string;
            expect(line).toMatch(ANNOTATION);
            const [, props = "", data = ""] = /^::\w+ ([^:]*)::(.*)$/s.exec(line) ?? [];
            const fileProp = /^file=([^,]*)/.exec(props)?.[1] ?? "";
            expect(unescapeCommand(fileProp)).toBe(file ?? "stdin");
            expect(unescapeCommand(data).startsWith(f.message)).toBe(true);
          });
          const summary = lines.at(-1) as string;
          expect(summary).not.toMatch(OBEYED);
          expect(summary).not.toMatch(/[\r\n]/);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a file named to inject a command prints a summary that is not one", () => {
    for (const name of [
      "users\n::error title=x::y.json",
      "users\r::add-mask::secret",
      "::stop-commands::pwned",
      "  ::warning::x",
      "##[error]x",
    ]) {
      const out = formatGithub(validateText('{"users":[{"email":"a@b.co"}]}', { file: name }));
      for (const line of out.split(/\r\n|\r|\n/)) expect(line, JSON.stringify(line)).not.toMatch(OBEYED);
      expect(out.trimEnd().split("\n")).toHaveLength(1);
    }
  });
});

describe("neutralizeCommands", () => {
  it("escapes the first character of each line that would be obeyed, and nothing else", () => {
    expect(neutralizeCommands("syncfile: cannot read x\n::error::y\r  ::add-mask::z\n##[group]w")).toBe(
      "syncfile: cannot read x\n%3A:error::y\r  %3A:add-mask::z\n%23#[group]w",
    );
    expect(neutralizeCommands("a :: b, ## [c]")).toBe("a :: b, ## [c]");
  });

  it("leaves no line that the runner obeys", () => {
    fc.assert(
      fc.property(hostile, (text) => {
        for (const line of neutralizeCommands(text).split(/\r\n|\r|\n/)) expect(line).not.toMatch(OBEYED);
      }),
    );
  });
});
