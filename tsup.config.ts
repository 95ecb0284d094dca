import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    server: "src/server/index.ts",
    client: "src/client/index.ts",
    cli: "src/cli/main.ts",
    // the decoding thread of validateParallel, loaded from next to it
    "json-worker": "src/validate/_jsonWorker.ts",
    // the CSV reading thread of readCsvParallel
    "csv-worker": "src/validate/_csvWorker.ts",
    // the embedded database's thread (PGlite), started by repositories/_pgliteThread.ts
    "pglite-worker": "src/server/repositories/_pgliteWorker.ts",
  },
  format: ["esm"],
  target: "node20",
  platform: "node",
  dts: { entry: { index: "src/index.ts", server: "src/server/index.ts", client: "src/client/index.ts" } },
  sourcemap: true,
  clean: true,
  splitting: true,
  shims: false,
});
