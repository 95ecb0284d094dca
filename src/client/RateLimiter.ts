// The interface's rate limits kept on the client's side, so that a busy script does not run
// into 429. A call takes a slot before it is sent and is counted from when its answer
// arrives — the latest moment the service can have counted it — so the service never sees
// more calls in a window than the limit, whatever the network's delays.

import type { Clock } from "syncfile/internal/http/Clock.js";
import { ALIASES, OPERATIONS, type Operation, RATE_WINDOW_MS } from "syncfile/internal/http/operations.js";
import { SlidingWindow } from "syncfile/internal/http/SlidingWindow.js";

/** Calls allowed per minute, by operation; an operation left out is not limited. */
export type RateLimits = Partial<Record<Operation, number>>;

/** The documented limits of every operation. */
export const DOCUMENTED_LIMITS: RateLimits = Object.fromEntries(
  Object.entries(OPERATIONS).map(([name, operation]) => [name, operation.perMinute]),
);

/** One limiter per operation: at most `limit` calls in flight or answered in any window. */
export class RateLimiter {
  readonly #clock: Clock;
  readonly #slots = new Map<Operation, Slots>();
  #waitedMs = 0;

  constructor(limits: RateLimits, clock: Clock, windowMs = RATE_WINDOW_MS) {
    this.#clock = clock;
    for (const [operation, limit] of Object.entries(limits) as [Operation, number][]) {
      if (!Number.isSafeInteger(limit) || limit < 1) {
        throw new RangeError(
          `the rate limit of ${operation} must be a whole number of calls of at least 1, got ${limit}`,
        );
      }
      this.#slots.set(operation, new Slots(limit, windowMs));
    }
  }

  /** Time spent waiting for slots so far, in ms of the limiter's clock. */
  get waitedMs(): number {
    return this.#waitedMs;
  }

  /**
   * Waits until `operation` may be called; resolves to the function to call once its answer
   * (or its failure) has arrived.
   */
  async acquire(operation: Operation, signal?: AbortSignal): Promise<() => void> {
    // an alias counts in its operation's limit, as the server counts it
    const slots = this.#slots.get(ALIASES[operation] ?? operation);
    if (!slots) return () => {};
    for (;;) {
      signal?.throwIfAborted();
      const now = this.#clock.now();
      const answered = slots.window.used(now);
      if (answered + slots.inFlight < slots.window.limit) {
        slots.inFlight++;
        return once(() => {
          slots.inFlight--;
          slots.window.take(this.#clock.now());
          for (const wake of slots.waiting.splice(0)) wake();
        });
      }
      if (answered === 0) {
        // every slot is taken by a call still in flight: wait for one of them to end
        await new Promise<void>((resolve, reject) => {
          const abort = () => reject(signal?.reason);
          signal?.addEventListener("abort", abort, { once: true });
          slots.waiting.push(() => {
            signal?.removeEventListener("abort", abort);
            resolve();
          });
        });
      } else {
        const wait = slots.window.resetMs(now);
        await this.#clock.sleep(wait, signal);
        this.#waitedMs += Math.max(0, this.#clock.now() - now);
      }
    }
  }
}

class Slots {
  readonly window: SlidingWindow;
  inFlight = 0;
  readonly waiting: (() => void)[] = [];

  constructor(limit: number, windowMs: number) {
    this.window = new SlidingWindow(limit, windowMs);
  }
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}
