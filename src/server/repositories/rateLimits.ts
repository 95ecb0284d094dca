// Rate limits counted in this process's memory: a sliding window per key and operation. One
// process is the embedded server's whole service; instances that share a database need the
// count there instead.

import { RATE_WINDOW_MS } from "syncfile/internal/http/operations.js";
import { SlidingWindow, type WindowState } from "syncfile/internal/http/SlidingWindow.js";
import type { RateLimitsRepository } from "./types.js";

/** The calls of each key and operation, in memory. */
export class MemoryRateLimits implements RateLimitsRepository {
  readonly #windows = new Map<string, SlidingWindow>();

  async take(key: string, operation: string, perMinute: number, now: number): Promise<WindowState> {
    const id = `${key}:${operation}`;
    let window = this.#windows.get(id);
    if (!window) {
      window = new SlidingWindow(perMinute, RATE_WINDOW_MS);
      this.#windows.set(id, window);
    }
    return window.take(now);
  }
}
