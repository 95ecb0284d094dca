// The ZIP container of a workbook in a browser build, in place of _zip.ts (yauzl and Node's zlib):
// the central directory read by hand from the archive's bytes (APPNOTE 4.3: the end record,
// ZIP64's when there is one, the directory's headers, each part's local header), and each part
// inflated by fflate as it is read. It refuses what yauzl refuses, so a damaged workbook is the
// same finding in a browser as in Node, said in its own words; like yauzl, it checks sizes but
// not CRC-32s.

import { Inflate } from "fflate";
import type { ByteRange } from "../bytes/ByteRange.js";
import type { ZipArchive, ZipEntry } from "./_ZipArchive.js";

const END = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** A 32-bit size or offset with this value is in the ZIP64 extra field instead. */
const IN_ZIP64 = 0xffffffff;

/** How much of the archive is read at a time. */
const READ_CHUNK = 64 * 1024;
/** How much compressed data is inflated at a time: what one push can expand to stays bounded. */
const INFLATE_CHUNK = 16 * 1024;

/** An entry with what reading it needs. */
interface Part extends ZipEntry {
  readonly flags: number;
  readonly method: number;
  readonly localHeader: number;
}

/** A ZIP archive open for reading parts by name. */
export class ZipParts implements ZipArchive {
  readonly #file: ByteRange;
  readonly #entries: Map<string, Part>;

  private constructor(file: ByteRange, entries: Map<string, Part>) {
    this.#file = file;
    this.#entries = entries;
  }

  /** Reads the central directory of the archive in `file`; rejects saying what is damaged when it is no ZIP. */
  static async open(file: ByteRange): Promise<ZipParts> {
    const { count, offset } = await endRecord(file);
    const directory = new Cursor(file, offset);
    const entries = new Map<string, Part>();
    for (let k = 0; k < count; k++) {
      const part = await centralHeader(directory, k);
      // part names are case-insensitive (ECMA-376 part 2, 9.1.1.1)
      entries.set(part.name.toLowerCase(), part);
    }
    return new ZipParts(file, entries);
  }

  entry(name: string): ZipEntry | undefined {
    return this.#entries.get(name.replace(/^\//, "").toLowerCase());
  }

  async read(entry: ZipEntry): Promise<AsyncIterable<Uint8Array>> {
    const part = entry as Part;
    if (part.flags & 1) throw new Error(`the part ${part.name} is encrypted`);
    if (part.method !== 0 && part.method !== 8) {
      throw new Error(`the part ${part.name} is compressed by method ${part.method}, which is not Deflate`);
    }
    const start = await dataStart(this.#file, part);
    return part.method === 0 ? stored(this.#file, part, start) : inflated(this.#file, part, start);
  }

  close(): void {
    // nothing to release: the bytes are read from `file`, which stays its owner's
  }
}

/** Where the central directory starts and how many headers it has, from the end record (ZIP64's if any). */
async function endRecord(file: ByteRange): Promise<{ count: number; offset: number }> {
  const tail = await file.read(Math.max(0, file.size - (20 + 22 + 0xffff)), 20 + 22 + 0xffff);
  const view = viewOf(tail);
  // the last signature wins, as yauzl's search from the end; a comment may follow it
  let at = tail.length - 22;
  while (at >= 0 && view.getUint32(at, true) !== END) at--;
  if (at < 0) {
    throw new Error("there is no end of central directory record: no ZIP archive, or one cut short");
  }
  const comment = view.getUint16(at + 20, true);
  if (comment !== tail.length - at - 22) {
    throw new Error(
      `the end of central directory record is damaged: its comment should be ${comment} bytes, ${tail.length - at - 22} follow`,
    );
  }
  if (at >= 20 && view.getUint32(at - 20, true) === ZIP64_LOCATOR) {
    const where = uint64(view, at - 20 + 8);
    const record = await file.read(where, 56);
    if (record.length < 56) throw new Error("the ZIP64 end of central directory record is cut short");
    const zip64 = viewOf(record);
    if (zip64.getUint32(0, true) !== ZIP64_END) {
      throw new Error("the ZIP64 end of central directory record is not where its locator points");
    }
    const disk = zip64.getUint32(16, true);
    if (disk !== 0) throw new Error(`the archive spans several disks (this is disk ${disk})`);
    return { count: uint64(zip64, 32), offset: uint64(zip64, 48) };
  }
  const disk = view.getUint16(at + 4, true);
  if (disk !== 0) throw new Error(`the archive spans several disks (this is disk ${disk})`);
  return { count: view.getUint16(at + 10, true), offset: view.getUint32(at + 16, true) };
}

/** The `k`th header of the central directory, at the cursor. */
async function centralHeader(directory: Cursor, k: number): Promise<Part> {
  const cutShort = () => new Error(`the central directory is cut short (in the header of entry ${k + 1})`);
  const fixed = await directory.take(46);
  if (!fixed) throw cutShort();
  const view = viewOf(fixed);
  const signature = view.getUint32(0, true);
  if (signature !== CENTRAL_HEADER) {
    throw new Error(
      `the header of entry ${k + 1} in the central directory is damaged (signature 0x${signature.toString(16)})`,
    );
  }
  const flags = view.getUint16(8, true);
  if (flags & 0x40) throw new Error(`entry ${k + 1} uses strong encryption, which cannot be read`);
  const method = view.getUint16(10, true);
  let compressedSize = view.getUint32(20, true);
  let uncompressedSize = view.getUint32(24, true);
  const nameLength = view.getUint16(28, true);
  const extraLength = view.getUint16(30, true);
  let localHeader = view.getUint32(42, true);
  const variable = await directory.take(nameLength + extraLength + view.getUint16(32, true));
  if (!variable) throw cutShort();
  const name = decodeName(variable.subarray(0, nameLength), (flags & 0x800) !== 0);
  const extra = extraFields(variable.subarray(nameLength, nameLength + extraLength), name);
  if (/^[a-zA-Z]:/.test(name) || name.startsWith("/")) {
    throw new Error(`the entry ${name} has an absolute path`);
  }
  if (name.split("/").includes("..")) {
    throw new Error(`the entry ${name} has a path leading out of the archive`);
  }
  const zip64 = extra.get(0x0001);
  if (zip64) {
    // the sizes and offset too big for 32 bits, in this order, each only when its field says so
    const view64 = viewOf(zip64);
    let at = 0;
    const next = (what: string) => {
      if (at + 8 > zip64.length) {
        throw new Error(`the ZIP64 extra field of the entry ${name} lacks its ${what}`);
      }
      at += 8;
      return uint64(view64, at - 8);
    };
    if (uncompressedSize === IN_ZIP64) uncompressedSize = next("uncompressed size");
    if (compressedSize === IN_ZIP64) compressedSize = next("compressed size");
    if (localHeader === IN_ZIP64) localHeader = next("local header offset");
  }
  if (method === 0 && compressedSize !== uncompressedSize + (flags & 1 ? 12 : 0)) {
    throw new Error(
      `the stored entry ${name} says it is ${compressedSize} bytes in the archive but ${uncompressedSize} bytes long`,
    );
  }
  return { name, compressedSize, uncompressedSize, flags, method, localHeader };
}

/** The extra fields of an entry by id (the first of each); their lengths must stay inside the block. */
function extraFields(block: Uint8Array, name: string): Map<number, Uint8Array> {
  const view = viewOf(block);
  const fields = new Map<number, Uint8Array>();
  for (let at = 0; at < block.length - 3; ) {
    const id = view.getUint16(at, true);
    const end = at + 4 + view.getUint16(at + 2, true);
    if (end > block.length) throw new Error(`an extra field of the entry ${name} runs past its end`);
    if (!fields.has(id)) fields.set(id, block.subarray(at + 4, end));
    at = end;
  }
  return fields;
}

/**
 * An entry's name: UTF-8 when its flag says so, else one character a byte. The ZIP format's
 * default is code page 437, which agrees with this on ASCII, all that a workbook's part names are.
 */
function decodeName(bytes: Uint8Array, utf8: boolean): string {
  let name = "";
  if (utf8) name = new TextDecoder().decode(bytes);
  else for (const byte of bytes) name += String.fromCharCode(byte);
  return name.replace(/\\/g, "/"); // some writers separate folders with backslashes
}

/** Where `part`'s data starts, past its local header; its data must end inside the file. */
async function dataStart(file: ByteRange, part: Part): Promise<number> {
  const header = await file.read(part.localHeader, 30);
  if (header.length < 30) throw new Error(`the local header of the part ${part.name} is cut short`);
  const view = viewOf(header);
  if (view.getUint32(0, true) !== LOCAL_HEADER) {
    throw new Error(`the local header of the part ${part.name} is damaged`);
  }
  const start = part.localHeader + 30 + view.getUint16(26, true) + view.getUint16(28, true);
  if (start + part.compressedSize > file.size) {
    throw new Error(`the data of the part ${part.name} runs past the end of the file`);
  }
  return start;
}

/** A stored part's bytes as they are. */
async function* stored(file: ByteRange, part: Part, start: number): AsyncGenerator<Uint8Array> {
  for (let at = start, end = start + part.compressedSize; at < end; ) {
    const bytes = await file.read(at, Math.min(READ_CHUNK, end - at));
    if (bytes.length === 0) throw new Error(`the data of the part ${part.name} is cut short`);
    at += bytes.length;
    yield bytes;
  }
}

/**
 * A deflated part's bytes, inflated as its data is read; as many as its header says, no more, no
 * less. As with zlib, what a damaged stream holds before the damage is handed on first.
 */
async function* inflated(file: ByteRange, part: Part, start: number): AsyncGenerator<Uint8Array> {
  const damaged = (why: string) =>
    new Error(`the compressed data of the part ${part.name} is damaged (${why})`);
  // no data at all is no Deflate stream, which fflate would take for an empty one
  if (part.compressedSize === 0) throw damaged("it is empty");
  let out: Uint8Array[] = [];
  let inflatedBytes = 0;
  const inflate = new Inflate((chunk) => {
    inflatedBytes += chunk.length;
    if (chunk.length > 0) out.push(chunk);
  });
  const push = (chunk: Uint8Array, final: boolean) => {
    try {
      inflate.push(chunk, final);
    } catch (error) {
      throw damaged(error instanceof Error ? error.message : String(error));
    }
    if (inflatedBytes > part.uncompressedSize) {
      throw damaged(`it inflates to more than the ${part.uncompressedSize} bytes its header says`);
    }
    const ready = out;
    out = [];
    return ready;
  };
  for (let at = start, end = start + part.compressedSize; at < end; ) {
    const bytes = await file.read(at, Math.min(READ_CHUNK, end - at));
    if (bytes.length === 0) throw new Error(`the data of the part ${part.name} is cut short`);
    at += bytes.length;
    for (let k = 0; k < bytes.length; k += INFLATE_CHUNK) {
      yield* push(bytes.subarray(k, k + INFLATE_CHUNK), false);
    }
  }
  // only now is a stream that stops short of its end damaged: what it held is read by then
  yield* push(new Uint8Array(0), true);
  if (inflatedBytes < part.uncompressedSize) {
    throw damaged(`it inflates to ${inflatedBytes} bytes, not the ${part.uncompressedSize} its header says`);
  }
}

/** Reads forward from a position a window at a time: a directory's many small headers in few reads. */
class Cursor {
  readonly #file: ByteRange;
  #window: Uint8Array = new Uint8Array(0);
  #windowAt: number;
  #at: number;

  constructor(file: ByteRange, at: number) {
    this.#file = file;
    this.#at = this.#windowAt = at;
  }

  /** The next `length` bytes, or null when the file ends first. */
  async take(length: number): Promise<Uint8Array | null> {
    if (this.#at + length > this.#windowAt + this.#window.length) {
      this.#window = await this.#file.read(this.#at, Math.max(length, READ_CHUNK));
      this.#windowAt = this.#at;
    }
    const from = this.#at - this.#windowAt;
    if (from + length > this.#window.length) return null;
    this.#at += length;
    return this.#window.subarray(from, from + length);
  }
}

const viewOf = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.length);

/** A little-endian 64-bit number; past 2^53 it is inexact, and so past the end of any file. */
const uint64 = (view: DataView, at: number) =>
  view.getUint32(at + 4, true) * 0x100000000 + view.getUint32(at, true);
