// An append-only log of binary records in Buffer pages: no JavaScript object per record (so
// millions of them cost the garbage collector nothing), read back in order or by offset. Past
// a memory budget the owner calls spill(): whole pages move to a temporary file.

import { Buffer } from "../bytes/buffer.js";
import { openSpill, type SpillFile } from "./spill.js";

const MIN_PAGE = 4096;
const MAX_PAGE = 1 << 20;
/** How much of the file read() reads at once. */
const WINDOW = 16 * 1024;

/**
 * Writes `text` as UTF-8 into `page` at `at`; returns the bytes written. ASCII text is copied
 * byte by byte (a native call per short string costs more than the copy).
 */
export function writeText(page: Buffer, at: number, text: string): number {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return page.write(text, at, "utf8");
    page[at + i] = c;
  }
  return n;
}

/**
 * Writes `value`, an unsigned 32-bit integer, at `at` of `page`, little-endian: what
 * Buffer#writeUInt32LE does, without its checks and call (records are written by the million).
 */
export function writeU32(page: Uint8Array, at: number, value: number): void {
  page[at] = value;
  page[at + 1] = value >>> 8;
  page[at + 2] = value >>> 16;
  page[at + 3] = value >>> 24;
}

/** Where to write a reserved record: bytes `page[at, at + max)`. */
export interface Reservation {
  page: Buffer;
  at: number;
}

/** One record read back: its bytes are `page[at, at + length)`, valid until the next read. */
export interface RecordView {
  page: Buffer;
  at: number;
  length: number;
}

/**
 * Records of bytes, each stored after its length (u32 LE). Offsets are global and gapless: a
 * page starts where the previous page's records end, so the spilled file is one run of records.
 */
export class ByteLog {
  #pages: Buffer[] = [];
  #starts: number[] = [];
  #used: number[] = [];
  #spilled = 0; // bytes [0, spilled) are in the file
  #file: SpillFile | null = null;
  // the part of the file read last, by read()
  #window: Buffer = Buffer.alloc(0);
  #windowStart = 0;
  #windowLength = 0;
  #reserved = 0;
  readonly #maxPage: number;
  // pages written to the file, to fill again: fresh memory costs a page fault every 4 KiB,
  // and a page dropped waits for a garbage collection that a thread allocating little seldom has
  readonly #free: Buffer[] | null;

  /**
   * `maxPage`: the largest page (bytes); many logs at once want small ones. Default 1 MiB.
   * `free`: where pages written to the file go, to be filled again (by this log, or by the
   * others that share the array): the logs then keep as much memory as they held at their
   * last spill. Default: none (dropped).
   */
  constructor(maxPage = MAX_PAGE, free: Buffer[] | null = null) {
    this.#maxPage = maxPage;
    this.#free = free;
  }

  /** Bytes of records held in memory. */
  get memoryBytes(): number {
    return this.#end() - this.#spilled;
  }

  /** Bytes of records in all. */
  get size(): number {
    return this.#end();
  }

  /** Whether the record at `offset` is in memory (reading it costs no read of the file). */
  inMemory(offset: number): boolean {
    return offset >= this.#spilled;
  }

  /** Reserves room for a record of at most `max` bytes; write it, then `commit`. */
  reserve(max: number): Reservation {
    const k = this.#pages.length - 1;
    let page = this.#pages[k];
    if (!page || page.length - (this.#used[k] as number) < max + 4) {
      const size = Math.max(max + 4, Math.min(this.#maxPage, Math.max(MIN_PAGE, (page?.length ?? 0) * 2)));
      const free = this.#free?.[this.#free.length - 1];
      page = free && free.length >= size ? (this.#free?.pop() as Buffer) : Buffer.allocUnsafeSlow(size);
      this.#starts.push(this.#end());
      this.#pages.push(page);
      this.#used.push(0);
    }
    this.#reserved = max;
    return { page, at: (this.#used[this.#used.length - 1] as number) + 4 };
  }

  /** Ends the reserved record, `length` bytes long; returns its offset. */
  commit(length: number): number {
    if (length > this.#reserved) throw new Error("ByteLog: a record longer than reserved");
    const k = this.#pages.length - 1;
    const used = this.#used[k] as number;
    writeU32(this.#pages[k] as Buffer, used, length);
    this.#used[k] = used + 4 + length;
    this.#reserved = 0;
    return (this.#starts[k] as number) + used;
  }

  /** The record at `offset`: its view holds until the next read. */
  read(offset: number): RecordView {
    const file = this.#file;
    if (file && offset < this.#spilled) return this.#readFile(file, offset);
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.#starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    const page = this.#pages[lo] as Buffer;
    const at = offset - (this.#starts[lo] as number);
    return { page, at: at + 4, length: page.readUInt32LE(at) };
  }

  /** The record after the one at `offset` (records are gapless). */
  next(offset: number, length: number): number {
    return offset + 4 + length;
  }

  /** Every record, in the order appended. */
  *records(): Generator<RecordView> {
    if (this.#file && this.#spilled > 0) yield* this.#fileRecords(this.#file);
    for (let k = 0; k < this.#pages.length; k++) {
      const page = this.#pages[k] as Buffer;
      const used = this.#used[k] as number;
      for (let at = 0; at < used; ) {
        const length = page.readUInt32LE(at);
        yield { page, at: at + 4, length };
        at += 4 + length;
      }
    }
  }

  /** Moves every page but the one being filled to the temporary file. */
  spill(): void {
    const last = this.#pages.length - 1;
    if (last <= 0) return;
    this.#file ??= openSpill("syncfile-log-");
    const file = this.#file;
    for (let k = 0; k < last; k++) {
      file.write((this.#pages[k] as Buffer).subarray(0, this.#used[k] as number), this.#starts[k] as number);
    }
    this.#spilled = this.#starts[last] as number;
    if (this.#free) for (let k = 0; k < last; k++) this.#free.push(this.#pages[k] as Buffer);
    this.#pages = this.#pages.slice(last);
    this.#starts = this.#starts.slice(last);
    this.#used = this.#used.slice(last);
  }

  /** Deletes the temporary file. */
  dispose(): void {
    if (this.#free) this.#free.length = 0;
    this.#file?.close();
    this.#file = null;
  }

  /**
   * The record at `offset` of the file, through a window of the file read at once: records read
   * in the order written (a sheet's new shared strings) then cost a read for many.
   */
  #readFile(file: SpillFile, offset: number): RecordView {
    let window = this.#window;
    let at = offset - this.#windowStart;
    if (at < 0 || at + 4 > this.#windowLength || at + 4 + window.readUInt32LE(at) > this.#windowLength) {
      if (window.length === 0) window = this.#window = Buffer.allocUnsafe(WINDOW);
      this.#windowStart = offset;
      this.#windowLength = file.read(window, 0, Math.min(WINDOW, this.#spilled - offset), offset);
      at = 0;
      const length = window.readUInt32LE(0);
      if (length + 4 > this.#windowLength) {
        // a record longer than the window: read on its own
        const page = Buffer.allocUnsafe(length);
        file.read(page, 0, length, offset + 4);
        return { page, at: 0, length };
      }
    }
    return { page: window, at: at + 4, length: window.readUInt32LE(at) };
  }

  #end(): number {
    const k = this.#pages.length - 1;
    return k < 0 ? this.#spilled : (this.#starts[k] as number) + (this.#used[k] as number);
  }

  /** The records in the file, read in large blocks. */
  *#fileRecords(file: SpillFile): Generator<RecordView> {
    let block = Buffer.allocUnsafe(MAX_PAGE);
    let blockStart = 0;
    let blockLength = 0;
    let offset = 0;
    while (offset < this.#spilled) {
      let at = offset - blockStart;
      if (at + 4 > blockLength || at + 4 + block.readUInt32LE(at) > blockLength) {
        // refill from this record on (a record longer than the block gets a block of its own size)
        blockStart = offset;
        blockLength = file.read(block, 0, Math.min(block.length, this.#spilled - offset), offset);
        const length = block.readUInt32LE(0);
        if (length + 4 > block.length) {
          block = Buffer.allocUnsafe(length + 4);
          blockLength = file.read(block, 0, length + 4, offset);
        }
        at = 0;
      }
      const length = block.readUInt32LE(at);
      yield { page: block, at: at + 4, length };
      offset += 4 + length;
    }
  }
}
