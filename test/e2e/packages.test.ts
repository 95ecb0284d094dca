// The packages as a user installs them. Each workspace is packed as publishing packs it
// (scripts/packages.mjs), and the tarballs are installed into empty folders with no dev
// dependencies, then run: the library alone validating a fixture in Node (and installing no
// more than 15 MB); the library bundled for the browser by esbuild, with no configuration, and
// run in Chromium; the command line listing every command, naming the package a missing one
// needs, and serving once that is installed. publint and arethetypeswrong check every package.

import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { beforeAll, describe, expect, it } from "vitest";
import { installInto, packAll, sizeOf, WORKSPACES } from "../../scripts/packages.mjs";
import { browserUnavailable, launchBrowser } from "../support/browser.js";
import { runCli, runProcess } from "../support/cli.js";
import { root } from "../support/paths.js";
import { freePort } from "../support/ports.js";
import { waitFor } from "../support/waitFor.js";

const INSTALL_MS = 240_000;
const MB = 1024 * 1024;

let tarballs: Record<string, string>;
let library: string; // a project with only the library installed

beforeAll(async () => {
  tarballs = await packAll(mkdtempSync(join(tmpdir(), "syncfile-packs-")));
  library = await installInto([tarballs.syncfile as string]);
}, INSTALL_MS);

/** Runs `node -e script` as an ES module in `cwd`, where the packages are installed. */
const nodeIn = (cwd: string, script: string, args: string[] = []) =>
  runProcess(process.execPath, ["--input-type=module", "-e", script, ...args], { cwd });

describe("the library, installed alone", () => {
  it("installs at most 15 MB: none of the server, the client, the jobs or the command line", () => {
    const modules = join(library, "node_modules");
    expect(sizeOf(modules) / MB).toBeLessThanOrEqual(15);
    const installed = readdirSync(modules).flatMap((name) =>
      name.startsWith("@") ? readdirSync(join(modules, name)).map((n) => `${name}/${n}`) : [name],
    );
    for (const heavy of [
      "fastify",
      "@electric-sql/pglite",
      "@aws-sdk/client-s3",
      "pdfkit",
      "pg",
      "pino",
      "commander",
    ]) {
      expect(installed, heavy).not.toContain(heavy);
    }
    expect(installed).not.toContain("@syncfile/server");
  });

  it("validates a fixture in Node, as the README shows", async () => {
    const script = `
      import { validateFile } from "syncfile";
      const report = await validateFile(process.argv[1]);
      console.log(JSON.stringify({ valid: report.valid, users: report.stats.users, codes: report.findings.map((f) => f.code) }));
    `;
    const valid = await nodeIn(library, script, [join(root, "fixtures/valid/example.json")]);
    expect(valid.stderr).toBe("");
    expect(JSON.parse(valid.stdout)).toEqual({ valid: true, users: 3, codes: [] });
    const invalid = await nodeIn(library, script, [join(root, "fixtures/invalid/user.email.format.json")]);
    expect(JSON.parse(invalid.stdout)).toMatchObject({ valid: false, codes: ["user.email.format"] });
  });
});

describe("the library in a browser", () => {
  const unavailable = browserUnavailable();
  const EXAMPLE = "examples/in-a-browser.ts";
  /** Fixtures checked in the page and by the library in Node: JSON, CSV and a workbook, valid or not. */
  const FIXTURES = [
    "fixtures/valid/example.json",
    "fixtures/valid/example.csv",
    "fixtures/invalid/user.email.format.json",
    "fixtures/workbooks/bad-status.xlsx",
  ];
  /** A page's module that checks a file's bytes, as a form's file input gives them. */
  const CHECK = `
    import { Validation, validateWorkbook } from "syncfile";
    const summary = (r) => ({ valid: r.valid, users: r.stats.users, codes: r.findings.map((f) => f.code) });
    globalThis.check = async (name, bytes) => {
      const data = new Uint8Array(bytes);
      if (name.endsWith(".xlsx")) return summary(await validateWorkbook(new Blob([data]), { file: name }));
      const validation = new Validation({ file: name });
      validation.push(data);
      return summary(validation.end());
    };
  `;
  let bundle: string;
  let checker: string;

  /** `entry` (in the project that installed the library) built as a web app's build runs esbuild. */
  async function bundled(entry: string): Promise<string> {
    // for the browser, no plugin, polyfill or alias
    const result = await build({
      absWorkingDir: library,
      entryPoints: [entry],
      bundle: true,
      platform: "browser",
      format: "esm",
      target: "es2022",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    // all of it from the library's browser build, which holds its dependencies
    expect(Object.keys(result.metafile.inputs).sort()).toEqual([
      entry,
      "node_modules/syncfile/dist/browser.js",
    ]);
    return result.outputFiles[0]?.text ?? "";
  }

  beforeAll(async () => {
    // a web app's modules: the example of docs/library.md, and a file input's check
    writeFileSync(join(library, "app.ts"), readFileSync(join(root, EXAMPLE)));
    writeFileSync(join(library, "check.js"), CHECK);
    [bundle, checker] = await Promise.all([bundled("app.ts"), bundled("check.js")]);
  });

  it("bundles with esbuild, taking the browser build by its condition, with no Node module", () => {
    expect(bundle.length).toBeGreaterThan(0);
    expect(bundle).not.toMatch(/(from|import\()\s*"(node:)?(fs|path|stream|buffer|worker_threads)"/);
  });

  it.skipIf(unavailable !== null)("runs in Chromium, printing what docs/library.md shows", async () => {
    const page = readFileSync(join(root, "docs/library.md"), "utf8");
    const after = page.slice(page.indexOf(`<!-- example: ${EXAMPLE} -->`));
    const shown = /```text\n([\s\S]*?)```/.exec(after)?.[1] ?? "(none)";
    const browser = await launchBrowser();
    try {
      const tab = await browser.newPage();
      const printed: string[] = [];
      const errors: string[] = [];
      tab.on("console", (message) => printed.push(message.text()));
      tab.on("pageerror", (error) => errors.push(error.message));
      const script = bundle.replace(/<\/script/gi, "<\\/script");
      await tab.setContent(`<!doctype html><script type="module">${script}\nconsole.log("done")</script>`);
      await waitFor(() => printed.includes("done") || errors.length > 0, "the example's last line");
      expect(errors).toEqual([]);
      expect(`${printed.filter((line) => line !== "done").join("\n")}\n`).toBe(shown);
    } finally {
      await browser.close();
    }
  });

  it.skipIf(unavailable !== null)("reports in Chromium what it reports in Node", async () => {
    const inNode = await nodeIn(
      library,
      `import { validateFile } from "syncfile";
       const files = process.argv.slice(1);
       const out = [];
       for (const file of files) {
         const r = await validateFile(file);
         out.push({ valid: r.valid, users: r.stats.users, codes: r.findings.map((f) => f.code) });
       }
       console.log(JSON.stringify(out));`,
      FIXTURES.map((f) => join(root, f)),
    );
    const node = JSON.parse(inNode.stdout) as { valid: boolean }[];
    expect(node.map((r) => r.valid)).toEqual([true, true, false, false]);
    const browser = await launchBrowser();
    try {
      const tab = await browser.newPage();
      const errors: string[] = [];
      tab.on("pageerror", (error) => errors.push(error.message));
      await tab.setContent(
        `<!doctype html><script type="module">${checker.replace(/<\/script/gi, "<\\/script")}</script>`,
      );
      await tab.waitForFunction("typeof globalThis.check === 'function'");
      const inBrowser: unknown[] = [];
      for (const file of FIXTURES) {
        const bytes = [...readFileSync(join(root, file))];
        inBrowser.push(
          await tab.evaluate(
            ([name, data]) =>
              (globalThis as unknown as { check: (n: unknown, d: unknown) => Promise<unknown> }).check(
                name,
                data,
              ),
            [file.split("/").pop(), bytes] as const,
          ),
        );
      }
      expect(errors).toEqual([]);
      expect(inBrowser).toEqual(node);
    } finally {
      await browser.close();
    }
  });
});

describe("the command line, installed", () => {
  let project: string;

  beforeAll(async () => {
    const names = ["syncfile", "@syncfile/client", "@syncfile/jobs", "@syncfile/cli"];
    project = await installInto(names.map((n) => tarballs[n] as string));
  }, INSTALL_MS);

  const syncfile = (args: string[]) =>
    runProcess(join(project, "node_modules/.bin/syncfile"), args, { cwd: project });

  it("lists every command, as from the repository", async () => {
    const commands = (help: string) => [...help.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]);
    const installed = await syncfile(["--help"]);
    expect(installed.code).toBe(0);
    const here = commands((await runCli(["--help"])).stdout);
    expect(here).toEqual(expect.arrayContaining(["validate", "push", "serve", "run", "pull"]));
    expect(commands(installed.stdout)).toEqual(here);
    const valid = await syncfile(["validate", join(root, "fixtures/valid/example.json")]);
    expect(valid.code).toBe(0);
  });

  it("give a TypeScript program the types of what it imports, from every package installed", async () => {
    writeFileSync(
      join(project, "program.ts"),
      [
        'import { type Report, validateFile } from "syncfile";',
        'import { createClient, pushFile } from "@syncfile/client";',
        'import { readJobFile, type RunRecord } from "@syncfile/jobs";',
        'const report: Report = await validateFile("users.json");',
        'const client = createClient({ baseUrl: "https://api.example.com", apiKey: "a-key" });',
        'const pushed = await pushFile(client, "users.json", { appAccount: 42 });',
        "const runs: RunRecord[] = [];",
        "export const seen: [boolean, unknown, number, number] = [report.valid, pushed, readJobFile.length, runs.length];",
        "",
      ].join("\n"),
    );
    const options = [
      "--noEmit",
      "--strict",
      "--module",
      "nodenext",
      "--target",
      "es2022",
      "--skipLibCheck",
      "false",
    ];
    const checked = await runProcess(
      process.execPath,
      [
        join(root, "node_modules/typescript/bin/tsc"),
        ...options,
        "--types",
        "node",
        "--typeRoots",
        join(root, "node_modules/@types"),
        "program.ts",
      ],
      { cwd: project },
    );
    expect(checked.stdout + checked.stderr).toBe("");
    expect(checked.code).toBe(0);
  });

  it("names the driver a job's source needs when it is not installed, and reads nothing", async () => {
    writeFileSync(
      join(project, "people.job.yaml"),
      [
        "jobs:",
        "  - name: people",
        "    source:",
        '      sql: { url: "postgres://syncfile@127.0.0.1:1/app", query: "SELECT email FROM users" }',
        '    service: { url: "http://127.0.0.1:1", apiKey: "a-key", appAccount: 42 }',
        "    state: ./state",
        "",
      ].join("\n"),
    );
    const pulled = await syncfile(["pull", "people.job.yaml"]);
    expect(pulled.stderr).toContain(
      "a sql source needs pg and pg-copy-streams, not installed beside @syncfile/jobs: run npm install pg pg-copy-streams",
    );
    expect(pulled.code).toBe(3);
    expect(pulled.stdout).toBe("");
  });

  it(
    "names the package serve needs, then serves once it is installed",
    async () => {
      const missing = await syncfile(["serve", "--port", "0"]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain(
        "syncfile serve needs @syncfile/server, which is not installed: run npm install @syncfile/server",
      );
      expect(missing.stderr).not.toMatch(/\n\s+at /);

      await installInto([tarballs["@syncfile/server"] as string], project);
      const port = await freePort();
      const data = mkdtempSync(join(tmpdir(), "syncfile-served-"));
      const server = spawn(
        join(project, "node_modules/.bin/syncfile"),
        ["serve", "--port", String(port), "--data", data],
        {
          cwd: project,
          stdio: "ignore",
        },
      );
      try {
        await waitFor(
          async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status === 200,
          "the installed server's /healthz",
        );
        const page = await fetch(`http://127.0.0.1:${port}/`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain("<html");
      } finally {
        if (server.exitCode === null && server.pid !== undefined) {
          server.kill("SIGTERM");
          await new Promise((resolve) => server.once("exit", resolve));
        }
      }
    },
    INSTALL_MS,
  );
});

describe("every package", () => {
  it.each(Object.keys(WORKSPACES))("%s passes publint", async (name) => {
    const { messages, pkg } = await publint({
      pkgDir: join(root, (WORKSPACES[name] as { dir: string }).dir),
      strict: true,
      pack: "npm",
    });
    const problems = messages.filter((m) => m.type !== "suggestion").map((m) => formatMessage(m, pkg));
    expect(problems).toEqual([]);
  });

  it.each(Object.keys(WORKSPACES))("%s passes arethetypeswrong (ESM only)", async (name) => {
    const attw = await runProcess(
      join(root, "node_modules/.bin/attw"),
      [tarballs[name] as string, "--profile", "esm-only", "--format", "ascii", "--no-color"],
      {},
    );
    expect(attw.code, attw.stdout).toBe(0);
  });
});
