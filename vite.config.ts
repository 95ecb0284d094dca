// The page `syncfile serve` shows at / (web/index.html and src/web/), built into dist/web/ after
// tsup (whose clean would remove it). The library's browser build: a module X.ts with a sibling
// X.browser.ts is replaced by it (the platform seams: spill storage in memory, Buffer from the
// `buffer` package…), and a node builtin reached from the page fails the build instead of being
// stubbed out to fail in the browser.

import { existsSync } from "node:fs";
import { builtinModules } from "node:module";
import { defineConfig, type Plugin } from "vite";

/** The bare builtins that npm packages of the same name stand in for in a browser. */
const BROWSER_PACKAGES = new Set(["buffer"]);

/** True for a Node builtin module's name (`node:fs`, `fs`), bar the ones packages stand in for. */
export const isBuiltin = (source: string) =>
  source.startsWith("node:") || (builtinModules.includes(source) && !BROWSER_PACKAGES.has(source));

/** The browser sibling of the module at `path` (X.ts → X.browser.ts), if it has one; the bundle test's rule too. */
export function browserSibling(path: string): string | null {
  const sibling = path.replace(/\.ts$/, ".browser.ts");
  return sibling !== path && existsSync(sibling) ? sibling : null;
}

function browserSiblings(): Plugin {
  return {
    name: "syncfile-browser-siblings",
    enforce: "pre",
    // a package's import() of a builtin behind its own "in Node?" test (stream-chain's of
    // node:string_decoder) stays as it is: it never runs in a browser
    resolveDynamicImport(specifier, importer) {
      return typeof specifier === "string" && isBuiltin(specifier) && importer?.includes("/node_modules/")
        ? false
        : null;
    },
    async resolveId(source, importer, options) {
      if (isBuiltin(source)) {
        this.error(
          `${importer ?? "the page"} imports the node builtin "${source}": the page runs in a browser`,
        );
      }
      if (!importer || !source.startsWith(".")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) return null;
      return browserSibling(resolved.id);
    },
  };
}

export default defineConfig({
  root: "web",
  // relative URLs: the built page works from any folder or host, not only at /
  base: "./",
  plugins: [browserSiblings()],
  worker: { format: "es", plugins: () => [browserSiblings()] },
  build: {
    outDir: "../packages/server/dist/web",
    emptyOutDir: true,
    target: "es2022",
    reportCompressedSize: false,
    // every asset a file of its own: the page's CSP allows no data: URLs
    assetsInlineLimit: 0,
  },
});
