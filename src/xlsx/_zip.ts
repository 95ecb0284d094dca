// The ZIP container of a workbook, read by yauzl from its central directory: the parts are
// found by name and each is read as a stream, in any order (Excel writes the shared strings
// after the sheets that use them).

import yauzl, { type Entry, type ZipFile } from "yauzl";

/** A ZIP archive open for reading parts by name. */
export class ZipParts {
  readonly #zip: ZipFile;
  readonly #entries: Map<string, Entry>;

  private constructor(zip: ZipFile, entries: Map<string, Entry>) {
    this.#zip = zip;
    this.#entries = entries;
  }

  /** Opens the archive at `path` and lists its parts; rejects with yauzl's reason when it is no ZIP. */
  static open(path: string): Promise<ZipParts> {
    return new Promise((resolve, reject) => {
      yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: false }, (error, zip) => {
        if (error) {
          reject(error);
          return;
        }
        const entries = new Map<string, Entry>();
        zip.on("entry", (entry: Entry) => {
          // part names are case-insensitive (ECMA-376 part 2, 9.1.1.1)
          entries.set(entry.fileName.replace(/^\//, "").toLowerCase(), entry);
          zip.readEntry();
        });
        zip.once("end", () => resolve(new ZipParts(zip, entries)));
        zip.once("error", (e: Error) => {
          zip.close();
          reject(e);
        });
        zip.readEntry();
      });
    });
  }

  /** The part named `name` (a path inside the archive), or undefined. */
  entry(name: string): Entry | undefined {
    return this.#entries.get(name.replace(/^\//, "").toLowerCase());
  }

  /** The part's bytes as they are inflated. */
  read(entry: Entry): Promise<NodeJS.ReadableStream> {
    if (entry.isEncrypted()) return Promise.reject(new Error(`the part ${entry.fileName} is encrypted`));
    return new Promise((resolve, reject) => {
      this.#zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream)));
    });
  }

  close(): void {
    this.#zip.close();
  }
}
