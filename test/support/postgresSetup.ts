// Global setup of the e2e-postgres project: a prefix for this run's databases, and their
// removal when the project ends.

import { randomBytes } from "node:crypto";

export async function setup(): Promise<() => Promise<void>> {
  process.env.SYNCFILE_TEST_DATABASE_PREFIX = `syncfile_test_${randomBytes(3).toString("hex")}_`;
  const { dropTestDatabases } = await import("./postgres.js");
  return dropTestDatabases;
}
