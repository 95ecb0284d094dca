// Global setup of the e2e projects: the empty embedded database that the tests' data
// directories are copied from (see dataDir in server.ts), made once for the whole run rather
// than once in each test file's process. Creating a PGlite cluster takes seconds (6 to 7 on a
// loaded CI machine), and some twenty files start servers; copying a closed one takes
// milliseconds. Removed when the run ends.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "syncfile-server-template-"));
  const { Database } = await import("../../src/server/repositories/Database.js");
  await (await Database.open(dir)).close();
  process.env.SYNCFILE_TEST_TEMPLATE = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
