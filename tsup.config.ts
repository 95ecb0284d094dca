import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    server: "src/server/index.ts",
    client: "src/client/index.ts",
    cli: "src/cli/main.ts",
    // the threads of validateParallel, loaded from next to it
    "scan-worker": "src/validate/_scanWorker.ts",
    "check-worker": "src/validate/_checkWorker.ts",
    // the CSV reading thread of readCsvParallel
    "csv-worker": "src/validate/_csvWorker.ts",
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
