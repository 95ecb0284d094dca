// The ZIP container of a workbook, read by yauzl from its central directory: the parts are
// found by name and each is read as a stream, in any order (Excel writes the shared strings
// after the sheets that use them). A browser build reads it with _zip.browser.ts instead.

import { pipeline, Readable } from "node:stream";
import { createInflateRaw } from "node:zlib";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import type { ByteRange } from "../bytes/ByteRange.js";
import type { ZipArchive, ZipEntry } from "./_ZipArchive.js";

/** How much of the archive a part's stream reads at a time. */
const READ_CHUNK = 64 * 1024;
/** How much of a part is inflated at a time. */
const INFLATE_CHUNK = 256 * 1024;

/** A ZIP archive open for reading parts by name. */
export class ZipParts implements ZipArchive {
  readonly #zip: ZipFile;
  readonly #entries: Map<string, ZipEntry>;
  /** yauzl's own entry of each part, which reading it takes. */
  readonly #yauzlEntries: Map<ZipEntry, Entry>;

  private constructor(zip: ZipFile, entries: Map<string, ZipEntry>, yauzlEntries: Map<ZipEntry, Entry>) {
    this.#zip = zip;
    this.#entries = entries;
    this.#yauzlEntries = yauzlEntries;
  }

  /** Opens the archive in `file` and lists its parts; rejects with yauzl's reason when it is no ZIP. */
  static open(file: ByteRange): Promise<ZipParts> {
    const options = { lazyEntries: true, autoClose: false, strictFileNames: false };
    return new Promise((resolve, reject) => {
      yauzl.fromRandomAccessReader(new RangeReader(file), file.size, options, (error, zip) => {
        if (error) {
          reject(error);
          return;
        }
        const entries = new Map<string, ZipEntry>();
        const yauzlEntries = new Map<ZipEntry, Entry>();
        zip.on("entry", (entry: Entry) => {
          const { fileName: name, compressedSize, uncompressedSize } = entry;
          const part = { name, compressedSize, uncompressedSize };
          yauzlEntries.set(part, entry);
          // part names are case-insensitive (ECMA-376 part 2, 9.1.1.1)
          entries.set(name.replace(/^\//, "").toLowerCase(), part);
          zip.readEntry();
        });
        zip.once("end", () => resolve(new ZipParts(zip, entries, yauzlEntries)));
        zip.once("error", (e: Error) => {
          zip.close();
          reject(e);
        });
        zip.readEntry();
      });
    });
  }

  entry(name: string): ZipEntry | undefined {
    return this.#entries.get(name.replace(/^\//, "").toLowerCase());
  }

  read(part: ZipEntry): Promise<AsyncIterable<Uint8Array>> {
    const entry = this.#yauzlEntries.get(part) as Entry;
    if (entry.isEncrypted()) return Promise.reject(new Error(`the part ${part.name} is encrypted`));
    const { compressionMethod } = entry;
    if (compressionMethod !== 0 && compressionMethod !== 8) {
      return Promise.reject(new Error(`unsupported compression method: ${compressionMethod}`));
    }
    // the stored bytes, inflated here rather than by yauzl: in larger pieces, through one stream
    // fewer (a sheet's part is hundreds of MB), its size checked as yauzl checks it
    return new Promise((resolve, reject) => {
      this.#zip.openReadStream(entry, { decodeFileData: false }, (error, stored) => {
        if (error) {
          reject(error);
          return;
        }
        if (compressionMethod === 0) {
          resolve(stored);
          return;
        }
        const inflate = createInflateRaw({ chunkSize: INFLATE_CHUNK });
        pipeline(stored, inflate, () => {});
        resolve(sized(inflate, entry.uncompressedSize));
      });
    });
  }

  close(): void {
    this.#zip.close();
  }
}

/** The archive's bytes as yauzl reads them: by position, and as streams of a range. */
class RangeReader extends yauzl.RandomAccessReader {
  readonly #file: ByteRange;

  constructor(file: ByteRange) {
    super();
    this.#file = file;
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const file = this.#file;
    return Readable.from(
      (async function* () {
        for (let at = start; at < end; ) {
          const bytes = await file.read(at, Math.min(READ_CHUNK, end - at));
          if (bytes.length === 0) return; // past the end: yauzl says how many bytes are missing
          at += bytes.length;
          yield bytes;
        }
      })(),
      { objectMode: false },
    );
  }

  // yauzl takes the count of bytes read as a second argument its types leave out
  override read(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
    callback: (error: Error | null, bytesRead?: number) => void,
  ): void {
    this.#file.read(position, length).then(
      (bytes) => {
        buffer.set(bytes, offset);
        callback(null, bytes.length);
      },
      (error: Error) => callback(error),
    );
  }
}

/** The inflated bytes of a part, `size` of them, else an error in yauzl's words. */
async function* sized(inflated: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let count = 0;
  for await (const chunk of inflated) {
    count += chunk.length;
    if (count > size)
      throw new Error(`too many bytes in the stream. expected ${size}. got at least ${count}`);
    yield chunk;
  }
  if (count < size) throw new Error(`not enough bytes in the stream. expected ${size}. got only ${count}`);
}
