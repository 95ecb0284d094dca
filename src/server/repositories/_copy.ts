// A sync's rows on their way into their tables with COPY, while the file is still being read:
// the pass writes each table's rows as COPY text, and a copier per table sends that text as it
// grows (on PostgreSQL two copiers share the license users, each on its own connection, so
// each with a PostgreSQL process of its own). The database indexes the rows on its own
// processor (or thread) while the pass parses.
// The text waits for the copier in memory, up to a few megabytes, then in a temporary file
// until the copier has read it all: memory stays flat whichever is faster, and while the
// database keeps up no byte goes through the disk.
// - PostgreSQL (copyOnConnections): a COPY … FROM STDIN a table, each on its own connection,
//   that ends only when the pass found the file valid (load); otherwise it is abandoned, and
//   PostgreSQL keeps none of its rows.
// - The embedded database (copyInPieces): a COPY … FROM '/dev/blob' for each piece of the file
//   (a megabyte at most: each a short statement, and requests are answered between them); the
//   pieces are committed as they go, so the rows of a sync that does not apply are deleted
//   afterwards, as a failed sync's always are (syncs.ts end, and recover after a crash).

import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { ChunkedOut } from "syncfile/internal/bytes/ChunkedOut.js";
import { fileBytes } from "syncfile/internal/bytes/fileBytes.js";
import type {
  NormalizedLicense,
  NormalizedLicenseUser,
  NormalizedUser,
} from "syncfile/internal/model/normalize.js";
import { isHighSurrogate, writeWideChar } from "syncfile/internal/text/utf8.js";
import {
  ACCOUNT_LICENSE_USERS,
  ACCOUNT_LICENSES,
  ACCOUNT_USERS,
  type AccountTable,
  type Cell,
} from "./_accountTables.js";
import type { SyncRows } from "./types.js";

const READ_BYTES = 1 << 20;
/** A table's COPY text waiting for its copier in memory, at most: past that it waits in the file. */
const WAITING_IN_MEMORY = 4 << 20;
/**
 * The pieces a COPY's stream reads ahead of its connection (the stream's default is 16, up to
 * 16 MB a COPY while PostgreSQL is behind): with four COPYs, a 1 GB first sync peaked at 305–315
 * MB with 16 and 239–261 MB with 2, in the same time.
 */
const PIECES_AHEAD = 2;

/**
 * A table's rows as COPY text lines, each after the sync's fixed cells, in chunks of whole
 * lines, each handed to one of the table's texts (CopyText): the one with the least text
 * waiting, so that two copiers of one table share its rows as fast as each takes them.
 */
class CopyTextTable<R, C extends string> {
  readonly #prefix: string;
  readonly #out: ChunkedOut;
  /** The row being added, filled for each record. */
  readonly #row: Cell[];
  readonly #line: CopyLine;
  count = 0;

  constructor(
    readonly table: AccountTable<R, C>,
    readonly texts: readonly CopyText[],
    fixed: readonly Cell[],
  ) {
    this.#prefix = `${fixed.map(copyText).join("\t")}\t`;
    this.#row = new Array<Cell>(table.columns.length).fill(null);
    this.#line = { prefix: Buffer.from(this.#prefix), row: this.#row };
    // every chunk ends at a line's end (ChunkedOut flushes between writes), so any text may take it
    this.#out = new ChunkedOut({
      bytes: (chunk) => {
        let text = texts[0] as CopyText;
        for (let k = 1; k < texts.length; k++) {
          const other = texts[k] as CopyText;
          if (other.backlog < text.backlog) text = other;
        }
        text.push(chunk);
      },
    });
  }

  add(record: R, index: number, licenseIndex?: number): void {
    const row = this.#row;
    this.table.fill(row, record, index, licenseIndex);
    // the line's bytes written straight into the chunk, but past a chunk (see copyLineBytes)
    if (!this.#out.fill(copyLineBytes(this.#line.prefix, row), writeCopyLine, this.#line)) {
      this.#out.write(copyLine(this.#prefix, row));
    }
    this.count++;
  }

  /** No more rows: the readers reach the end. */
  end(): void {
    this.#out.flush();
    for (const text of this.texts) text.end();
  }
}

/**
 * Some of a table's COPY text, for one copier: readable as it grows, from memory while the
 * reader keeps up, else from a temporary file.
 */
export class CopyText {
  readonly #fd: number;
  readonly #inMemory: number;
  /** Text not yet read, in memory: before any in the file (see `#spooling`). */
  #waiting: Buffer[] = [];
  #waitingBytes = 0;
  /** Whether new text goes to the file: from when too much waits until the reader has read it all. */
  #spooling = false;
  readonly #file: { bytes(chunk: Uint8Array): void };
  /** Bytes written to the file, and read from it. */
  #written = 0;
  #read = 0;
  #state: "open" | "ended" | "abandoned" = "open";
  #followed = false; // the reader reached the end: abandoning is too late
  #closed = false;
  #wake: (() => void) | null = null;

  constructor(
    readonly table: AccountTable<never, string>,
    readonly path: string,
    inMemory: number,
  ) {
    this.#fd = openSync(path, "wx");
    this.#inMemory = inMemory;
    this.#file = fileBytes(this.#fd, (bytes) => {
      this.#written += bytes;
    });
  }

  /** The bytes written and not read yet. */
  get backlog(): number {
    return this.#waitingBytes + this.#written - this.#read;
  }

  /** Text after the text before (a chunk whose buffer is used again once this returns). */
  push(chunk: Uint8Array): void {
    if (this.#spooling) this.#file.bytes(chunk);
    else {
      this.#waiting.push(Buffer.from(chunk));
      this.#waitingBytes += chunk.length;
      this.#spooling = this.#waitingBytes > this.#inMemory;
    }
    this.#wakeReader();
  }

  /** No more text: the reader reaches the end. */
  end(): void {
    if (this.#state === "open") this.#state = "ended";
    this.#wakeReader();
  }

  /** The rows will not be loaded: the reader stops where it is (even after end(), until it has read all). */
  abandon(): void {
    if (!this.#followed) this.#state = "abandoned";
    this.#wakeReader();
  }

  close(): void {
    this.abandon();
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }

  /**
   * The text as it is written, until end() (or abandon(), which throws): what waits in memory,
   * then what waits in the file; once it has read all, new text waits in memory again.
   */
  async *follow(): AsyncGenerator<Buffer> {
    const file = await open(this.path, "r");
    try {
      for (;;) {
        if (this.#state === "abandoned") throw new Error("the sync's rows were abandoned");
        if (this.#waiting.length > 0) {
          yield this.#takeWaiting();
        } else if (this.#read < this.#written) {
          const buffer = Buffer.allocUnsafe(Math.min(READ_BYTES, this.#written - this.#read));
          const { bytesRead } = await file.read(buffer, 0, buffer.length, this.#read);
          this.#read += bytesRead;
          yield buffer.subarray(0, bytesRead);
        } else if (this.#spooling) {
          this.#spooling = false; // all read: new text need not wait in the file
        } else if (this.#state === "ended") {
          this.#followed = true;
          return;
        } else {
          await new Promise<void>((resolve) => {
            this.#wake = resolve;
          });
        }
      }
    } finally {
      await file.close();
    }
  }

  /** What waits in memory, up to about READ_BYTES, as one buffer. */
  #takeWaiting(): Buffer {
    let n = 0;
    let bytes = 0;
    while (
      n < this.#waiting.length &&
      (n === 0 || bytes + (this.#waiting[n] as Buffer).length <= READ_BYTES)
    ) {
      bytes += (this.#waiting[n] as Buffer).length;
      n++;
    }
    const taken = this.#waiting.splice(0, n);
    this.#waitingBytes -= bytes;
    return taken.length === 1 ? (taken[0] as Buffer) : Buffer.concat(taken, bytes);
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }
}

/** How some of a table's COPY text reaches the table, as it grows; resolves once it is all there. */
export type Copier = (text: CopyText) => Promise<void>;

/** A sync's rows streamed into its tables with COPY as the pass writes them (see the top of this file). */
export class CopyTextRows implements SyncRows {
  readonly #dir = mkdtempSync(join(tmpdir(), "syncfile-copy-"));
  readonly #users: CopyTextTable<NormalizedUser, never>;
  readonly #licenses: CopyTextTable<NormalizedLicense, "currency">;
  readonly #licenseUsers: CopyTextTable<NormalizedLicenseUser, never>;
  readonly #copies: Promise<PromiseSettledResult<void>[]>;
  /** What made the first COPY to fail fail, when one has. */
  #failure: { reason: unknown } | null = null;

  /**
   * `inMemory`: the bytes of a table's text that wait in memory, at most (tests make it small).
   * `licenseUserCopies`: how many copiers share the license users' text, each with its own
   * `inMemory` (the largest table, which one database process alone indexes more slowly than
   * the pass writes it).
   */
  constructor(
    copier: Copier,
    syncId: number,
    currency: string,
    inMemory = WAITING_IN_MEMORY,
    licenseUserCopies = 1,
  ) {
    const made: CopyText[] = [];
    const texts = (table: AccountTable<never, string>, name: string, count: number) =>
      Array.from({ length: count }, (_, k) => {
        const text = new CopyText(table, join(this.#dir, count === 1 ? name : `${name}-${k}`), inMemory);
        made.push(text);
        return text;
      });
    const table = <R, C extends string>(
      of: AccountTable<R, C>,
      name: string,
      fixed: readonly Cell[],
      count = 1,
    ) => new CopyTextTable(of, texts(of as unknown as AccountTable<never, string>, name, count), fixed);
    try {
      this.#users = table(ACCOUNT_USERS, "users", [syncId]);
      this.#licenses = table(ACCOUNT_LICENSES, "licenses", [syncId, currency]);
      this.#licenseUsers = table(ACCOUNT_LICENSE_USERS, "license-users", [syncId], licenseUserCopies);
    } catch (error) {
      // a file that could not be made (no space, no descriptors): none of them stays
      for (const text of made) text.close();
      rmSync(this.#dir, { recursive: true, force: true });
      throw error;
    }
    // when one COPY fails, the others are abandoned: no table keeps rows of a sync that failed;
    // the first failure is the reason (the others may have failed only for being abandoned)
    this.#copies = Promise.allSettled(
      made.map((text) =>
        copier(text).catch((error: unknown) => {
          if (this.#failure === null) this.#failure = { reason: error };
          for (const other of this.#texts()) other.abandon();
          throw error;
        }),
      ),
    );
  }

  get users(): number {
    return this.#users.count;
  }

  get licenses(): number {
    return this.#licenses.count;
  }

  get licenseUsers(): number {
    return this.#licenseUsers.count;
  }

  user(user: NormalizedUser): void {
    this.#users.add(user, this.#users.count);
  }

  license(index: number, license: NormalizedLicense): void {
    this.#licenses.add(license, index);
  }

  licenseUser(licenseIndex: number, index: number, holder: NormalizedLicenseUser): void {
    this.#licenseUsers.add(holder, index, licenseIndex);
  }

  /**
   * Ends the COPYs and resolves once every row is in its table (committed, under the sync's id);
   * rejects, once every COPY has ended one way or the other, when one failed.
   */
  async load(): Promise<void> {
    for (const table of [this.#users, this.#licenses, this.#licenseUsers]) table.end();
    await this.#copies;
    if (this.#failure) throw this.#failure.reason;
  }

  /**
   * Abandons the copies that have not ended and resolves once none sends anything more (the
   * embedded database's pieces sent are committed: its rows can be deleted from then on).
   */
  async abandon(): Promise<void> {
    for (const text of this.#texts()) text.abandon();
    await this.#copies;
  }

  /** Abandons the COPYs that have not ended (their rows are rolled back) and deletes the files. */
  dispose(): void {
    for (const text of this.#texts()) text.close();
    this.#copies.then(() => rmSync(this.#dir, { recursive: true, force: true }));
  }

  #texts(): readonly CopyText[] {
    return [this.#users, this.#licenses, this.#licenseUsers].flatMap((table) => table.texts);
  }
}

/** A COPY of each text into its table on a connection of its own from `pool`, as the text grows. */
export function copyOnConnections(pool: pg.Pool): Copier {
  return (text) => copy(pool, text);
}

async function copy(pool: pg.Pool, text: CopyText): Promise<void> {
  const client = await pool.connect();
  try {
    // the COPY lasts as long as the pass's reading: a role's statement timeout must not cut it
    await client.query("SET statement_timeout = 0");
    await pipeline(
      Readable.from(text.follow(), { highWaterMark: PIECES_AHEAD }),
      client.query(copyFrom(copyInto(text.table, "STDIN"))),
    );
    await client.query("RESET statement_timeout");
  } catch (error) {
    client.release(error as Error); // the connection goes, and the unfinished COPY's rows with it
    throw error;
  }
  client.release();
}

/** What copies COPY text into the embedded database: a statement a piece (Database.ts). */
export interface CopiesFrom {
  copyFrom(sql: string, bytes: Uint8Array): Promise<number>;
}

/**
 * What of a table's text waits in memory for copyInPieces, at most: a piece. The embedded
 * database's thread takes a piece at a time, and is most often behind; its memory counts most.
 */
export const PIECE_IN_MEMORY = READ_BYTES;

/** A table's text in whole lines, a piece at a time as it is written, each COPY'd into its table in `db`. */
export function copyInPieces(db: CopiesFrom): Copier {
  return async (file) => {
    const sql = copyInto(file.table, "'/dev/blob'");
    let cut: Buffer | null = null; // a line begun at the end of the piece before
    for await (const read of file.follow()) {
      const bytes: Buffer = cut ? Buffer.concat([cut, read]) : read;
      const end = bytes.lastIndexOf(0x0a) + 1;
      if (end > 0) await db.copyFrom(sql, bytes.subarray(0, end));
      cut = end < bytes.length ? Buffer.from(bytes.subarray(end)) : null;
    }
    if (cut) throw new Error(`the rows of ${file.table.name} end in a line cut off`);
  };
}

/** The COPY statement that fills `table`'s columns (the sync's fixed ones first) from `source`. */
function copyInto(table: AccountTable<never, string>, source: string): string {
  const columns = ["sync_id", ...table.constants, ...table.columns.map((c) => c.name)];
  return `COPY ${table.name} (${columns.join(", ")}) FROM ${source}`;
}

const COPY_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\\\",
  "\t": "\\t",
  "\n": "\\n",
  "\r": "\\r",
};

const TO_ESCAPE = /[\\\t\n\r]/;
const TO_ESCAPE_ALL = /[\\\t\n\r]/g;

/** A value as COPY's text format writes it: \N for null, backslash, tab and line ends escaped. */
function copyText(value: Cell | undefined): string {
  if (value === null || value === undefined) return "\\N";
  if (typeof value === "number") return String(value);
  // most values have nothing to escape: a test costs less than a replace that builds a string
  return TO_ESCAPE.test(value) ? value.replace(TO_ESCAPE_ALL, (c) => COPY_ESCAPES[c] as string) : value;
}

/** A line of COPY text: the sync's fixed cells (`prefix`: their COPY text's UTF-8, ending in a tab), then `row`'s. */
export interface CopyLine {
  prefix: Uint8Array;
  row: readonly Cell[];
}

/** The line of COPY text for `row`, after `prefix`, as a string (the line's end included). */
export function copyLine(prefix: string, row: readonly Cell[]): string {
  let line = prefix + copyText(row[0]);
  for (let i = 1; i < row.length; i++) line += `\t${copyText(row[i])}`;
  return `${line}\n`;
}

/**
 * Bytes enough for writeCopyLine's line of `row`: 3 a UTF-16 unit of text (an escape takes 2
 * bytes for a character of 1), 24 a number (String's longest), 2 for \N, and the separators.
 */
export function copyLineBytes(prefix: Uint8Array, row: readonly Cell[]): number {
  let n = prefix.length + 1;
  for (let i = 0; i < row.length; i++) {
    const value = row[i];
    n += (typeof value === "string" ? 3 * value.length : 24) + 1;
  }
  return n;
}

/**
 * Writes `line` into `page` at `at` as the UTF-8 of copyLine's text, byte for byte, with no
 * string made on the way (a sync writes millions of lines); returns the bytes written, or -1
 * for text with a lone surrogate (copyLine's text is then written: its encoding replaces it).
 * The page has room for copyLineBytes bytes there.
 */
export function writeCopyLine(page: Uint8Array, at: number, line: CopyLine): number {
  const { prefix, row } = line;
  page.set(prefix, at);
  let k = at + prefix.length;
  for (let i = 0; i < row.length && k >= 0; i++) {
    if (i > 0) page[k++] = 0x09;
    const value = row[i];
    if (value === null || value === undefined) {
      page[k++] = 0x5c;
      page[k++] = 0x4e; // \N
    } else if (typeof value === "number") {
      const text = String(value); // ASCII: digits, a sign, a point, an exponent
      for (let j = 0; j < text.length; j++) page[k++] = text.charCodeAt(j);
    } else k = writeCopyText(page, k, value);
  }
  if (k < 0) return -1;
  page[k++] = 0x0a;
  return k - at;
}

/** Writes `text` as copyText does, in UTF-8, at `k`; returns where it ends, or -1 (a lone surrogate). */
function writeCopyText(page: Uint8Array, k: number, text: string): number {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (c === 0x5c || c === 0x09 || c === 0x0a || c === 0x0d) {
        page[k++] = 0x5c;
        page[k++] = c === 0x5c ? 0x5c : c === 0x09 ? 0x74 : c === 0x0a ? 0x6e : 0x72;
      } else page[k++] = c;
    } else {
      k = writeWideChar(page, k, text, i);
      if (k < 0) return -1;
      if (isHighSurrogate(c)) i++;
    }
  }
  return k;
}
