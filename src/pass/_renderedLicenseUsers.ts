// The users of a CSV file's licenses as JsonWriter writes them, rendered on the parsing thread
// of a conversion to JSON (csvParallel) as their rows come, when that thread has time to spare,
// instead of on the calling thread after the last row, when it has none: kept per license,
// then written into one temporary file, license after license, which the calling thread
// copies into its output (JsonWriter.licenseUserItems).

import { Buffer } from "../bytes/buffer.js";
import { licenseUserValue } from "../csv/CsvRecord.js";
import { licenseUserItemBytes, writeLicenseUserItem } from "../json/JsonWriter.js";
import { IndexedLogs } from "../spill/IndexedLogs.js";
import { handOverSpill, openSpill, type SpillFile } from "../spill/spill.js";

/** Where each license's users' items are: in a temporary file handed over to the calling thread. */
export interface RenderedLicenses {
  /** What takeSpill takes the file from. */
  folder: string;
  /** By license index: where its items start in the file, their bytes, and how many users. */
  ranges: [position: number, bytes: number, users: number][];
}

/** How much of the file is copied at once. */
const BLOCK = 1 << 20;
/**
 * The bytes of items a record of a license's log holds (more when one item is longer): many
 * to a record, so that each costs a copy of a few bytes, not a record of its own.
 */
const RECORD = 4096;

/** The record of a license's log being filled. */
interface OpenRecord {
  page: Buffer;
  at: number;
  /** Its room, and how much of it is filled. */
  max: number;
  filled: number;
}

/** License users rendered as their rows come, on the parsing thread. */
export class RenderedLicenseUsers {
  readonly #logs: IndexedLogs;
  readonly #open: (OpenRecord | undefined)[] = [];
  readonly #counts: number[] = [];

  /** `budget`: bytes kept in memory before some go to temporary files (tests make it small). */
  constructor(budget?: number) {
    this.#logs = new IndexedLogs(budget);
  }

  /** A user of `license`, as its row gives it. */
  add(license: number, email: string, licenseStatus: string): void {
    const value = licenseUserValue(email, licenseStatus) as Record<string, string>;
    const bytes = licenseUserItemBytes(value);
    let open = this.#open[license];
    if (!open || open.filled + bytes > open.max) {
      if (open) this.#logs.commit(license, open.filled);
      const max = Math.max(RECORD, bytes);
      open = { ...this.#logs.reserve(license, max), max, filled: 0 };
      this.#open[license] = open;
    }
    open.filled += writeLicenseUserItem(open.page, open.at + open.filled, value);
    this.#counts[license] = (this.#counts[license] ?? 0) + 1;
  }

  /** After the last row: every license's items in one file, for another thread; frees the rest. */
  handOver(): RenderedLicenses {
    const file = openSpill("syncfile-rendered-");
    try {
      const ranges = this.#writeInto(file);
      return { folder: handOverSpill(file), ranges };
    } catch (error) {
      file.close();
      throw error;
    } finally {
      this.dispose();
    }
  }

  /** Deletes the temporary files. */
  dispose(): void {
    this.#logs.dispose();
  }

  #writeInto(file: SpillFile): RenderedLicenses["ranges"] {
    this.#open.forEach((open, license) => {
      if (open) this.#logs.commit(license, open.filled);
    });
    this.#open.length = 0;
    const ranges: RenderedLicenses["ranges"] = [];
    const block = Buffer.allocUnsafe(BLOCK);
    let used = 0;
    let position = 0;
    for (let license = 0; license < this.#logs.length; license++) {
      const start = position;
      for (const { page, at, length } of this.#logs.log(license)?.records() ?? []) {
        if (used + length > BLOCK) {
          file.write(block.subarray(0, used));
          used = 0;
        }
        if (length > BLOCK) file.write(page.subarray(at, at + length));
        else used += page.copy(block, used, at, at + length);
        position += length;
      }
      ranges[license] = [start, position - start, this.#counts[license] ?? 0];
    }
    if (used > 0) file.write(block.subarray(0, used));
    return ranges;
  }
}

/** The items of one license from the file another thread handed over, in chunks (reused). */
export function* renderedItems(
  file: SpillFile,
  [position, bytes]: RenderedLicenses["ranges"][number],
): Generator<Uint8Array> {
  const block = Buffer.allocUnsafe(Math.min(BLOCK, bytes));
  for (let done = 0; done < bytes; ) {
    const n = file.read(block, 0, Math.min(BLOCK, bytes - done), position + done);
    if (n === 0) throw new Error("the rendered license users' file ends early");
    done += n;
    yield block.subarray(0, n);
  }
}
