import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    server: "src/server/index.ts",
    client: "src/client/index.ts",
    jobs: "src/jobs/index.ts",
    cli: "src/cli/main.ts",
    // the decoding thread of jsonParallel, loaded from next to it
    "json-worker": "src/pass/_jsonWorker.ts",
    // the CSV parsing thread of csvParallel
    "csv-worker": "src/pass/_csvWorker.ts",
    // the thread that reads a workbook's sheet, in xlsxParallel
    "xlsx-worker": "src/pass/_xlsxWorker.ts",
    // the thread that reads OLD while NEW is read, in diffFiles
    "diff-worker": "src/diff/_sideWorker.ts",
    // the embedded database's thread (PGlite), started by repositories/_pgliteThread.ts
    "pglite-worker": "src/server/repositories/_pgliteWorker.ts",
  },
  format: ["esm"],
  target: "node20",
  platform: "node",
  dts: {
    entry: {
      index: "src/index.ts",
      server: "src/server/index.ts",
      client: "src/client/index.ts",
      jobs: "src/jobs/index.ts",
    },
  },
  sourcemap: true,
  clean: true,
  splitting: true,
  shims: false,
});
