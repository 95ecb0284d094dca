// What the workbook reader asks of a ZIP archive, whichever reads it: yauzl in Node (_zip.ts), or
// the central directory read by hand and fflate's inflater in a browser (_zip.browser.ts).

/** A part of the archive as its central directory lists it. */
export interface ZipEntry {
  /** Its path inside the archive, "/"-separated, as written. */
  readonly name: string;
  /** Its size in the archive. */
  readonly compressedSize: number;
  /** Its size inflated: how many bytes reading it yields. */
  readonly uncompressedSize: number;
}

/** An archive open for reading parts by name, in any order. */
export interface ZipArchive {
  /** The part named `name` (a path inside the archive, any case), or undefined. */
  entry(name: string): ZipEntry | undefined;
  /**
   * The part's bytes as they are inflated. What is damaged — the part's header, its compressed
   * data, its size — rejects here or while iterating, with an Error saying what.
   */
  read(entry: ZipEntry): Promise<AsyncIterable<Uint8Array>>;
  /** Releases the archive (the bytes it reads stay their owner's). */
  close(): void;
}
