// Syncs that race, and servers that die: N concurrent syncs give one 200 and N−1 409; one
// server per data directory, and the next takes it over from one that died; a server killed
// in the middle of a sync restarts with the previous state.

import type { ChildProcess } from "node:child_process";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import {
  bigDocument,
  call,
  dataDir,
  type HeldFile,
  heldFile,
  removeDataDirs,
  serveProcess,
  startServer,
  upload,
} from "../support/server.js";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});
afterAll(removeDataDirs);

const sync = (base: string, idFile: number, idAppAccount: number) =>
  call(base, "PUT", "/v1.0/services/sync/custom", { json: { idFile, idAppAccount } });

/**
 * Waits until the held file is opened by one of `answers`' syncs, and then for `n` of the
 * answers (those refused while it runs); fails if every answer comes first.
 */
async function whileHeld<T extends { status: number }>(
  held: HeldFile,
  answers: Promise<T>[],
  n: number,
): Promise<T[]> {
  const all = Promise.all(answers).then((a) => {
    throw new Error(`every sync answered, none held the file: ${a.map((r) => r.status).join(", ")}`);
  });
  all.catch(() => {});
  try {
    await Promise.race([held.opened, all]);
  } catch (error) {
    held.abandon();
    throw error;
  }
  const settled: T[] = [];
  if (n > 0)
    await new Promise<void>((resolve) => {
      for (const answer of answers)
        answer.then((a) => {
          settled.push(a);
          if (settled.length === n) resolve();
        });
    });
  return settled;
}

describe("one sync at a time", () => {
  it("gives exactly one 200 and N−1 409 to N concurrent syncs", async () => {
    const data = await dataDir();
    const server = await startServer({ dataDir: data });
    try {
      // the file is held back until the test says: its size is not what makes the others wait
      const held = await heldFile(server.url, data, bigDocument(2_000));
      const answers = Array.from({ length: 6 }, (_, i) => sync(server.url, held.id, 10 + i));
      // while one runs (it reads only when the test lets it), the five others are refused
      const refused = await whileHeld(held, answers, 5);
      expect(refused.map((r) => r.status)).toEqual([409, 409, 409, 409, 409]);
      expect(refused[0]?.body.message).toMatch(
        /^another sync is running \(sync \d+, started .*\); only one sync runs at a time: try again when it ends$/,
      );
      await held.release();
      const results = await Promise.all(answers);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      expect(results.find((r) => r.status === 200)?.body).toMatchObject({
        users: 2_000,
        activeUsers: 1_800,
        licenses: 5,
        licenseUsers: 1_000,
      });
      // and once it is done, the next one runs
      expect((await sync(server.url, held.id, 99)).status).toBe(200);
    } finally {
      await server.close();
    }
  }, 120_000);

  it("is one server per data directory: a second is refused in one line that points at --database, and starts once the first is gone", async () => {
    const data = await dataDir();
    const first = await serveProcess(data);
    children.push(first.child);
    const idFile = await upload(first.url, "one.json", '{"users":[{"email":"one@example.com"}]}');
    expect((await sync(first.url, idFile, 1)).status).toBe(200);
    const second = await runCli(["serve", "--data", data, "--port", "0"]);
    expect(second.code).toBe(3);
    expect(second.stdout).toBe("");
    expect(second.stderr).toBe(
      `syncfile: ${data} is in use by another syncfile serve (process ${first.child.pid}): one server runs on a --data folder. ` +
        "Stop that one, or use another --data; for several instances, give each --database postgres://… and --storage s3://… (see syncfile serve --help)\n",
    );
    // killed, it leaves its lock behind: the next server takes the directory over, data intact
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    const third = await serveProcess(data);
    children.push(third.child);
    const users = await call(third.url, "GET", "/v1.0/appAccounts/1/users");
    expect(users.body.users).toEqual([{ email: "one@example.com", licenses: [] }]);
  }, 180_000);
});

describe("a server killed in the middle of a sync", () => {
  it("restarts with the previous state intact, and syncs again", async () => {
    const data = await dataDir();
    const first = await serveProcess(data);
    children.push(first.child);
    const small = await upload(first.url, "small.json", '{"users":[{"email":"before@example.com"}]}');
    expect((await sync(first.url, small, 5)).status).toBe(200);
    const held = await heldFile(first.url, data, bigDocument(2_000));
    const running = sync(first.url, held.id, 5).then(
      (r) => r.status,
      () => "killed" as const,
    );
    // killed while the sync holds the lock and reads its file
    await whileHeld(held, [running.then((status) => ({ status: status === "killed" ? 0 : status }))], 0);
    first.child.kill("SIGKILL");
    expect(await running).toBe("killed");
    await new Promise((r) => first.child.once("exit", r));
    held.abandon();

    const second = await serveProcess(data);
    children.push(second.child);
    const users = await call(second.url, "GET", "/v1.0/appAccounts/5/users");
    expect(users.body.users).toEqual([{ email: "before@example.com", licenses: [] }]);
    const again = await sync(second.url, small, 5);
    expect(again.status).toBe(200);
    // the file of the sync that died syncs in full now
    expect((await sync(second.url, held.id, 5)).status).toBe(200);
  }, 180_000);
});

// each test on a data directory of its own, waiting on processes that start or are refused:
// side by side (a test that leaves a process running ends it itself, not the afterEach above)
describe.concurrent("syncfile serve", () => {
  it("creates an API key on first start, prints it once, and uses it from then on", async () => {
    const data = await dataDir();
    const env = { SYNCFILE_API_KEYS: "" };
    const own: ChildProcess[] = [];
    try {
      const first = await serveProcess(data, env);
      own.push(first.child);
      const key = /created an API key, kept in .*api-key \(shown only this once\):\n {2}(sf_\S+)/.exec(
        first.output(),
      )?.[1];
      expect(key).toBeDefined();
      expect(
        (await call(first.url, "GET", "/v1.0/accessReviews/campaigns", { key: key as string })).status,
      ).toBe(200);
      first.child.kill("SIGTERM");
      await new Promise((r) => first.child.once("exit", r));
      const second = await serveProcess(data, env);
      own.push(second.child);
      expect(second.output()).not.toContain(key as string);
      expect(second.output()).toContain("API key: the one in");
      expect(
        (await call(second.url, "GET", "/v1.0/accessReviews/campaigns", { key: key as string })).status,
      ).toBe(200);
    } finally {
      for (const child of own) child.kill("SIGKILL");
    }
  }, 120_000);

  it("refuses a --database that is not a PostgreSQL URL with exit 2, and one that does not answer with exit 3 and one line", async () => {
    const data = await dataDir();
    // three commands that each end before they serve: run side by side
    const [mysql, fromEnv, closed] = await Promise.all([
      runCli(["serve", "--data", data, "--database", "mysql://root@127.0.0.1/x", "--port", "0"]),
      runCli(["serve", "--data", data, "--port", "0"], {
        env: { ...process.env, SYNCFILE_DATABASE_URL: "sqlite:x.db" },
      }),
      runCli([
        "serve",
        "--data",
        data,
        "--database",
        "postgres://someone:secret@127.0.0.1:1/syncfile",
        "--port",
        "0",
      ]),
    ]);
    expect(mysql.code).toBe(2);
    expect(mysql.stderr).toBe(
      "syncfile: --database must be a PostgreSQL URL such as postgres://user@127.0.0.1:5432/syncfile\n",
    );
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toBe(
      "syncfile: SYNCFILE_DATABASE_URL must be a PostgreSQL URL such as postgres://user@127.0.0.1:5432/syncfile\n",
    );
    expect(closed.code).toBe(3);
    expect(closed.stderr).toBe(
      "syncfile: cannot use the database postgres://someone:***@127.0.0.1:1/syncfile: connect ECONNREFUSED 127.0.0.1:1\n",
    );
  });

  it("refuses a --storage that is not an s3:// URL with exit 2, and a bucket it cannot reach with exit 3, in one line", async () => {
    const data = await dataDir();
    const [http, unknown, closed] = await Promise.all([
      runCli(["serve", "--data", data, "--storage", "http://x", "--port", "0"]),
      runCli(["serve", "--data", data, "--port", "0"], {
        env: { ...process.env, SYNCFILE_STORAGE_URL: "s3://b?pathStyle=true" },
      }),
      runCli(
        [
          "serve",
          "--data",
          data,
          "--port",
          "0",
          "--storage",
          "s3://b?endpoint=http://127.0.0.1:1&forcePathStyle=true",
        ],
        { env: { ...process.env, AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s" } },
      ),
    ]);
    expect(http.code).toBe(2);
    expect(http.stderr).toBe(
      'syncfile: --storage: the storage must be an S3 bucket, written s3://BUCKET[/prefix]?region=eu-west-1 (or ?endpoint=http://127.0.0.1:9000&forcePathStyle=true); got "http://x"\n',
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      "syncfile: SYNCFILE_STORAGE_URL: unknown storage URL parameter pathStyle: the parameters are endpoint, region, forcePathStyle\n",
    );
    expect(closed.code).toBe(3);
    expect(closed.stderr).toBe("syncfile: cannot use the bucket s3://b/: connect ECONNREFUSED 127.0.0.1:1\n");
  }, 60_000);

  it("refuses a --redis that is not a Redis URL with exit 2, and one that does not answer with exit 3, in one line", async () => {
    const data = await dataDir();
    const [http, closed] = await Promise.all([
      runCli(["serve", "--data", data, "--redis", "http://x", "--port", "0"]),
      runCli(["serve", "--data", data, "--port", "0"], {
        env: { ...process.env, SYNCFILE_REDIS_URL: "redis://:secret@127.0.0.1:1" },
      }),
    ]);
    expect(http.code).toBe(2);
    expect(http.stderr).toBe("syncfile: --redis must be a Redis URL such as redis://127.0.0.1:6379\n");
    expect(closed.code).toBe(3);
    expect(closed.stderr).toBe(
      "syncfile: cannot use Redis at redis://:***@127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1\n",
    );
  }, 60_000);

  it("refuses a bad seed and an unknown currency with exit 2, a port in use with exit 3", async () => {
    // the three commands need nothing of each other: run side by side
    const [seed, currency, server] = await Promise.all([
      dataDir().then((data) =>
        runCli(["serve", "--data", data, "--seed", "fixtures/valid/example.json", "--port", "0"]),
      ),
      dataDir().then((data) => runCli(["serve", "--data", data, "--display-currency", "XYZ", "--port", "0"])),
      startServer(),
    ]);
    expect(seed.code).toBe(2);
    expect(seed.stderr).toMatch(/^syncfile: fixtures\/valid\/example\.json: campaigns must be an array\n$/);
    expect(currency.code).toBe(2);
    expect(currency.stderr).toContain('unknown currency "XYZ"');
    try {
      const port = new URL(server.url).port;
      const busy = await runCli(["serve", "--data", await dataDir(), "--port", port]);
      expect(busy.code).toBe(3);
      expect(busy.stderr).toBe(
        `syncfile: cannot listen on 127.0.0.1:${port}: the port is in use (choose another with --port)\n`,
      );
    } finally {
      await server.close();
    }
  }, 120_000);
});
