// The packages as a user gets them: each workspace packed as publishing packs it, and the
// tarballs installed into an empty folder with no dev dependencies. Used by the test of the
// packages (test/e2e/packages.test.ts) and by scripts/install-sizes.mjs.

import { spawn } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * Each package of the repository: its folder, and the folders of src/ it is built from ("." the
 * files at the top of src/: the library's entries). src/web is the page @syncfile/server ships,
 * built whole by Vite from the library's sources: it imports them as the library does.
 */
export const WORKSPACES = {
  syncfile: {
    dir: ".",
    folders: [
      ".",
      "bytes",
      "text",
      "spill",
      "schema",
      "report",
      "model",
      "mapping",
      "json",
      "csv",
      "xlsx",
    ].concat(["checks", "pass", "validate", "convert", "diff", "http", "web"]),
  },
  "@syncfile/client": { dir: "packages/client", folders: ["client"] },
  "@syncfile/server": { dir: "packages/server", folders: ["server"] },
  "@syncfile/jobs": { dir: "packages/jobs", folders: ["sources", "jobs"] },
  "@syncfile/cli": { dir: "packages/cli", folders: ["cli"] },
};

/** npm's own variables of a parent `npm test` (npm_config_*…) left out: each npm here is a user's. */
const userEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

/** Runs npm with `args` in `cwd`; its standard output, or an error with what it said. */
export function npm(args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", args, { cwd, env: userEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`npm ${args.join(" ")} (in ${cwd}) exited ${code}:\n${stderr}`)),
    );
  });
}

/** Packs every workspace (built: `npm run build` first) into `into`; the tarball of each name. */
export async function packAll(into) {
  const tarballs = {};
  for (const [name, { dir }] of Object.entries(WORKSPACES)) {
    const out = await npm(
      ["pack", "--ignore-scripts", "--json", "--pack-destination", into],
      join(root, dir),
    );
    tarballs[name] = join(into, JSON.parse(out)[0].filename);
  }
  return tarballs;
}

/**
 * `tarballs` installed into `folder`, a user's project that has them already, or by default a new
 * one with a package.json of its own; the folder.
 */
export async function installInto(tarballs, folder) {
  if (folder === undefined) {
    folder = mkdtempSync(join(tmpdir(), "syncfile-user-"));
    const manifest = { name: "a-users-project", private: true, type: "module" };
    writeFileSync(join(folder, "package.json"), `${JSON.stringify(manifest)}\n`);
  }
  await npm(
    [
      "install",
      "--omit=dev",
      "--no-audit",
      "--no-fund",
      "--no-package-lock",
      "--prefer-offline",
      ...tarballs,
    ],
    folder,
  );
  return folder;
}

/** The bytes of the files under `path` (what they hold: no block rounding, folders not counted). */
export const sizeOf = (path) => walk(path, (stat) => (stat.isDirectory() ? 0 : stat.size));

/** The disk the files under `path` take, as `du` counts it (whole blocks). */
export const diskUsageOf = (path) => walk(path, (stat) => stat.blocks * 512);

/** `measure` summed over `path` and everything under it, links not followed. */
function walk(path, measure) {
  const stat = lstatSync(path);
  const own = measure(stat);
  if (!stat.isDirectory()) return own;
  return readdirSync(path).reduce((sum, entry) => sum + walk(join(path, entry), measure), own);
}
