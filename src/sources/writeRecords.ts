// Records made a CSV file: what a source of records (a database's rows, a directory's entries,
// a SCIM endpoint's or a JSON API's users) gives the job, so that everything after the source —
// the mapping, the check, the comparison, the guard, the push — reads them as it reads an export.
// A record's nested fields become columns named by their path (profile.email), a list of values
// one cell of the list layout (a; b, or a JSON array when an item holds a separator), a date its
// ISO form, a missing value an empty cell. The columns are the union of the records' fields, in
// the order they first appear: the records are spilled as JSON lines to a file beside the CSV
// while they are counted, then written out, so that memory holds a record at a time.

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Writable } from "node:stream";
import { stringify } from "csv-stringify/sync";

/** A record as a source gives it: any JSON-like value under each field. */
export type SourceRecord = Readonly<Record<string, unknown>>;

/** How many records were written, under which columns, and the CSV's bytes and SHA-256. */
export interface WrittenRecords {
  records: number;
  columns: string[];
  bytes: number;
  sha256: string;
}

/**
 * Writes `records` as CSV to `target` (a new file). `columns`: the columns, when the source
 * knows them before its first record (a query's); without them, the records are spilled to
 * `target`.jsonl and their columns gathered first.
 */
export async function writeRecords(
  records: AsyncIterable<SourceRecord>,
  target: string,
  columns?: readonly string[],
): Promise<WrittenRecords> {
  if (columns) return writeCsv(records, target, [...columns]);
  const spill = `${target}.jsonl`;
  try {
    const found = new Map<string, true>();
    const out = createWriteStream(spill, { flags: "wx", mode: 0o600 });
    let count = 0;
    try {
      for await (const record of records) {
        const flat = flatten(record);
        for (const key of Object.keys(flat)) found.set(key, true);
        await write(out, `${JSON.stringify(flat)}\n`);
        count++;
      }
    } finally {
      out.end();
      await once(out, "close");
    }
    const spilled = async function* (): AsyncGenerator<SourceRecord> {
      const lines = createInterface({ input: createReadStream(spill), crlfDelay: Number.POSITIVE_INFINITY });
      for await (const line of lines) if (line !== "") yield JSON.parse(line) as SourceRecord;
    };
    const written = await writeCsv(spilled(), target, [...found.keys()]);
    if (written.records !== count) throw new Error(`${count} records spilled, ${written.records} read back`);
    return written;
  } finally {
    await rm(spill, { force: true });
  }
}

/** The CSV of `records` under `columns`, a record a row. */
async function writeCsv(
  records: AsyncIterable<SourceRecord>,
  target: string,
  columns: string[],
): Promise<WrittenRecords> {
  const out = createWriteStream(target, { flags: "wx", mode: 0o600 });
  const hash = createHash("sha256");
  let bytes = 0;
  const put = (text: string) => {
    const chunk = Buffer.from(text);
    hash.update(chunk);
    bytes += chunk.length;
    return write(out, chunk);
  };
  let count = 0;
  try {
    await put(stringify([columns]));
    let batch: string[][] = [];
    for await (const record of records) {
      const flat = flatten(record);
      batch.push(columns.map((column) => flat[column] ?? ""));
      count++;
      if (batch.length === 512) {
        await put(stringify(batch));
        batch = [];
      }
    }
    if (batch.length > 0) await put(stringify(batch));
  } finally {
    out.end();
    await once(out, "close");
  }
  return { records: count, columns, bytes, sha256: hash.digest("hex") };
}

/** Writes `text`, waiting when the stream asks to. */
async function write(out: Writable, chunk: string | Buffer): Promise<void> {
  if (!out.write(chunk)) await once(out, "drain");
}

/** A record's fields as cells: nested objects by path, lists in the list layout, dates in ISO form. */
export function flatten(
  record: SourceRecord,
  prefix = "",
  into: Record<string, string> = {},
): Record<string, string> {
  for (const [key, value] of Object.entries(record)) {
    const name = prefix === "" ? key : `${prefix}.${key}`;
    if (isPlainObject(value)) flatten(value, name, into);
    else into[name] = cellOf(value);
  }
  return into;
}

/** One value as a cell. */
export function cellOf(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString("base64");
  if (Array.isArray(value)) {
    const items = value.filter((v) => v !== null && v !== undefined);
    if (items.every((v) => typeof v !== "object" || v instanceof Date)) {
      const cells = items.map(cellOf);
      // the list layout splits at , and ;: a list whose items hold one is written as JSON
      return cells.some((c) => /[,;]/.test(c)) ? JSON.stringify(cells) : cells.join("; ");
    }
    return JSON.stringify(items);
  }
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !Buffer.isBuffer(value)
  );
}
