// No secret is ever shown: a whole run of `syncfile serve` on PostgreSQL, Redis and a bucket
// whose URLs hold passwords, a client that reaches it through a proxy whose URL holds one too,
// and a database that goes away in the middle. Every line the server logs or prints, every
// body it answers and every line the client prints is searched for each password.

import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { afterAll, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { fixture } from "../support/paths.js";
import { freePort } from "../support/ports.js";
import { createTestDatabase } from "../support/postgres.js";
import { type ForwardProxy, type Passage, startForwardProxy, startPassage } from "../support/proxy.js";
import { bucket, call, dataDir, KEY, removeDataDirs, serveProcess } from "../support/server.js";
import { waitFor } from "../support/waitFor.js";

const secret = (what: string) => `${what}-${randomBytes(6).toString("hex")}`;
const SECRETS = {
  database: secret("dbpass"),
  databaseParameter: secret("dbquery"),
  redis: secret("redispass"),
  proxy: secret("proxypass"),
  baseUrl: secret("basepass"),
  signature: secret("sig"),
};

const stop: (() => unknown)[] = [];
afterAll(async () => {
  for (const step of stop.reverse()) await step();
  await removeDataDirs();
});

/** A Redis server of the test's own that asks for `password`, on a free port. */
async function redisWithPassword(password: string): Promise<string> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--requirepass",
      password,
      "--save",
      "",
      "--appendonly",
      "no",
    ],
    { stdio: "ignore" },
  );
  stop.push(() => child.kill());
  const url = `redis://:${password}@127.0.0.1:${port}`;
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const probe = createServer();
        probe.once("error", () => resolve(true)); // the port is taken: Redis listens
        probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(false)));
      }),
    "the test's Redis to listen",
  );
  return url;
}

it("no password of the database, Redis, the proxy or the base URL, nor a signature, reaches any output", async () => {
  const real = new URL(await createTestDatabase());
  const passage: Passage = await startPassage(real.hostname, Number(real.port));
  stop.push(() => passage.close());
  const database = new URL(real);
  database.port = String(passage.port);
  database.username = database.username || "postgres";
  database.password = SECRETS.database;
  database.searchParams.set("password", SECRETS.databaseParameter);
  const redis = await redisWithPassword(SECRETS.redis);
  const { url: storage } = await bucket();

  const serve = await serveProcess(await dataDir(), {}, [
    "--database",
    database.toString(),
    "--redis",
    redis,
    "--storage",
    storage,
  ]);
  stop.push(() => serve.child.kill());
  const bodies: string[] = [];
  const ask = async (method: string, path: string, options: Parameters<typeof call>[3] = {}) => {
    const answer = await call(serve.url, method, path, options);
    bodies.push(`${answer.status} ${method}: ${answer.text}`);
    return answer;
  };

  // a client through a proxy that asks for a password, to a base URL that holds one
  const forward: ForwardProxy = await startForwardProxy();
  stop.push(() => forward.close());
  const proxy = forward.url.replace("http://", `http://someone:${SECRETS.proxy}@`);
  const base = serve.url.replace("http://", `http://user:${SECRETS.baseUrl}@`);
  const env = { HTTP_PROXY: proxy, SYNCFILE_BASE_URL: base, SYNCFILE_API_KEY: KEY };
  const pushed = await runCli(["push", fixture("valid/example.json"), "--app-account", "7", "--no-compare"], {
    env,
  });
  expect(pushed.code, pushed.stderr).toBe(0);
  expect(forward.requests.length).toBeGreaterThan(0);
  // a malformed proxy URL: a `/` in its password, a port out of range
  const malformed = await runCli(["push", fixture("valid/example.json"), "--app-account", "7"], {
    env: { ...env, HTTP_PROXY: `http://someone:${SECRETS.proxy}/x@127.0.0.1:99999` },
  });
  expect(malformed.code).not.toBe(0);
  expect(malformed.stderr).toContain("is not a URL");

  await ask("GET", "/v1.0/appAccounts/7");
  // a signature whose parameter's name is percent-encoded is still one
  await ask("GET", `/v1.0/appAccounts/7?X%2DSignature=${SECRETS.signature}`);
  await ask("GET", `/storage/1/x.json?X-Expires=1&X-Signature=${SECRETS.signature}`, { key: null });

  // the database goes away: every call is a 503 that names it, and the log says so
  passage.cut();
  for (let i = 0; i < 3; i++) {
    const answer = await ask("GET", "/v1.0/accessReviews/campaigns");
    expect(answer.status).toBe(503);
    expect(answer.body.message).toMatch(/^the database postgres:\/\/.* is not answering/);
  }
  const ready = await ask("GET", "/readyz", { key: null });
  expect(ready.status).toBe(503);
  passage.restore();
  await waitFor(
    async () => (await ask("GET", "/v1.0/accessReviews/campaigns")).status === 200,
    "the server to serve again",
  );
  await waitFor(() => /answers again/.test(serve.output()), "the log to say the database is back");

  const outputs = {
    "the server's log and messages": serve.output(),
    "the server's answers": bodies.join("\n"),
    "the client's output": [pushed.stdout, pushed.stderr, malformed.stdout, malformed.stderr].join("\n"),
  };
  // what was searched holds what it should: the database's URL, redacted, and the requests
  expect(outputs["the server's log and messages"]).toContain("postgres://postgres:***@");
  expect(outputs["the server's log and messages"]).toContain("X%2DSignature=[redacted]");
  expect(outputs["the server's answers"]).toMatch(/is not answering/);
  for (const [where, text] of Object.entries(outputs)) {
    for (const [what, value] of Object.entries(SECRETS)) {
      expect(text.includes(value), `${what} in ${where}`).toBe(false);
    }
  }
});
