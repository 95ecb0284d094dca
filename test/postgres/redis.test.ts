// `--redis`: the rate limits of instances on one PostgreSQL database counted in Redis instead
// (REDIS_URL or SYNCFILE_TEST_REDIS_URL, default redis://127.0.0.1:6379; skipped, saying why,
// when no Redis answers). Each run uses keys of its own, so runs on one Redis never meet.

import { createHash, randomBytes } from "node:crypto";
import { createClient } from "redis";
import { afterAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { createTestDatabase } from "../support/postgres.js";
import { bucket, call, dataDir, removeDataDirs, startServer, TestClock } from "../support/server.js";

const REDIS_URL = process.env.SYNCFILE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const redis = createClient({ url: REDIS_URL, socket: { connectTimeout: 2000, reconnectStrategy: false } });
redis.on("error", () => {});
const unavailable = await redis.connect().then(
  () => null,
  (error: Error) => `cannot connect to ${REDIS_URL} (${error.message})`,
);
if (unavailable) process.stdout.write(`the Redis tests are skipped: ${unavailable}\n`);

const started: SyncfileServer[] = [];
afterAll(async () => {
  for (const server of started) await server.close().catch(() => {});
  if (!unavailable) redis.destroy();
  await removeDataDirs();
});

describe.skipIf(unavailable !== null)("rate limits in Redis", () => {
  it("allow an operation's rate per key across two instances together: the 201st upload URL in a minute is a 429 on both", async () => {
    const key = `redis-test-${randomBytes(8).toString("hex")}`;
    const clock = new TestClock();
    const database = await createTestDatabase();
    const storage = (await bucket()).url;
    const servers = await Promise.all(
      [0, 1].map(async () =>
        startServer({
          dataDir: await dataDir(),
          database,
          storage,
          redis: REDIS_URL,
          apiKeys: [key],
          clock: clock.read,
        }),
      ),
    );
    started.push(...servers);
    const ask = (i: number) =>
      call(
        (servers[i % 2] as SyncfileServer).url,
        "GET",
        `/v1.0/files/url?name=f${i}.json&type=application/json`,
        {
          key,
        },
      );
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push((await ask(i)).status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const [a, b] = [await ask(200), await ask(201)];
    expect([a.status, b.status]).toEqual([429, 429]);
    expect(a.body.message).toMatch(
      /^rate limit: 200 GET \/v1\.0\/files\/url calls a minute per API key; retry in \d+ s$/,
    );
    // counted in Redis, where every instance sees the same window (named by the key's digest, not the key)
    const id = createHash("sha256").update(key).digest("hex").slice(0, 16);
    expect(await redis.zCard(`syncfile:rate:${id}:fileUploadUrl`)).toBe(200);
    // the window slides: a minute later there is room again, on either
    clock.advance(60_000);
    expect((await ask(202)).status).toBe(200);
  }, 120_000);
});
