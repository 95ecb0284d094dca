// Many ByteLogs side by side, one per index (a license's users, kept per license), within one
// memory budget: past it, the log holding the most moves its pages to its temporary file. The
// logs share the pages so written, to fill again.

import type { Buffer } from "../bytes/buffer.js";
import { ByteLog, type Reservation } from "./ByteLog.js";

// one log per index: small pages, so that many logs do not hold many megabytes
const LOG_PAGE = 128 * 1024;

/** ByteLogs by index, made when first written, whose memory together stays within a budget. */
export class IndexedLogs {
  readonly #budget: number;
  readonly #logs: ByteLog[] = [];
  /** Pages written to the files, which every log fills again. */
  readonly #free: Buffer[] = [];
  #memoryBytes = 0;

  /** `budget`: bytes of records kept in memory before some go to temporary files. */
  constructor(budget = 4 * 1024 * 1024) {
    this.#budget = budget;
  }

  /** How many indexes there are room for: one past the highest written. */
  get length(): number {
    return this.#logs.length;
  }

  /**
   * Reserves room for a record of at most `max` bytes in log `index`; write it, then `commit`.
   * Records of other logs may be reserved and committed meanwhile.
   */
  reserve(index: number, max: number): Reservation {
    let log = this.#logs[index];
    if (!log) {
      log = new ByteLog(LOG_PAGE, this.#free);
      this.#logs[index] = log;
    }
    return log.reserve(max);
  }

  /** Ends the record reserved in log `index`, `length` bytes long. */
  commit(index: number, length: number): void {
    const log = this.#logs[index] as ByteLog;
    const before = log.memoryBytes;
    log.commit(length);
    this.#memoryBytes += log.memoryBytes - before;
    if (this.#memoryBytes > this.#budget) this.#spillLargest();
  }

  /** The log of `index`: undefined when nothing was written to it. */
  log(index: number): ByteLog | undefined {
    return this.#logs[index];
  }

  /** Deletes the temporary files. */
  dispose(): void {
    for (const log of this.#logs) log?.dispose();
  }

  #spillLargest(): void {
    let largest: ByteLog | undefined;
    for (const log of this.#logs)
      if (log && (!largest || log.memoryBytes > largest.memoryBytes)) largest = log;
    if (!largest) return;
    const before = largest.memoryBytes;
    largest.spill();
    this.#memoryBytes -= before - largest.memoryBytes;
  }
}
