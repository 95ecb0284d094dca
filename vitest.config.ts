import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // the examples import the package by name, as a user would
  resolve: {
    alias: [
      {
        find: /^syncfile\/client$/,
        replacement: fileURLToPath(new URL("./src/client/index.ts", import.meta.url)),
      },
      {
        find: /^syncfile\/server$/,
        replacement: fileURLToPath(new URL("./src/server/index.ts", import.meta.url)),
      },
      { find: /^syncfile$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // `npm run test:unit` is the inner loop: in-process, seconds, no build needed. `e2e` runs
    // what a user runs: the built CLI and worker threads, servers over real HTTP, processes.
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/unit/**/*.test.ts", "src/**/*.test.ts"] },
      },
      { extends: true, test: { name: "e2e", include: ["test/e2e/**/*.test.ts"] } },
    ],
  },
});
