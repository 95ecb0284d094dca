// The time the client and the page read and wait with: the system's by default; tests pass a
// clock they move, so that waits of minutes take no time. Plain timers, so that it runs in
// browsers as in Node.

/** What the client and the page read the time from and wait with. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it is aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The system clock and real timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const stop = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener("abort", stop);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener("abort", stop, { once: true });
    }),
};
