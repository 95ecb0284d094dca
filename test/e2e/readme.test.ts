// The examples of the README and of every page of docs/ cannot go stale: their shell sessions
// run, a report shown is a real report, the library examples are the files in examples/ and
// print what the page shows, and the tables list exactly the catalog's codes and each
// command's options, on the page where each lives.

import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EXIT } from "../../src/cli/exitCodes.js";
import { catalog, validateFile } from "../../src/index.js";
import { runCli, runShell } from "../support/cli.js";
import { root } from "../support/paths.js";

/** The README, then the pages of docs/. */
const pages = [
  "README.md",
  ...readdirSync(`${root}docs`)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];
const read = (page: string) => readFileSync(`${root}${page}`, "utf8");
const readme = read("README.md");

/** The page each command's options are documented on. */
const optionsPage: Record<string, string> = {
  validate: "docs/validate.md",
  convert: "docs/convert.md",
  serve: "docs/serve.md",
  push: "docs/push-download-reports.md",
  download: "docs/push-download-reports.md",
  reports: "docs/push-download-reports.md",
};

const normalise = (s: string) =>
  s.replace(/\bin \d+ ms\b/g, "in N ms").replace(/"durationMs": \d+/g, '"durationMs": N');

/**
 * Fenced blocks of a language in a page ("" for a fence that names none), with the HTML
 * comment just before each, if any.
 */
function blocks(page: string, lang: string): { page: string; body: string; note: string | null }[] {
  const out: { page: string; body: string; note: string | null }[] = [];
  const lines = read(page).split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)$/.exec(lines[i] ?? "");
    if (!open) continue;
    const end = lines.indexOf("```", i + 1);
    expect(end, `${page}: the block at line ${i + 1} is not closed`).toBeGreaterThan(i);
    if (open[1] === lang) {
      const note = /^<!-- (.*) -->$/.exec(lines[i - 1] ?? "")?.[1] ?? null;
      out.push({
        page,
        note,
        body: lines
          .slice(i + 1, end)
          .map((line) => `${line}\n`)
          .join(""),
      });
    }
    i = end;
  }
  return out;
}

/** The blocks of a language in the README and every page. */
const allBlocks = (lang: string) => pages.flatMap((page) => blocks(page, lang));

interface Session {
  command: string;
  expected: string;
  exit: number;
}

function sessions(page: string): Session[] {
  const out: Session[] = [];
  for (const { body } of blocks(page, "console")) {
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
    const start = readme.indexOf("## Quick start");
    expect(start).toBeGreaterThan(-1);
    const end = readme.indexOf("\n## ", start + 1);
    const quick = readme.slice(start, end === -1 ? undefined : end);
    expect(quick).toMatch(
      /^```sh\nnpm ci && npx syncfile validate fixtures\/valid\/example\.json\nnpm test\n```$/m,
    );
    // what npm test needs, how to make it required, and the line each part prints when skipped
    for (const [name, requiredIn, skippedIn, skipped] of [
      [
        "SYNCFILE_REQUIRE_BROWSER",
        "test/support/browser.ts",
        "test/e2e/web.test.ts",
        "the page's browser tests are skipped: ",
      ],
      [
        "SYNCFILE_REQUIRE_POSTGRES",
        "vitest.config.ts",
        "vitest.config.ts",
        "the PostgreSQL suite (e2e-postgres) is skipped: ",
      ],
    ] as const) {
      expect(quick).toContain(`\`${name}=1\``);
      expect(read(requiredIn)).toContain(`process.env.${name} === "1"`);
      expect(read(skippedIn)).toContain(`\`${skipped}\${`);
      expect(quick).toContain(`\`${skipped}`);
    }
    expect((await runShell("syncfile validate fixtures/valid/example.json")).code).toBe(0);
  });

  it("has at most 300 lines", () => {
    expect(readme.split("\n").length - 1).toBeLessThanOrEqual(300);
  });
});

describe.each(pages.filter((page) => sessions(page).length > 0))("%s", (page) => {
  it.each(sessions(page))("$ $command", async ({ command, expected, exit }) => {
    const result = await runShell(command);
    expect(normalise(result.stdout + result.stderr)).toBe(normalise(expected));
    expect(result.code).toBe(exit);
  });
});

describe("the pages", () => {
  it("show a real report", async () => {
    const shown = allBlocks("json").filter((b) => b.note?.startsWith("report: "));
    expect(shown.length).toBeGreaterThan(0);
    for (const { note, body } of shown) {
      const file = (note as string).slice("report: ".length);
      const report = await validateFile(file);
      expect(normalise(`${JSON.stringify(report, null, 2)}\n`)).toBe(normalise(body));
    }
  });

  describe("library examples", () => {
    const examples = allBlocks("ts").filter((b) => b.note?.startsWith("example: "));
    afterEach(() => vi.restoreAllMocks());

    it("are all shown, each once, on its page", () => {
      expect(examples.map((e) => `${e.page}: ${e.note}`)).toEqual([
        "docs/library.md: example: examples/in-a-browser.ts",
        "docs/library.md: example: examples/validate-file.ts",
        "docs/library.md: example: examples/validate-web-stream.ts",
        "docs/library.md: example: examples/push-validation.ts",
        "docs/library.md: example: examples/read-records.ts",
        "docs/library.md: example: examples/normalize.ts",
        "docs/push-download-reports.md: example: examples/push-and-reports.ts",
        "docs/serve.md: example: examples/serve-and-sync.ts",
      ]);
      // the library's examples: examples/*.ts (examples/jobs holds the job files docs/jobs.md runs)
      const files = readdirSync(`${root}examples`)
        .filter((name) => name.endsWith(".ts"))
        .map((name) => `example: examples/${name}`);
      expect(examples.map((e) => e.note).sort()).toEqual(files.sort());
    });

    it.each(examples.map((e) => [(e.note as string).slice("example: ".length), e.page, e.body]))(
      "%s is shown verbatim on %s and prints what the page says",
      async (path, page, body) => {
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
        const text = read(page);
        const after = text.slice(text.indexOf(body) + body.length);
        const output = /```text\n([\s\S]*?)```/.exec(after)?.[1] ?? "";
        expect(`${printed.join("\n")}\n`).toBe(output);
      },
    );
  });

  it("list exactly the catalog's codes, with severity and title, in docs/findings.md", () => {
    // the formatter pads table cells
    const rows = [
      ...read("docs/findings.md").matchAll(/^\| `([a-zA-Z.]+)` +\| (error|warning) +\| ([^|]+?) +\|$/gm),
    ].map((m) => [m[1], m[2], m[3]?.trim()]);
    expect(rows).toEqual(Object.entries(catalog).map(([code, e]) => [code, e.severity, e.title]));
  });

  it("list exactly the exit codes of the code, and 130, in docs/push-download-reports.md", () => {
    const codes = [...read("docs/push-download-reports.md").matchAll(/^\| +(\d+) \| [^|]+ \|$/gm)].map((m) =>
      Number(m[1]),
    );
    expect(codes).toEqual([...Object.values(EXIT), 130]);
  });

  it.each(Object.entries(optionsPage))("document every option of %s on %s", async (command, page) => {
    const help = (await runCli([command, "--help"])).stdout;
    const flags = [...help.matchAll(/^\s+(-\w, )?(--[a-z-]+)/gm)].map((m) => m[2] as string);
    expect(flags.length).toBeGreaterThan(2);
    const text = read(page);
    for (const flag of flags) expect(text, `${flag} on ${page}`).toMatch(new RegExp(`\`[^\`]*${flag}[ \`<]`));
  });

  it.each(Object.entries(optionsPage))(
    "give every choice of %s's options in its usage on %s",
    async (command, page) => {
      const help = (await runCli([command, "--help"])).stdout;
      // an option's entry runs to the next option, its description wrapped over several lines
      const entries = help.split(/\n(?=\s+-)/).map((entry) => entry.replace(/\s+/g, " "));
      const choices = entries.flatMap((entry) => {
        const flag = /^ (?:-\w, )?(--[a-z-]+)/.exec(entry)?.[1];
        const list = /\(choices: ([^)]*?)(?:, default: [^)]*)?\)/.exec(entry)?.[1];
        return flag && list ? [`${flag} ${[...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]).join("|")}`] : [];
      });
      const usage = blocks(page, "").find((b) => b.body.includes(`syncfile ${command} `))?.body ?? "";
      expect(usage, `the usage of ${command} on ${page}`).not.toBe("");
      for (const option of choices) expect(usage.replace(/\s+/g, " "), command).toContain(option);
    },
  );
});
