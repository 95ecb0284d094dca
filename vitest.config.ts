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
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
