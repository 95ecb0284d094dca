// Rate limits counted in Redis (`--redis`), for instances that would rather not count every
// call in PostgreSQL: a sliding window per key and operation, as a sorted set of the calls'
// times, trimmed, counted and added to in one Lua script — atomic, so N instances together
// allow exactly the documented rate. A key's set expires a window after its last call.

import { randomBytes } from "node:crypto";
import { createClient } from "redis";
import { RATE_WINDOW_MS } from "syncfile/internal/http/operations.js";
import type { WindowState } from "syncfile/internal/http/SlidingWindow.js";
import { redactUrl } from "syncfile/internal/text/redact.js";
import { type DependencyLog, DependencyWatch } from "../Unavailable.js";
import { DatabaseError } from "./Database.js";
import type { RateLimitsRepository } from "./types.js";

// KEYS[1]: the window's set; ARGV: now, window (ms), the limit, a unique member for this call.
// Returns {allowed (0/1), remaining, resetMs}, as the other backends count them.
const TAKE = `
local now, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local oldest = now
if first[2] then oldest = tonumber(first[2]) end
local reset = math.max(0, oldest + window - now)
if n >= limit then return {0, 0, reset} end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return {1, limit - n - 1, reset}
`;

const COMMAND_TIMEOUT_MS = 5000;

/** A client of the Redis server at `url`. */
function redisClient(url: string) {
  return createClient({
    url,
    // a call while Redis is away fails at once (a 503 that says so) instead of waiting in a queue,
    // and one that Redis does not answer fails after a while
    disableOfflineQueue: true,
    commandOptions: { timeout: COMMAND_TIMEOUT_MS },
    socket: {
      connectTimeout: 5000,
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 5000),
    },
  });
}

/** Calls counted in Redis, shared by every instance that uses it. */
export class RedisRateLimits implements RateLimitsRepository {
  readonly #client: ReturnType<typeof redisClient>;
  readonly #watch: DependencyWatch;
  #calls = 0;

  private constructor(client: ReturnType<typeof redisClient>, url: string, log?: DependencyLog) {
    this.#client = client;
    this.#watch = new DependencyWatch(`Redis at ${redactUrl(url)}`, log);
  }

  /** Connects to the Redis server at `url` (redis://…); refused in one sentence when it does not answer. */
  static async open(url: string, log?: DependencyLog): Promise<RedisRateLimits> {
    const client = redisClient(url);
    client.on("error", () => {}); // a lost connection is retried; the calls meanwhile fail
    try {
      await Promise.race([
        client.connect(),
        new Promise((_, reject) => client.once("error", reject)), // the first refusal ends the start
      ]);
      await client.ping();
    } catch (error) {
      client.destroy();
      const reason = (error as Error).message || (error as { code?: string }).code || String(error);
      throw new DatabaseError(`cannot use Redis at ${redactUrl(url)}: ${reason}`);
    }
    return new RedisRateLimits(client, url, log);
  }

  /** Resolves when Redis answers a PING (readiness); rejects with why not. */
  async ping(): Promise<void> {
    try {
      await this.#client.ping();
    } catch (error) {
      throw this.#watch.down(error);
    }
    this.#watch.up();
  }

  async take(key: string, operation: string, perMinute: number, now: number): Promise<WindowState> {
    const member = `${now}:${process.pid}:${this.#calls++}:${randomBytes(4).toString("hex")}`;
    let answer: [number, number, number];
    try {
      answer = (await this.#client.eval(TAKE, {
        keys: [`syncfile:rate:${key}:${operation}`],
        arguments: [String(now), String(RATE_WINDOW_MS), String(perMinute), member],
      })) as [number, number, number];
    } catch (error) {
      // Redis away, or not answering: the call is not counted, so it is not served either (a 503)
      throw this.#watch.down(error);
    }
    this.#watch.up();
    const [allowed, remaining, resetMs] = answer;
    return { allowed: allowed === 1, remaining, resetMs };
  }

  close(): void {
    this.#client.destroy();
  }
}
