// The time the client reads and waits with: the system's by default; tests pass a clock they
// move, so that waits of minutes take no time.

import { setTimeout as delay } from "node:timers/promises";

/** What the client reads the time from and waits with. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it is aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The system clock and real timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(Math.max(0, ms), undefined, signal ? { signal } : {}),
};
