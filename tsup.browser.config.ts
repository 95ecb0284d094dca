// The library's browser build (dist/browser.js, the `browser` condition of its exports): the
// browser entry (src/browser.ts) with each module X.ts that has a sibling X.browser.ts resolved to
// the sibling, as the page's Vite build does. It holds its dependencies too (the `buffer`
// package, csv-parse's and csv-stringify's browser code, the ZIP and XML readers), so that a web
// app's bundler (Vite, esbuild, webpack) takes it as it is: nothing to polyfill, nothing to
// configure. Built after the Node build (tsup.config.ts), whose clean would remove it.

import { resolve } from "node:path";
import type { Plugin } from "esbuild";
import { defineConfig } from "tsup";
import { browserSibling, isBuiltin } from "./vite.config.js";

/** X.js (meaning X.ts) → X.browser.ts where there is one; a Node builtin reached from src/ fails the build. */
const browserSiblings: Plugin = {
  name: "syncfile-browser-siblings",
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.importer.includes("/node_modules/")) return undefined;
      const sibling = browserSibling(resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts")));
      return sibling ? { path: sibling } : undefined;
    });
    build.onResolve({ filter: /.*/ }, (args) => {
      if (!isBuiltin(args.path)) return undefined;
      // a package's import() of a builtin behind its own "in Node?" test (stream-chain's of
      // node:string_decoder) never runs in a browser: it becomes a module that says so
      if (args.kind === "dynamic-import" && args.importer.includes("/node_modules/")) {
        return { path: args.path, namespace: "node-only" };
      }
      return {
        errors: [
          {
            text: `${args.importer} imports the node builtin "${args.path}": the library's browser build runs in a browser`,
          },
        ],
      };
    });
    build.onLoad({ filter: /.*/, namespace: "node-only" }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is Node's, not a browser's`)});`,
      loader: "js",
    }));
  },
};

export default defineConfig({
  entry: { browser: "src/browser.ts" },
  outDir: "dist",
  format: ["esm"],
  platform: "browser",
  target: "es2022",
  noExternal: [/.*/],
  esbuildPlugins: [browserSiblings],
  // its declarations: dist/types/browser.d.ts (scripts/place-types.mjs)
  dts: false,
  sourcemap: true,
  clean: false,
  splitting: false,
  shims: false,
});
