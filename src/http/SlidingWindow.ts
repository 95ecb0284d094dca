// A sliding-window rate limit: at most `limit` events in any `windowMs`. The server answers
// 429 past it; the client waits for a slot before it sends. One ring of timestamps.

/** What a limit says about one more event now. */
export interface WindowState {
  /** True when the event fits (and was counted). */
  allowed: boolean;
  /** Events still allowed now, after this one. */
  remaining: number;
  /** Milliseconds until the oldest counted event leaves the window (a slot frees). */
  resetMs: number;
}

/** At most `limit` events in any window of `windowMs` milliseconds. */
export class SlidingWindow {
  readonly limit: number;
  readonly windowMs: number;
  readonly #times: Float64Array;
  #start = 0; // index of the oldest counted event
  #count = 0;

  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.#times = new Float64Array(limit);
  }

  /** Counts an event at `now` if it fits. */
  take(now: number): WindowState {
    this.#expire(now);
    if (this.#count >= this.limit) return { allowed: false, remaining: 0, resetMs: this.#resetMs(now) };
    this.#times[(this.#start + this.#count) % this.limit] = now;
    this.#count++;
    return { allowed: true, remaining: this.limit - this.#count, resetMs: this.#resetMs(now) };
  }

  /** Milliseconds to wait from `now` until an event fits (0 when it fits now). */
  waitMs(now: number): number {
    this.#expire(now);
    return this.#count < this.limit ? 0 : this.#resetMs(now);
  }

  /** Milliseconds from `now` until the oldest counted event leaves the window (0 when none is counted). */
  resetMs(now: number): number {
    this.#expire(now);
    return this.#resetMs(now);
  }

  /** Events counted in the window that ends at `now`. */
  used(now: number): number {
    this.#expire(now);
    return this.#count;
  }

  #expire(now: number): void {
    while (this.#count > 0 && (this.#times[this.#start] as number) <= now - this.windowMs) {
      this.#start = (this.#start + 1) % this.limit;
      this.#count--;
    }
  }

  #resetMs(now: number): number {
    if (this.#count === 0) return 0;
    return Math.max(0, (this.#times[this.#start] as number) + this.windowMs - now);
  }
}
