// One build a package (npm workspaces: the library at the top, the others in packages/). Each
// bundles its own folders of src/ and leaves every package it depends on as an import: the
// library's code is in the library's dist/ only, loaded once, whichever package asks for it.

import { readdirSync, readFileSync } from "node:fs";
import { defineConfig, type Options } from "tsup";
import { WORKSPACES } from "./scripts/packages.mjs";

interface Manifest {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** What `dir`'s package depends on, each name and its subpaths, as tsup's `external`. */
function dependenciesOf(dir: string): RegExp[] {
  const manifest = JSON.parse(readFileSync(`${dir}/package.json`, "utf8")) as Manifest;
  const names = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  return names.map((name) => new RegExp(`^${name.replace(/[/.]/g, "\\$&")}(/|$)`));
}

/**
 * The modules of `name` that the other packages import, as they name them: `name/internal/X.js`
 * is src/X.ts, built as an entry of its own into dist/internal/X.js (the `./internal/*.js` of its
 * exports). One entry a module, not one barrel: what a command imports loads what it needs and no
 * more, as it did in one package (the CLI's --help loads commander only).
 */
function internalsOf(name: string): Record<string, string> {
  const pattern = new RegExp(`["']${name.replace(/[/.]/g, "\\$&")}/internal/([\\w/.-]+)\\.js["']`, "g");
  const entries: Record<string, string> = {};
  for (const file of readdirSync("src", { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts")) continue;
    for (const [, path] of readFileSync(`src/${file}`, "utf8").matchAll(pattern)) {
      entries[`internal/${path}`] = `src/${path}.ts`;
    }
  }
  return entries;
}

/** The build of the package `name`: `entry` and its internal entries into its folder's dist/. */
function build(name: string, entry: Record<string, string>): Options {
  const { dir } = WORKSPACES[name] as { dir: string };
  const internals = internalsOf(name);
  return {
    entry: { ...entry, ...internals },
    outDir: `${dir}/dist`,
    external: dependenciesOf(dir),
    format: ["esm"],
    target: "node20",
    platform: "node",
    // the declarations: one tsc for every package (scripts/place-types.mjs)
    dts: false,
    sourcemap: true,
    clean: true,
    splitting: true,
    shims: false,
  };
}

export default defineConfig([
  build("syncfile", {
    index: "src/index.ts",
    // the decoding thread of jsonParallel, loaded from next to it
    "json-worker": "src/pass/_jsonWorker.ts",
    // the CSV parsing thread of csvParallel
    "csv-worker": "src/pass/_csvWorker.ts",
    // the thread that reads a workbook's sheet, in xlsxParallel
    "xlsx-worker": "src/pass/_xlsxWorker.ts",
    // the thread that reads OLD while NEW is read, in diffFiles
    "diff-worker": "src/diff/_sideWorker.ts",
  }),
  build("@syncfile/client", { index: "src/client/index.ts" }),
  build("@syncfile/server", {
    index: "src/server/index.ts",
    // the embedded database's thread (PGlite), started by repositories/_pgliteThread.ts
    "pglite-worker": "src/server/repositories/_pgliteWorker.ts",
  }),
  build("@syncfile/jobs", { index: "src/jobs/index.ts" }),
  build("@syncfile/cli", { cli: "src/cli/main.ts" }),
]);
