// Flow control between the thread that reads a file and a worker that processes its chunks:
// a few chunks in flight at most, and the failure of any worker ends the pass.

import type { Worker } from "node:worker_threads";

/** Chunks in flight to a worker thread, and the failure of any worker. */
export class Flow {
  #inFlight = 0;
  #failure: Error | null = null;
  #wake: (() => void) | null = null;
  readonly #failed: Promise<never>;
  readonly #reject: (error: Error) => void;
  readonly #max: number;
  /** True once reading may stop: a fatal problem was found. */
  stopped = false;

  /** `max`: chunks that may be in flight at once. */
  constructor(workers: Worker[], max: number) {
    this.#max = max;
    let reject: (error: Error) => void = () => {};
    this.#failed = new Promise<never>((_, r) => {
      reject = r;
    });
    this.#reject = reject;
    this.#failed.catch(() => {}); // observed through room() and or()
    for (const worker of workers) {
      worker.on("error", (error) => this.fail(error));
      worker.on("exit", (code) => this.fail(new Error(`a worker thread exited early (code ${code})`)));
    }
  }

  sent(): void {
    this.#inFlight++;
  }

  acknowledged(stopped: boolean): void {
    this.#inFlight--;
    if (stopped) this.stopped = true;
    this.#wake?.();
  }

  /** Waits until another chunk may be sent. */
  async room(): Promise<void> {
    while (this.#inFlight >= this.#max && !this.#failure) {
      await new Promise<void>((wake) => {
        this.#wake = wake;
      });
    }
    if (this.#failure) throw this.#failure;
  }

  /** Fails the flow: the pass ends with `error`. */
  fail(error: Error): void {
    this.#failure ??= error;
    this.#wake?.();
    this.#reject(this.#failure);
  }

  /** `promise`, unless a worker fails first. */
  or<T>(promise: Promise<T>): Promise<T> {
    return Promise.race([promise, this.#failed]);
  }
}
