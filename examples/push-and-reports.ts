import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError, collectReports, createClient, pushFile } from "@syncfile/client";
import { createServer } from "@syncfile/server";

// the service on a free port (see syncfile serve); any base URL and key work the same way
const dataDir = await mkdtemp(join(tmpdir(), "syncfile-example-"));
const server = await createServer({ dataDir, port: 0, apiKeys: ["example-key"], seed: "fixtures/seed.json" });
const client = createClient({ baseUrl: server.url, apiKey: "example-key" });
try {
  // checked here first: an invalid file is never sent
  const refused = await pushFile(client, "fixtures/invalid/license.user.duplicate.json", { appAccount: 1 });
  console.log("synced:", refused.synced, refused.report.findings.map((f) => f.code).join(", "));
  // a valid one: upload URL, storage PUT, registration, then the sync (waiting while another runs)
  const pushed = await pushFile(client, "fixtures/valid/example.csv", { appAccount: 1 });
  if (pushed.synced)
    console.log(
      "synced:",
      pushed.synced,
      `${pushed.summary.users} users, ${pushed.summary.licenses} licenses`,
    );

  // one typed method per operation; a failure is an ApiError naming the call
  try {
    await client.appAccount(99);
  } catch (error) {
    if (error instanceof ApiError) console.log(error.status, error.message);
  }

  // every finished execution's report archive, once (a state file in the folder remembers)
  await server.generateReports();
  const pass = await collectReports(client, { dir: join(dataDir, "reviews") });
  console.log(
    "reports of executions",
    pass.downloaded
      .map((r) => r.execution.id)
      .sort()
      .join(", "),
  );
} finally {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
