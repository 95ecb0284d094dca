// Batches a worker thread has sent and the calling thread has not taken yet, counted in memory
// both threads share: a worker that reads its file itself (a workbook's sheet, a CSV file's
// rows, a JSON file's text) waits while a few are on their way, so that it reads no further
// ahead than that, and the calling thread can tell it to stop reading. The worker waits with
// Atomics.wait: a worker thread may block, and it is told of each batch taken without a message.

/** One count, seen from the worker (sent, waitForRoom, stopped) and from the calling thread (taken, stop). */
export class SharedFlight {
  /** The shared memory: given to the worker (workerData), which makes its own SharedFlight of it. */
  readonly buffer: SharedArrayBuffer;
  /** [0]: the batches on their way; [1]: 1 once reading is to stop. */
  readonly #cells: Int32Array;

  constructor(buffer = new SharedArrayBuffer(8)) {
    this.buffer = buffer;
    this.#cells = new Int32Array(buffer);
  }

  /** The worker: a batch is about to be sent. */
  sent(): void {
    Atomics.add(this.#cells, 0, 1);
  }

  /** The worker: blocks while `max` batches or more are on their way, unless told to stop. */
  waitForRoom(max: number): void {
    const cells = this.#cells;
    for (let n = Atomics.load(cells, 0); n >= max && !this.stopped; n = Atomics.load(cells, 0)) {
      Atomics.wait(cells, 0, n, 1000);
    }
  }

  /** Whether the calling thread said to stop reading. */
  get stopped(): boolean {
    return Atomics.load(this.#cells, 1) !== 0;
  }

  /** The calling thread: a batch was taken, so the worker may send another. */
  taken(): void {
    Atomics.sub(this.#cells, 0, 1);
    Atomics.notify(this.#cells, 0);
  }

  /**
   * The calling thread: the worker is to stop reading. The count changes too, so that a wait
   * about to begin on the count it saw returns at once, as one under way does.
   */
  stop(): void {
    Atomics.store(this.#cells, 1, 1);
    Atomics.store(this.#cells, 0, -1);
    Atomics.notify(this.#cells, 0);
  }
}
