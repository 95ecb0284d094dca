import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type ExecutionList, type SyncSummary } from "@syncfile/server";

// the service on a free port, with its data in a temporary folder
const dataDir = await mkdtemp(join(tmpdir(), "syncfile-example-"));
const server = await createServer({ dataDir, port: 0, apiKeys: ["example-key"], seed: "fixtures/seed.json" });
const api = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
  const headers: Record<string, string> = { authorization: "Bearer example-key" };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${server.url}${path}`, { method, headers, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as T };
};
try {
  // 1. ask for an upload URL; 2. PUT the bytes to it (the URL is its own authorisation); 3. register the file
  type UploadUrl = { uploadFileParameters: { url: string; filePath: string } };
  const { body: step1 } = await api<UploadUrl>(
    "GET",
    "/v1.0/files/url?name=users.json&type=application/json",
  );
  const { url, filePath } = step1.uploadFileParameters;
  const bytes = await readFile("fixtures/valid/example.json");
  await fetch(url, { method: "PUT", headers: { "content-type": "application/json" }, body: bytes });
  const { body: file } = await api<{ id: number }>("POST", "/v1.0/files", {
    path: filePath,
    type: "customIntegrationData",
  });
  // sync it into app account 1, and look at what the sync left
  const sync = await api<SyncSummary>("PUT", "/v1.0/services/sync/custom", {
    idFile: file.id,
    idAppAccount: 1,
  });
  console.log(sync.status, `${sync.body.activeUsers} of ${sync.body.users} users active`);
  type Account = { licenses: { name: string; pricePerUser: number; users: Record<string, number> }[] };
  const { body: account } = await api<Account>("GET", "/v1.0/appAccounts/1");
  for (const license of account.licenses) {
    console.log(license.name, license.pricePerUser, JSON.stringify(license.users));
  }
  const { body: reviews } = await api<ExecutionList>("GET", "/v1.0/accessReviews/campaigns?limit=2");
  console.log(reviews.completedExecutions.map((e) => `${e.id} ${e.state}`).join(", "));
} finally {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
