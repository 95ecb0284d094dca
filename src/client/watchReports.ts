// `syncfile reports --watch` as a library call: a pass of collectReports every interval until
// the signal aborts; a pass that fails on the network or the service's side is reported and
// the next one tried, a refusal (a wrong key, a bad request) ends the watch.

import { type Clock, systemClock } from "syncfile/internal/http/Clock.js";
import { ApiError } from "./ApiError.js";
import { ConnectionError } from "./ConnectionError.js";
import { type CollectOptions, type CollectResult, collectReports } from "./collectReports.js";
import type { Client } from "./createClient.js";

/** What `watchReports` needs beyond collectReports' options. */
export interface WatchOptions extends CollectOptions {
  /** Between the start of one pass and the next. */
  intervalMs: number;
  /** Ends the watch (between passes, or by aborting the pass under way). */
  signal: AbortSignal;
  /** Told after each pass; the next pass waits for it. */
  onPass?: (result: CollectResult) => void | Promise<void>;
  /** Told of a pass that failed and will be tried again. */
  onError?: (error: Error) => void;
  clock?: Clock;
}

/** Runs passes until `options.signal` aborts; resolves then. */
export async function watchReports(client: Client, options: WatchOptions): Promise<void> {
  const clock = options.clock ?? systemClock;
  while (!options.signal.aborted) {
    const started = clock.now();
    try {
      await options.onPass?.(await collectReports(client, options));
    } catch (error) {
      if (options.signal.aborted) return;
      const passing =
        error instanceof ConnectionError ||
        (error instanceof ApiError && (error.status >= 500 || error.status === 429));
      if (!passing) throw error;
      options.onError?.(error);
    }
    try {
      await clock.sleep(Math.max(0, started + options.intervalMs - clock.now()), options.signal);
    } catch {
      return; // aborted
    }
  }
}
