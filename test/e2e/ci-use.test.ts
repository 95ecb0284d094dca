// Drop-in CI use: the GitHub Action (action.yml) runs its command here as GitHub would, on the
// built CLI.

import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
    expect(manifest.bin.syncfile).toBe("dist/cli.js");
    expect(validate.run).toContain('"$GITHUB_ACTION_PATH/dist/cli.js" validate --format github');
    for (const step of action.runs.steps) expect(step.shell).toBe("bash");
  });

  it("takes its inputs from the environment, never into the script", () => {
    expect(validate.run).not.toContain("${{");
    expect(Object.values(validate.env ?? {})).toEqual(
      ["files", "strict", "sheet", "sarif"].map((input) => expression(`inputs.${input}`)),
    );
  });

  it("passes valid files, globs expanded, with a summary line each", async () => {
    const r = await runValidateStep({ files: `${valid}\nfixtures/valid/*.csv` });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${valid}: valid (0 errors, 0 warnings)`);
    expect(r.stdout).toContain("fixtures/valid/example.csv: valid");
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
