// A sync tried again while another sync of the same app account runs (the service answers 409):
// every `pollMs`, for up to `waitMs`, on a clock the caller gives. The client and the page
// both wait this way; each says what a 409 looks like in its own errors.

import type { Clock } from "./Clock.js";

/** Told before each wait: how long it has waited so far, how long until the next try, and why. */
export interface SyncWaiting {
  waitedMs: number;
  nextMs: number;
  message: string;
}

/** How long to keep trying, how often, and who is told. */
export interface WhileSyncRunsOptions {
  /** 0: not at all. */
  waitMs: number;
  pollMs: number;
  onWaiting?: (event: SyncWaiting) => void;
  signal?: AbortSignal;
}

/**
 * `sync()`, tried again as long as `isBusy` says its error is the service's 409 and `waitMs`
 * has not passed; then that 409 is thrown. Any other error is thrown at once.
 */
export async function whileSyncRuns<T>(
  sync: () => Promise<T>,
  isBusy: (error: unknown) => error is Error,
  clock: Clock,
  options: WhileSyncRunsOptions,
): Promise<T> {
  const started = clock.now();
  for (;;) {
    try {
      return await sync();
    } catch (error) {
      if (!isBusy(error)) throw error;
      const waitedMs = clock.now() - started;
      const nextMs = Math.min(options.pollMs, options.waitMs - waitedMs);
      if (nextMs <= 0) throw error;
      options.onWaiting?.({ waitedMs, nextMs, message: error.message });
      await clock.sleep(nextMs, options.signal);
    }
  }
}
