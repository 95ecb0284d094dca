// The README's examples cannot go stale: its shell sessions run, its report is a real
// report, its library examples are the files in examples/ and print what it shows, and its
// tables list exactly the catalog's codes and the command's options.

import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { catalog, validateFile } from "../../src/index.js";
import { runCli, runShell } from "../support/cli.js";
import { root } from "../support/paths.js";

const readme = readFileSync(`${root}README.md`, "utf8");
const normalise = (s: string) =>
  s.replace(/\bin \d+ ms\b/g, "in N ms").replace(/"durationMs": \d+/g, '"durationMs": N');

/** Fenced blocks of a language, with the HTML comment just before each, if any. */
function blocks(lang: string): { body: string; note: string | null }[] {
  const out: { body: string; note: string | null }[] = [];
  const re = new RegExp(`(?:<!-- ([^>]*) -->\\n)?\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, "g");
  for (const m of readme.matchAll(re)) out.push({ note: m[1] ?? null, body: m[2] ?? "" });
  return out;
}

interface Session {
  command: string;
  expected: string;
  exit: number;
}

function sessions(): Session[] {
  const out: Session[] = [];
  for (const { body } of blocks("console")) {
    for (const part of body.split(/^\$ /m).slice(1)) {
      const [command = "", ...rest] = part.split("\n");
      let exit = 0;
      const lines = rest.filter((line) => {
        const m = /^\[exit (\d+)\]$/.exec(line);
        if (m) exit = Number(m[1]);
        return !m;
      });
      out.push({ command, expected: lines.join("\n"), exit });
    }
  }
  return out;
}

describe("README", () => {
  it("starts with the two set-up commands, and the first one works", async () => {
    const quick = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## Contents"));
    expect(quick).toContain("npm ci && npx syncfile validate fixtures/valid/example.json\nnpm test\n");
    expect((await runShell("syncfile validate fixtures/valid/example.json")).code).toBe(0);
  });

  it.each(sessions())("$ $command", async ({ command, expected, exit }) => {
    const result = await runShell(command);
    expect(normalise(result.stdout + result.stderr)).toBe(normalise(expected));
    expect(result.code).toBe(exit);
  });

  it("shows a real report", async () => {
    const shown = blocks("json").filter((b) => b.note?.startsWith("report: "));
    expect(shown.length).toBeGreaterThan(0);
    for (const { note, body } of shown) {
      const file = (note as string).slice("report: ".length);
      const report = await validateFile(file);
      expect(normalise(`${JSON.stringify(report, null, 2)}\n`)).toBe(normalise(body));
    }
  });

  describe("library examples", () => {
    const examples = blocks("ts").filter((b) => b.note?.startsWith("example: "));
    afterEach(() => vi.restoreAllMocks());

    it("are all shown", () => {
      expect(examples.map((e) => e.note)).toEqual([
        "example: examples/serve-and-sync.ts",
        "example: examples/push-and-reports.ts",
        "example: examples/validate-file.ts",
        "example: examples/validate-web-stream.ts",
        "example: examples/push-validation.ts",
        "example: examples/read-records.ts",
        "example: examples/normalize.ts",
      ]);
    });

    it.each(examples.map((e) => [(e.note as string).slice("example: ".length), e.body]))(
      "%s is shown verbatim and prints what the README says",
      async (path, body) => {
        expect(readFileSync(`${root}${path}`, "utf8")).toBe(body);
        const printed: string[] = [];
        vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
          printed.push(args.map(String).join(" "));
        });
        const cwd = process.cwd();
        process.chdir(root);
        try {
          await import(`../../${path}`);
        } finally {
          process.chdir(cwd);
        }
        const after = readme.slice(readme.indexOf(body) + body.length);
        const output = /```text\n([\s\S]*?)```/.exec(after)?.[1] ?? "";
        expect(`${printed.join("\n")}\n`).toBe(output);
      },
    );
  });

  it("lists exactly the catalog's codes, with severity and title", () => {
    // the formatter pads table cells
    const rows = [...readme.matchAll(/^\| `([a-zA-Z.]+)` +\| (error|warning) +\| ([^|]+?) +\|$/gm)].map(
      (m) => [m[1], m[2], m[3]?.trim()],
    );
    expect(rows).toEqual(Object.entries(catalog).map(([code, e]) => [code, e.severity, e.title]));
  });

  it.each(["validate", "convert", "serve", "push", "download", "reports"])(
    "documents every option of %s",
    async (command) => {
      const help = (await runCli([command, "--help"])).stdout;
      const flags = [...help.matchAll(/^\s+(-\w, )?(--[a-z-]+)/gm)].map((m) => m[2] as string);
      expect(flags.length).toBeGreaterThan(2);
      for (const flag of flags) expect(readme, flag).toMatch(new RegExp(`\`[^\`]*${flag}[ \`<]`));
    },
  );
});
