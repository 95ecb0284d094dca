import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { POSTGRES_URL, postgresUnavailable } from "./test/support/postgres.js";
import { S3_ENV } from "./test/support/s3.js";

// The HTTP suite runs a second time on PostgreSQL and an S3 bucket (s3rver, started by the
// tests) when a PostgreSQL server answers (SYNCFILE_TEST_POSTGRES_URL, default
// postgres://postgres@127.0.0.1:5432/postgres).
const postgres = await postgresUnavailable();
if (postgres !== null) {
  if (process.env.SYNCFILE_REQUIRE_POSTGRES === "1") {
    throw new Error(`SYNCFILE_REQUIRE_POSTGRES=1 but ${postgres}`);
  }
  // said once, though vitest reads this file again for each project
  if (!process.env.SYNCFILE_POSTGRES_SKIP_SAID) {
    process.env.SYNCFILE_POSTGRES_SKIP_SAID = "1";
    process.stdout.write(`the PostgreSQL suite (e2e-postgres) is skipped: ${postgres}\n`);
  }
}
const HTTP_SUITE = [
  "test/e2e/server.test.ts",
  "test/e2e/server.history.test.ts",
  "test/e2e/server.store.test.ts",
  "test/e2e/server.files.test.ts",
  "test/e2e/server.operations.test.ts",
  "test/e2e/server.hardening.test.ts",
  "test/e2e/client.test.ts",
  "test/e2e/reports.test.ts",
  "test/postgres/**/*.test.ts", // what only several instances on one database can show
];

const TEMPLATE_SETUP = "test/support/templateSetup.ts";

export default defineConfig({
  // the examples import the package by name, as a user would
  resolve: {
    alias: [
      // what a package imports of another's modules (tsup.config.ts): its source
      {
        find: /^(?:syncfile|@syncfile\/(?:client|jobs|server))\/internal\/(.+)\.js$/,
        replacement: fileURLToPath(new URL("./src/$1.ts", import.meta.url)),
      },
      ...[
        ["syncfile", "./src/index.ts"],
        ["@syncfile/client", "./src/client/index.ts"],
        ["@syncfile/jobs", "./src/jobs/index.ts"],
        ["@syncfile/server", "./src/server/index.ts"],
      ].map(([name, path]) => ({
        find: new RegExp(`^${name}$`),
        replacement: fileURLToPath(new URL(path as string, import.meta.url)),
      })),
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // two files at a time on two CPUs: most tests wait on servers, processes and databases, and
    // one at a time (vitest's default here: CPUs - 1) took the suite past 11 minutes
    maxWorkers: 2,
    // `npm run test:unit` is the inner loop: in-process, seconds, no build needed. `e2e` runs
    // what a user runs: the built CLI and worker threads, servers over real HTTP, processes.
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/unit/**/*.test.ts", "src/**/*.test.ts"] },
      },
      // one empty embedded database for the run, copied by every test's data directory
      {
        extends: true,
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], globalSetup: [TEMPLATE_SETUP] },
      },
      ...(postgres === null
        ? [
            {
              extends: true as const,
              test: {
                name: "e2e-postgres",
                include: HTTP_SUITE,
                env: {
                  SYNCFILE_TEST_BACKEND: "postgres",
                  SYNCFILE_TEST_POSTGRES_URL: POSTGRES_URL,
                  ...S3_ENV,
                },
                globalSetup: ["test/support/postgresSetup.ts", TEMPLATE_SETUP],
              },
            },
          ]
        : []),
    ],
  },
});
