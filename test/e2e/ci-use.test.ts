// Drop-in CI use: the GitHub Action (action.yml) and the pre-commit hook (.pre-commit-hooks.yaml)
// run their commands here as GitHub and pre-commit would, on the built CLI.

import { existsSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runProcess } from "../support/cli.js";
import { root } from "../support/paths.js";

const valid = "fixtures/valid/example.json";
const invalid = "fixtures/invalid/user.email.format.json";
const warning = "fixtures/invalid/user.property.unknown.json";

interface ActionStep {
  name: string;
  shell: string;
  run: string;
  env?: Record<string, string>;
  "working-directory"?: string;
}

interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  runs: { using: string; steps: ActionStep[] };
}

/** A GitHub Actions expression as written in a workflow: `${{ inputs.files }}`. */
const expression = (e: string) => `\${{ ${e} }}`;

const action = parse(readFileSync(`${root}action.yml`, "utf8")) as Action;
const [install, validate] = action.runs.steps as [ActionStep, ActionStep];

/**
 * Runs the action's validate step as a runner does: its `${{ inputs.… }}` in the environment
 * filled from `inputs` and the defaults, GITHUB_ACTION_PATH the action's checkout (this
 * repository, built), bash as GitHub starts it, in the workspace (the repository too).
 */
function runValidateStep(inputs: Record<string, string>) {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(validate.env ?? {})) {
    env[name] = value.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, input: string) => {
      const declared = action.inputs[input];
      if (!declared) throw new Error(`the step reads inputs.${input}, which action.yml does not declare`);
      return inputs[input] ?? declared.default ?? "";
    });
    expect(env[name], `${name} holds only inputs`).not.toContain("${{");
  }
  return runProcess("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", validate.run], {
    env: { ...process.env, ...env, GITHUB_ACTION_PATH: root.replace(/\/$/, "") },
  });
}

describe("the GitHub Action", () => {
  it("is a composite action: npm ci in its own checkout, then the validate step", () => {
    expect(action.runs.using).toBe("composite");
    expect(action.inputs.files?.required).toBe(true);
    expect(Object.keys(action.inputs)).toEqual(["files", "strict", "sheet", "sarif"]);
    expect(install["working-directory"]).toBe(expression("github.action_path"));
    expect(install.run).toMatch(/^npm ci\b/);
    // npm ci runs prepare, which builds the CLI the next step runs
    const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8"));
    expect(manifest.scripts.prepare).toMatch(/^tsup\b/);
    const cli = JSON.parse(readFileSync(`${root}packages/cli/package.json`, "utf8"));
    expect(cli.bin.syncfile).toBe("dist/cli.js");
    expect(validate.run).toContain('"$GITHUB_ACTION_PATH/packages/cli/dist/cli.js" validate --format github');
    for (const step of action.runs.steps) expect(step.shell).toBe("bash");
  });

  it("takes its inputs from the environment, never into the script", () => {
    expect(validate.run).not.toContain("${{");
    expect(Object.values(validate.env ?? {})).toEqual(
      ["files", "strict", "sheet", "sarif"].map((input) => expression(`inputs.${input}`)),
    );
  });

  it("passes valid files, globs expanded, with a summary line each", async () => {
    const r = await runValidateStep({
      files: `${valid}\nfixtures/valid/*.csv  fixtures/**/valid/licenses-first.json`,
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${valid}: valid (0 errors, 0 warnings)`);
    expect(r.stdout).toContain("fixtures/valid/example.csv: valid");
    expect(r.stdout).toContain("fixtures/valid/licenses-first.json: valid");
    expect(r.stdout).not.toContain("::error");
  });

  it("fails on an invalid file, each finding an annotation on it", async () => {
    const r = await runValidateStep({ files: `${valid} ${invalid}` });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      new RegExp(`^::error file=${invalid},line=4,col=16,title=user\\.email\\.format::email`, "m"),
    );
    expect(r.stdout).toContain(`${invalid}: invalid (1 error, 0 warnings)`);
  });

  it("makes warnings fail with strict, and reads the sheet named", async () => {
    expect((await runValidateStep({ files: warning })).code).toBe(0);
    const strict = await runValidateStep({ files: warning, strict: "true" });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/^::error file=.*title=user\.property\.unknown::/m);
    const sheet = await runValidateStep({ files: "fixtures/workbooks/second-sheet.xlsx", sheet: "Users" });
    expect(sheet.code).toBe(0);
    expect(sheet.stdout).toContain("second-sheet.xlsx: valid");
  });

  it("also writes a SARIF log on request, invalid files included, for upload-sarif", async () => {
    const sarif = join(mkdtempSync(join(tmpdir(), "syncfile-action-")), "syncfile.sarif");
    const r = await runValidateStep({ files: `${valid} ${invalid}`, sarif });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("::error file=");
    const log = JSON.parse(readFileSync(sarif, "utf8"));
    expect(log.version).toBe("2.1.0");
    expect(log.runs[0].results.map((x: { ruleId: string }) => x.ruleId)).toEqual(["user.email.format"]);
  });

  it("runs nothing it is given: a file name is a name, a glob that matches none fails", async () => {
    const marker = join(mkdtempSync(join(tmpdir(), "syncfile-action-")), "pwned");
    const r = await runValidateStep({ files: `${valid} $(touch ${marker}) \`touch ${marker}\`` });
    expect(existsSync(marker)).toBe(false);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("syncfile: cannot read $(touch: no such file or directory");
    const none = await runValidateStep({ files: "nowhere/*.json" });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain("syncfile: cannot read nowhere/*.json");
    const empty = await runValidateStep({ files: " \n" });
    expect(empty.code).toBe(2);
    expect(empty.stdout).toContain("::error title=syncfile::the files input names no file");
  });
});

interface Hook {
  id: string;
  name: string;
  entry: string;
  language: string;
  files: string;
  pass_filenames: boolean;
  additional_dependencies?: string[];
}

// the keys pre-commit reads from a hook definition (pre-commit.com, "Creating new hooks")
const HOOK_KEYS = new Set([
  "id",
  "name",
  "entry",
  "language",
  "files",
  "exclude",
  "types",
  "types_or",
  "exclude_types",
  "always_run",
  "fail_fast",
  "verbose",
  "pass_filenames",
  "additional_dependencies",
  "require_serial",
  "description",
  "language_version",
  "minimum_pre_commit_version",
  "args",
  "stages",
]);

describe("the pre-commit hook", () => {
  const hooks = parse(readFileSync(`${root}.pre-commit-hooks.yaml`, "utf8")) as Hook[];
  const hook = hooks.find((h) => h.id === "syncfile-validate") as Hook;

  /** This repository's package of each name: the library at the top, the others in packages/. */
  const folderOf = (name: string) => (name === "syncfile" ? root : `${root}packages/${name.split("/")[1]}/`);

  /**
   * Runs the hook as pre-commit does: the staged names its `files` pattern matches appended to
   * the entry, the entry's command a bin of the packages it installs (this repository's and its
   * additional_dependencies, all of this version: npm links their bins on PATH).
   */
  function runHook(staged: string[]) {
    const bin = mkdtempSync(join(tmpdir(), "syncfile-hook-"));
    const [command = "", ...args] = hook.entry.split(/\s+/);
    const installed = [
      "syncfile",
      ...(hook.additional_dependencies ?? []).map((d) => d.replace(/@[^@/]+$/, "")),
    ];
    const linked = installed.flatMap((name) => {
      const manifest = JSON.parse(readFileSync(`${folderOf(name)}package.json`, "utf8"));
      return manifest.bin?.[command] ? [join(folderOf(name), manifest.bin[command])] : [];
    });
    expect(linked, `one package installed gives ${command}`).toHaveLength(1);
    symlinkSync(linked[0] as string, join(bin, command));
    const files = staged.filter((name) => new RegExp(hook.files).test(name));
    return runProcess(command, [...args, ...files], {
      env: { ...process.env, PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH}` },
    });
  }

  it("is a node hook that runs syncfile validate on the staged data files", () => {
    expect(hooks).toHaveLength(1);
    for (const key of Object.keys(hook)) expect(HOOK_KEYS, key).toContain(key);
    expect(hook).toMatchObject({ language: "node", entry: "syncfile validate", pass_filenames: true });
    // the command line is @syncfile/cli, pinned to the version of this checkout's library
    const version = JSON.parse(readFileSync(`${root}package.json`, "utf8")).version;
    expect(hook.additional_dependencies).toEqual([`@syncfile/cli@${version}`]);
    const pattern = new RegExp(hook.files);
    for (const name of [valid, "data/users.csv", "hr/export.xlsx"]) expect(name).toMatch(pattern);
    for (const name of ["README.md", "users.json.bak", "old.xls"]) expect(name).not.toMatch(pattern);
  });

  it("passes valid files", async () => {
    const r = await runHook([valid, "README.md", "fixtures/valid/example.csv"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${valid}: valid`);
    expect(r.stdout).toContain("fixtures/valid/example.csv: valid");
  });

  it("fails on an invalid file, with the finding", async () => {
    const r = await runHook([valid, invalid]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${invalid}:4:16: error user.email.format: email "grace.example.com"`);
  });
});

describe("docs/ci.md", () => {
  const page = readFileSync(`${root}docs/ci.md`, "utf8");
  const snippets = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1] as string));
  // biome-ignore lint/suspicious/noExplicitAny: a workflow snippet read back, looked into by test
  const workflows = snippets.filter((s) => s?.jobs) as any[];

  it("lists exactly the action's inputs, with their defaults", () => {
    const rows = [...page.matchAll(/^\| `([a-z-]+)` +\| (yes|no) +\| ([^|]*?) *\|/gm)].map((m) => [
      m[1],
      m[2] === "yes",
      m[3]?.replace(/`/g, ""),
    ]);
    expect(rows).toEqual(
      Object.entries(action.inputs).map(([name, i]) => [name, i.required === true, i.default ?? ""]),
    );
  });

  it("uses the action with inputs it declares, and uploads the SARIF file it writes", () => {
    expect(workflows).toHaveLength(2);
    for (const workflow of workflows) {
      const steps = workflow.jobs.validate.steps as { uses?: string; with?: Record<string, string> }[];
      const ours = steps.find((s) => s.uses === "<owner>/syncfile@<ref>");
      expect(ours?.with?.files).toBeTruthy();
      for (const input of Object.keys(ours?.with ?? {})) expect(action.inputs).toHaveProperty(input);
      const upload = steps.find((s) => s.uses?.startsWith("github/codeql-action/upload-sarif@"));
      if (upload) expect(upload.with?.sarif_file).toBe(ours?.with?.sarif);
    }
    expect(workflows.some((w) => JSON.stringify(w).includes("upload-sarif"))).toBe(true);
  });

  it("configures pre-commit with the hook this repository defines", () => {
    const config = snippets.find((s) => s?.repos);
    const hooks = parse(readFileSync(`${root}.pre-commit-hooks.yaml`, "utf8")) as { id: string }[];
    expect(config.repos[0]).toMatchObject({ repo: "https://github.com/<owner>/syncfile", rev: "<ref>" });
    expect(hooks.map((h) => h.id)).toContain(config.repos[0].hooks[0].id);
    const pattern = new RegExp(config.repos[0].hooks[0].files);
    expect("data/users.json").toMatch(pattern);
    expect("package.json").not.toMatch(pattern);
  });
});
