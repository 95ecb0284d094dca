// Sources where the data lives, each against the real thing and pushed by `syncfile run` into
// the project's own server over real HTTP: a PostgreSQL query (the server every machine here
// runs), a paginated JSON API of the test's own in each pagination style, a SCIM 2.0 service
// provider built from SCIMMY, and an object in an S3 bucket (s3rver). For each: every page is
// read, disabled or inactive users come out deleted, a source that fails half way pushes
// nothing, and its password or token appears in no output.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import SCIMMY from "scimmy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { type CliResult, runCli } from "../support/cli.js";
import { createTestDatabase, dropTestDatabases, queryDatabase } from "../support/postgres.js";
import { S3_ENV, testBucket } from "../support/s3.js";
import { call, KEY, removeDataDirs, shownEmails, startServer } from "../support/server.js";

let server: SyncfileServer;
const work = mkdtempSync(join(tmpdir(), "syncfile-sources-"));
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  await removeDataDirs();
  await dropTestDatabases();
  rmSync(work, { recursive: true, force: true });
});

let accounts = 900;

/** A job reading `source` (YAML) into an account of its own, and how to run it with `env`. */
function job(source: string, extra = "") {
  const dir = join(work, `job-${accounts}`);
  mkdirSync(dir, { recursive: true });
  const account = accounts++;
  writeFileSync(
    join(dir, "people.job.yaml"),
    `jobs:
  - name: people
    source: ${source}
${extra}    service: { url: "\${BASE_URL}", apiKey: "\${API_KEY}", appAccount: ${account} }
    guard: { maxDeletes: 0 }
    state: ./state
`,
  );
  const run = (env: Record<string, string> = {}): Promise<CliResult> =>
    runCli(["run", join(dir, "people.job.yaml")], {
      env: { ...process.env, BASE_URL: server.url, API_KEY: KEY, ...env },
    });
  return { account, run };
}

const people = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    email: `p${i + 1}@example.com`,
    first: `P${i + 1}`,
    // every 7th is disabled
    active: (i + 1) % 7 !== 0,
  }));
const activeOf = (list: { email: string; active: boolean }[]) =>
  list
    .filter((p) => p.active)
    .map((p) => p.email)
    .sort();

/** Never a secret in what a run printed. */
function expectNoSecret(result: CliResult, ...secrets: string[]): void {
  for (const secret of secrets) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

describe("a PostgreSQL query", () => {
  let url = "";
  const PASSWORD = "db-pass-5521";
  beforeAll(async () => {
    url = await createTestDatabase();
    await queryDatabase(
      url,
      `CREATE TABLE people (id int PRIMARY KEY, email text, first_name text, disabled boolean, last_login timestamptz, groups text[]);
       INSERT INTO people
         SELECT n, 'p' || n || '@example.com', 'P' || n, n % 7 = 0, timestamptz '2026-11-01 09:30:00+00' + n * interval '1 minute', ARRAY['staff', 'team ' || (n % 3)]
         FROM generate_series(1, 2500) AS n;`,
    );
  });
  // a password in the URL: the machine's PostgreSQL trusts local connections, and takes any
  const withPassword = () => {
    const u = new URL(url);
    u.password = PASSWORD;
    return u.href;
  };

  it("streams its rows: the service's names need no mapping, disabled users are deleted", async () => {
    const { account, run } = job(
      `{ sql: { url: "\${DB_URL}", query: 'SELECT email, first_name AS "firstName", NOT disabled AS active, last_login AS "lastUsedDate", array_to_string(groups, '';'') AS roles FROM people ORDER BY id' } }`,
    );
    const r = await run({ DB_URL: withPassword() });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^people: synced; 2500 users, file \d+/);
    expect(await shownEmails(server.url, account)).toEqual(activeOf(people(2500)));
    const page = await call(server.url, "GET", `/v1.0/appAccounts/${account}/users?limit=1`);
    expect((page.body.users as Record<string, unknown>[])[0]).toMatchObject({
      email: "p1@example.com",
      firstName: "P1",
      lastUsedDate: "2026-11-01",
      roles: ["staff", "team 1"],
    });
    expectNoSecret(r, PASSWORD);
    // the same rows again: the same bytes, nothing uploaded
    expect((await run({ DB_URL: withPassword() })).stdout).toMatch(/^people: unchanged — the source is what/);
  });

  it("fails, pushing nothing, when the query breaks half way or the database refuses", async () => {
    const broken = job(
      `{ sql: { url: "\${DB_URL}", query: "SELECT email, 1 / (2000 - id) AS x FROM people ORDER BY id" } }`,
    );
    const r = await broken.run({ DB_URL: withPassword() });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^people: failed — the query failed: division by zero \(run /);
    expect((await call(server.url, "GET", `/v1.0/appAccounts/${broken.account}/users`)).status).toBe(404);
    expectNoSecret(r, PASSWORD);

    const gone = job(`{ sql: { url: "\${DB_URL}", query: "SELECT email FROM people" } }`);
    const u = new URL(withPassword());
    u.pathname = "/syncfile_no_such_database";
    const g = await gone.run({ DB_URL: u.href });
    expect(g.code).toBe(3);
    expect(g.stdout).toMatch(
      /^people: failed — cannot connect to postgres:\/\/.*: database "syncfile_no_such_database" does not exist/,
    );
    expectNoSecret(g, PASSWORD);
  });

  it("pull writes what a run would push, as JSON or CSV, and pushes nothing", async () => {
    const { account } = job(
      `{ sql: { url: "\${DB_URL}", query: 'SELECT email, first_name AS "firstName", NOT disabled AS active FROM people ORDER BY id' } }`,
    );
    const file = join(work, `job-${account}`, "people.job.yaml");
    const env = { ...process.env, BASE_URL: server.url, API_KEY: KEY, DB_URL: withPassword() };
    const json = await runCli(["pull", file], { env });
    expect(json.code, json.stderr).toBe(0);
    const users = JSON.parse(json.stdout).users as {
      email: string;
      status: string;
      externalStatus: string;
    }[];
    expect(users).toHaveLength(2500);
    expect(users[6]).toMatchObject({
      email: "p7@example.com",
      status: "deleted",
      externalStatus: "inactive",
    });
    expect(json.stderr).toMatch(/^people: sql postgres:\/\/.*: valid — 0 errors, 0 warnings \(2,500 users/);
    const out = join(work, `job-${account}`, "people.csv");
    const csv = await runCli(["pull", file, "--job", "people", "-o", out], { env });
    expect(csv.code).toBe(0);
    expect(readFileSync(out, "utf8").split("\n")[1]).toBe("p1@example.com,,P1,,active,active,,,,,,");
    expectNoSecret(json, PASSWORD);
    expect((await call(server.url, "GET", `/v1.0/appAccounts/${account}/users`)).status).toBe(404);
  });

  it("runs the query read-only", async () => {
    const writing = job(`{ sql: { url: "\${DB_URL}", query: "DELETE FROM people RETURNING email" } }`);
    const r = await writing.run({ DB_URL: url });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/cannot execute DELETE in a read-only transaction/);
    expect((await queryDatabase<{ n: string }>(url, "SELECT count(*) AS n FROM people"))[0]?.n).toBe("2500");
  });
});

/** An HTTP server of the test's own; `handle` answers every request. */
async function listen(
  handle: (request: IncomingMessage, response: ServerResponse, url: URL) => void,
): Promise<{ server: Server; url: string }> {
  const s = createServer((request, response) =>
    handle(request, response, new URL(request.url ?? "/", "http://x")),
  );
  await new Promise<void>((done) => s.listen(0, "127.0.0.1", done));
  return { server: s, url: `http://127.0.0.1:${(s.address() as AddressInfo).port}` };
}

describe("a paginated JSON API", () => {
  const TOKEN = "api-token-8812";
  const all = people(250).map((p) => ({ profile: { email: p.email, firstName: p.first }, active: p.active }));
  let api: { server: Server; url: string };
  let limited = false;
  let failAt: number | null = null;
  beforeAll(async () => {
    api = await listen((request, response, url) => {
      if (request.headers.authorization !== `Bearer ${TOKEN}`) return void response.writeHead(401).end();
      // one 429 in the middle, waited out
      if (url.searchParams.get("page") === "2" && !limited) {
        limited = true;
        return void response.writeHead(429, { "retry-after": "0" }).end();
      }
      const size = 100;
      const style = url.pathname.slice(1);
      const start =
        style === "page"
          ? (Number(url.searchParams.get("page") ?? "1") - 1) * size
          : style === "offset"
            ? Number(url.searchParams.get("offset") ?? "0")
            : Number(url.searchParams.get("cursor") ?? url.searchParams.get("after") ?? "0");
      if (failAt !== null && start >= failAt) return void response.writeHead(500).end("the API fell over");
      const data = all.slice(
        start,
        start + (style === "offset" ? Number(url.searchParams.get("limit")) : size),
      );
      const next = start + size < all.length ? String(start + size) : null;
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (style === "link" && next)
        headers.link = `<${api.url}/link?after=${next}>; rel="next", <${api.url}/link>; rel="first"`;
      response.writeHead(200, headers);
      response.end(JSON.stringify(style === "cursor" ? { data, meta: { next } } : { data }));
    });
  });
  afterAll(() => new Promise((done) => api.server.close(done)));

  const styles: [string, string][] = [
    ["link", "link"],
    ["cursor", "{ cursor: meta.next, param: cursor }"],
    ["page", "{ page: page }"],
    ["offset", "{ offset: offset, limit: 100 }"],
  ];
  it.each(styles)("reads every page (%s), and its inactive users as deleted", async (style, next) => {
    const { account, run } = job(
      `{ http: { url: "\${API}/${style}", headers: { Authorization: "Bearer \${API_TOKEN}" }, records: data, next: ${next} } }`,
      `    mapping: ./people.mapping.json\n`,
    );
    writeFileSync(
      join(work, `job-${account}`, "people.mapping.json"),
      JSON.stringify({
        name: "api",
        email: "profile.email",
        firstName: "profile.firstName",
        status: { column: "active", values: { true: "active", false: "deleted" } },
      }),
    );
    const r = await run({ API: api.url, API_TOKEN: TOKEN });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^people: synced; 250 users/);
    expect(await shownEmails(server.url, account)).toEqual(activeOf(people(250)));
    expectNoSecret(r, TOKEN);
  });

  it("fails, pushing nothing, when a page fails half way or the token is refused", async () => {
    failAt = 200;
    const broken = job(
      `{ http: { url: "\${API}/offset", headers: { Authorization: "Bearer \${API_TOKEN}" }, records: data, next: { offset: offset, limit: 100 } } }`,
    );
    const r = await broken.run({ API: api.url, API_TOKEN: TOKEN });
    failAt = null;
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^people: failed — GET http:\/\/127\.0\.0\.1:\d+\/offset\?limit=100&offset=200 answered 500 Internal Server Error: the API fell over/,
    );
    expect((await call(server.url, "GET", `/v1.0/appAccounts/${broken.account}/users`)).status).toBe(404);

    const refused = job(
      `{ http: { url: "\${API}/link", headers: { Authorization: "Bearer \${API_TOKEN}" }, records: data, next: link } }`,
    );
    const f = await refused.run({ API: api.url, API_TOKEN: "wrong-token-0042" });
    expect(f.code).toBe(3);
    expect(f.stdout).toMatch(/answered 401 Unauthorized/);
    expectNoSecret(f, "wrong-token-0042");
  });
});

describe("a SCIM 2.0 endpoint", () => {
  const TOKEN = "scim-token-3307";
  let scim: { server: Server; url: string };
  let users: { id: string; userName: string }[] = [];
  let scimFailFrom: number | null = null;
  beforeAll(async () => {
    users = people(260).map((p, i) => ({
      id: `u-${i + 1}`,
      userName: `user${i + 1}`,
      name: { givenName: p.first, familyName: "Person" },
      active: p.active,
      emails: [
        { value: `home${i + 1}@example.net`, type: "home" },
        { value: p.email, type: "work", primary: true },
      ],
    }));
    SCIMMY.Resources.declare(SCIMMY.Resources.User).egress(() => users);
    scim = await listen(async (request, response, url) => {
      if (request.headers.authorization !== `Bearer ${TOKEN}` || url.pathname !== "/scim/v2/Users") {
        return void response.writeHead(401, { "content-type": "application/scim+json" }).end();
      }
      if (scimFailFrom !== null && Number(url.searchParams.get("startIndex")) >= scimFailFrom) {
        return void response
          .writeHead(503, { "content-type": "application/scim+json" })
          .end('{"detail":"down for maintenance"}');
      }
      const list = await new SCIMMY.Resources.User(undefined, {
        startIndex: Number(url.searchParams.get("startIndex")),
        count: Number(url.searchParams.get("count")),
      }).read();
      response.writeHead(200, { "content-type": "application/scim+json" });
      response.end(JSON.stringify(list));
    });
  });
  afterAll(() => new Promise((done) => scim.server.close(done)));

  it("reads /Users page by page through the scim profile: the primary address, inactive users deleted", async () => {
    const { account, run } = job(`{ scim: { url: "\${SCIM_URL}", token: "\${SCIM_TOKEN}", pageSize: 100 } }`);
    const r = await run({ SCIM_URL: `${scim.url}/scim/v2`, SCIM_TOKEN: TOKEN });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^people: synced; 260 users/);
    expect(await shownEmails(server.url, account)).toEqual(activeOf(people(260)));
    const page = await call(server.url, "GET", `/v1.0/appAccounts/${account}/users?limit=1`);
    expect((page.body.users as Record<string, unknown>[])[0]).toMatchObject({
      email: "p1@example.com",
      id: "u-1",
      firstName: "P1",
      lastName: "Person",
      externalStatus: "active",
    });
    expectNoSecret(r, TOKEN);

    const refused = job(`{ scim: { url: "\${SCIM_URL}", token: "\${SCIM_TOKEN}" } }`);
    const f = await refused.run({ SCIM_URL: `${scim.url}/scim/v2`, SCIM_TOKEN: "bad-scim-token-1" });
    expect(f.code).toBe(3);
    expect(f.stdout).toMatch(
      /^people: failed — GET http:\/\/127\.0\.0\.1:\d+\/scim\/v2\/Users\?startIndex=1&count=100 answered 401/,
    );
    expectNoSecret(f, "bad-scim-token-1");

    // the third page does not come: nothing is pushed (a 503 is asked again, then given up)
    scimFailFrom = 201;
    const broken = job(`{ scim: { url: "\${SCIM_URL}", token: "\${SCIM_TOKEN}", pageSize: 100 } }`);
    const b = await broken.run({ SCIM_URL: `${scim.url}/scim/v2`, SCIM_TOKEN: TOKEN });
    scimFailFrom = null;
    expect(b.code).toBe(3);
    expect(b.stdout).toMatch(
      /^people: failed — GET .*\/Users\?startIndex=201&count=100 answered 503 Service Unavailable: \{"detail":"down for maintenance"\}/,
    );
    expect((await call(server.url, "GET", `/v1.0/appAccounts/${broken.account}/users`)).status).toBe(404);
  });
});

describe("an object in a bucket", () => {
  it("reads the newest object under a prefix, once it has settled", async () => {
    const bucket = await testBucket();
    const at = new URL(bucket.url.replace(/^s3:/, "http:"));
    const endpoint = at.searchParams.get("endpoint") as string;
    const s3 = new S3Client({
      endpoint,
      region: S3_ENV.AWS_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: S3_ENV.AWS_ACCESS_KEY_ID, secretAccessKey: S3_ENV.AWS_SECRET_ACCESS_KEY },
    });
    const csv = (n: number) =>
      `Employee #,First Name,Last Name,Work Email,Status\n${people(n)
        .map((p, i) => `${i + 1},${p.first},X,${p.email},${p.active ? "Active" : "Inactive"}`)
        .join("\n")}\n`;
    try {
      await s3.send(
        new PutObjectCommand({ Bucket: bucket.name, Key: "people/2026-11-27.csv", Body: csv(10) }),
      );
      await s3.send(
        new PutObjectCommand({ Bucket: bucket.name, Key: "people/2026-11-28.csv", Body: csv(30) }),
      );
    } finally {
      s3.destroy();
    }
    const url = `s3://${bucket.name}/people/?${at.searchParams}`;
    const settling = job(`{ s3: "\${BUCKET_URL}", settle: 3600 }`, "    profile: bamboohr\n");
    const wait = await settling.run({ BUCKET_URL: url, ...S3_ENV });
    expect(wait.code).toBe(0);
    expect(wait.stdout).toMatch(
      /^people: unchanged — s3:\/\/.*\/people\/2026-11-28\.csv changed \d+ s ago: it may still be being written/,
    );

    const { account, run } = job(`{ s3: "\${BUCKET_URL}", settle: 0 }`, "    profile: bamboohr\n");
    const r = await run({ BUCKET_URL: url, ...S3_ENV });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^people: synced; 30 users/);
    expect(await shownEmails(server.url, account)).toEqual(activeOf(people(30)));

    // the object's body cut short on its way: a failed source, nothing pushed
    bucket.proxy.cutNext(/^GET \/[^ ]*people\/2026-11-28\.csv/, 600);
    const cut = job(`{ s3: "\${BUCKET_URL}", settle: 0 }`, "    profile: bamboohr\n");
    const c = await cut.run({ BUCKET_URL: url, ...S3_ENV });
    expect(c.code, c.stdout + c.stderr).toBe(3);
    expect(c.stdout).toMatch(/^people: failed — .*2026-11-28\.csv.*cut short: aborted \(run /);
    expect((await call(server.url, "GET", `/v1.0/appAccounts/${cut.account}/users`)).status).toBe(404);

    const missing = job(`{ s3: "\${BUCKET_URL}" }`, "    profile: bamboohr\n");
    const m = await missing.run({
      BUCKET_URL: `s3://${bucket.name}/people/none.csv?${at.searchParams}`,
      ...S3_ENV,
    });
    expect(m.code).toBe(3);
    expect(m.stdout).toMatch(/^people: failed — cannot read s3:\/\/.*none\.csv.*: no such object/);
  });
});
