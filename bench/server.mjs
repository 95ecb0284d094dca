// The server under load: requests per second and p99 latency of the campaigns list with many
// concurrent connections (autocannon), and the time and peak RSS of syncing a 200 MB file,
// against `syncfile serve` running as its own process, as a user runs it.

import { spawn } from "node:child_process";
import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import autocannon from "autocannon";
import pg from "pg";
import { procStatus } from "./_measure.mjs";

export const KEYS = Array.from({ length: 500 }, (_, i) => `bench-key-${i}`);

/** Starts `syncfile serve` on `dataDir` (default: a fresh one, removed at stop); resolves to {url, pid, stop()}. */
export async function startServe(cli, root, dataDir = null) {
  const data = dataDir ?? mkdtempSync(join(tmpdir(), "syncfile-bench-serve-"));
  const child = spawn(
    process.execPath,
    [cli, "serve", "--port", "0", "--data", data, "--seed", `${root}fixtures/seed.json`],
    {
      // no drain at stop: nothing balances load here
      env: { ...process.env, SYNCFILE_API_KEYS: KEYS.join(","), SYNCFILE_DRAIN_DELAY: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  const url = await new Promise((resolve, reject) => {
    // its address is on standard error, its log (a JSON line a request) on standard output
    const onData = (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`serve exited (${code}): ${out}`)));
  });
  return {
    url,
    pid: child.pid,
    output: () => out,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      if (!dataDir) rmSync(data, { recursive: true, force: true });
    },
  };
}

/** The campaigns list under `connections` concurrent connections for `seconds`, keys in turn. */
export async function loadCampaigns(url, { connections = 32, seconds = 10 } = {}) {
  let next = 0;
  const result = await autocannon({
    url: `${url}/v1.0/accessReviews/campaigns?limit=100`,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, authorization: `Bearer ${KEYS[next++ % KEYS.length]}` },
        }),
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * Uploads `path` (three steps), syncs it and measures the sync: seconds, the server's peak RSS,
 * and its RSS just before the sync (`before`: what the server holds idle, the database included).
 */
export async function syncFile(url, pid, path) {
  const auth = { authorization: `Bearer ${KEYS[0]}` };
  const json = async (method, route, body) => {
    const r = await fetch(`${url}${route}`, {
      method,
      headers: { ...auth, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${route}: ${r.status} ${text}`);
    return JSON.parse(text);
  };
  const { uploadFileParameters: target } = await json(
    "GET",
    `/v1.0/files/url?name=big.json&type=application/json`,
  );
  await new Promise((resolve, reject) => {
    const put = request(target.url, {
      method: "PUT",
      headers: { "content-type": "application/json", "content-length": statSync(path).size },
    });
    put.on("response", (res) => {
      res.resume();
      res.on("end", () =>
        res.statusCode === 200 ? resolve() : reject(new Error(`storage PUT: ${res.statusCode}`)),
      );
    });
    put.on("error", reject);
    createReadStream(path).pipe(put);
  });
  const { id } = await json("POST", "/v1.0/files", { path: target.filePath, type: "customIntegrationData" });
  const status = (field) => procStatus(pid, field) ?? 0;
  const before = status("VmRSS");
  let peak = status("VmHWM");
  const poll = setInterval(() => {
    peak = Math.max(peak, status("VmHWM"));
  }, 50);
  const started = process.hrtime.bigint();
  try {
    const summary = await json("PUT", "/v1.0/services/sync/custom", { idFile: id, idAppAccount: 1 });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { seconds, rss: Math.max(peak, status("VmHWM")), before, summary };
  } finally {
    clearInterval(poll);
  }
}

/**
 * A data directory whose app account 1 holds `users` synced users (every fourth deleted, the
 * rest shown), each holding one of three licenses — written into the database directly, as a
 * sync would leave them (a sync of a file that large takes minutes; what is measured here is
 * reading the pages): the embedded one, or the PostgreSQL database `database` (its URL) when
 * given. Resolves to {dataDir, syncId, active}.
 */
export async function accountOfUsers(cli, root, users, database = null) {
  const dataDir = mkdtempSync(join(tmpdir(), "syncfile-bench-users-"));
  const env = process.env.SYNCFILE_DATABASE_URL;
  if (database) process.env.SYNCFILE_DATABASE_URL = database;
  try {
    const server = await startServe(cli, root, dataDir); // creates the database's tables
    await server.stop();
  } finally {
    if (env === undefined) delete process.env.SYNCFILE_DATABASE_URL;
    else process.env.SYNCFILE_DATABASE_URL = env;
  }
  const db = database
    ? new pg.Client({ connectionString: database })
    : await PGlite.create(join(dataDir, "db"));
  if (database) await db.connect();
  try {
    const { rows } = await db.query(
      `INSERT INTO syncs (app_account, file_id, format, state, started_at, finished_at)
       VALUES (1, 0, 'json', 'applied', now(), now()) RETURNING id`,
    );
    const syncId = Number(rows[0].id);
    await db.query(
      `INSERT INTO account_users (sync_id, idx, email, first_name, last_name, status)
       SELECT $1, i, 'user' || i || '@example.com', 'First' || i, 'Last' || i,
              CASE WHEN i % 4 = 3 THEN 'deleted' ELSE 'active' END
       FROM generate_series(0, $2::int - 1) AS i`,
      [syncId, users],
    );
    await db.query(
      `INSERT INTO account_licenses (sync_id, idx, name, price_per_user, currency)
       VALUES ($1, 0, 'Basic', 500, 'USD'), ($1, 1, 'Pro', 1250, 'USD'), ($1, 2, 'Enterprise', 4000, 'USD')`,
      [syncId],
    );
    await db.query(
      `INSERT INTO account_license_users (sync_id, license_idx, idx, email, license_status)
       SELECT $1, i % 3, i / 3, 'user' || i || '@example.com', 'active' FROM generate_series(0, $2::int - 1) AS i`,
      [syncId, users],
    );
    const active = users - Math.floor(users / 4);
    await db.query(`UPDATE syncs SET summary = $2 WHERE id = $1`, [
      syncId,
      JSON.stringify({ idSync: syncId, users, activeUsers: active, licenses: 3, licenseUsers: users }),
    ]);
    await db.query("INSERT INTO app_accounts (id, current_sync) VALUES (1, $1)", [syncId]);
    await db.query("ANALYZE");
    return { dataDir, syncId, active };
  } finally {
    await (database ? db.end() : db.close());
  }
}

/** `times` GETs of `route` one after the other; resolves to the median and slowest in ms, and the last body. */
export async function timeGets(url, route, times) {
  const ms = [];
  let body = null;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const r = await fetch(`${url}${route}`, { headers: { authorization: `Bearer ${KEYS[2]}` } });
    body = await r.json();
    ms.push(performance.now() - started);
    if (!r.ok) throw new Error(`GET ${route}: ${r.status} ${JSON.stringify(body)}`);
  }
  const sorted = ms.sort((a, b) => a - b);
  return { median: sorted[Math.floor(times / 2)], slowest: sorted.at(-1), body };
}

/**
 * Runs `work` while a probe asks the server, one request after the other, for `/openapi.json`
 * and the state of app account `account` in turn (the one needs nothing of the database, the
 * other reads it); resolves to what `work` resolved to, and the probe's answers: how many came
 * while `work` ran and the slowest of them in ms, by route.
 */
export async function probeDuring(url, account, work) {
  const routes = ["/openapi.json", `/v1.0/appAccounts/${account}`];
  const seen = Object.fromEntries(routes.map((route) => [route, { answers: 0, slowest: 0 }]));
  let running = true;
  const probe = (async () => {
    for (let k = 0; running; k++) {
      const route = routes[k % routes.length];
      const started = performance.now();
      // keys in turn, so that the rate limits (per key) never answer instead
      const key = KEYS[10 + (k % (KEYS.length - 10))];
      const r = await fetch(`${url}${route}`, { headers: { authorization: `Bearer ${key}` } });
      await r.arrayBuffer();
      const ms = performance.now() - started;
      if (!running) break; // answered after the work ended: not during it
      if (r.status !== 200 && r.status !== 404) throw new Error(`probe GET ${route}: ${r.status}`);
      seen[route].answers++;
      seen[route].slowest = Math.max(seen[route].slowest, ms);
      await new Promise((resolve) => setTimeout(resolve, 20)); // a user's pace, not a load test
    }
  })();
  try {
    return { result: await work(), probe: seen };
  } finally {
    running = false;
    await probe;
  }
}
