// Writes the data file as JSON, streaming, one record a line. A license's users that come
// before it (the JSON reader completes a license only at its end) wait in a spill list, so
// that each license is written with its name first and memory stays bounded.

import type { Buffer } from "../bytes/buffer.js";
import { ChunkedOut } from "../bytes/ChunkedOut.js";
import type { TextOut } from "../bytes/TextOut.js";
import type { DocumentWriter } from "../model/DocumentWriter.js";
import { SpillList } from "../spill/SpillList.js";
import { isHighSurrogate, writeWideChar } from "../text/utf8.js";

type Section = "none" | "users" | "licenses";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const json = (value: unknown) => JSON.stringify(value ?? null);

/** What comes before each user of a license, on a line of its own: a comma too but before the first. */
const LICENSE_USER_INDENT = "\n      ";

/** Bytes enough for writeLicenseUserItem's text of `value`. */
export function licenseUserItemBytes(value: Readonly<Record<string, string>>): number {
  let n = LICENSE_USER_INDENT.length + 3; // the comma and the braces
  // JSON text takes at most 6 bytes a UTF-16 unit (\u001f; a lone surrogate \udc00)
  for (const key in value) n += 6 * (key.length + (value[key] as string).length) + 6;
  return n;
}

/**
 * Writes into `page` at `at` what JsonWriter writes for a license's user after its first: a
 * comma, a new line and the indent, then `value` as JSON (JSON.stringify's text, its object's
 * properties all strings: a license user as a CSV row gives it). The page has room for
 * licenseUserItemBytes(value) bytes there. Returns the bytes written. Text JSON does not
 * escape is copied as UTF-8 (writeObject); any other value is JSON.stringify's (a native call
 * per short string costs more than the copy).
 */
export function writeLicenseUserItem(
  page: Buffer,
  at: number,
  value: Readonly<Record<string, string>>,
): number {
  let k = at;
  page[k++] = 0x2c; // ,
  for (let i = 0; i < LICENSE_USER_INDENT.length; i++) page[k++] = LICENSE_USER_INDENT.charCodeAt(i);
  const end = writeObject(page, k, value);
  return (end < 0 ? k + page.write(JSON.stringify(value), k, "utf8") : end) - at;
}

/** What comes before each user, on a line of its own: a comma too but before the first. */
const USER_INDENT = "\n    ";

/**
 * Bytes enough for writeUserItem's text of `value` when it is an object whose values are strings
 * or arrays of strings (a user from CSV, from most JSON): 3 bytes a UTF-16 unit (text with
 * nothing to escape: else the writer gives up); -1 for any other value.
 */
export function userItemBytes(value: unknown): number {
  if (!isObject(value)) return -1;
  let n = USER_INDENT.length + 3; // the comma and the braces
  for (const key in value) {
    const v = value[key];
    n += 3 * key.length + 4; // quotes, colon, comma
    if (typeof v === "string") n += 3 * v.length + 2;
    else if (Array.isArray(v)) {
      n += 2;
      for (const item of v) {
        if (typeof item !== "string") return -1;
        n += 3 * item.length + 3;
      }
    } else return -1;
  }
  return n;
}

/**
 * Writes into `page` at `at` what JsonWriter writes for a user after the first: a comma, the
 * indent and JSON.stringify's text of `value` (see userItemBytes), byte for byte; returns the
 * bytes written, or -1 when a string holds what JSON escapes (a quote, a backslash, a control
 * character, a lone surrogate: JSON.stringify's text is then written instead).
 */
export function writeUserItem(page: Buffer, at: number, value: unknown): number {
  page[at] = 0x2c;
  const n = writeFirstUserItem(page, at + 1, value);
  return n < 0 ? n : n + 1;
}

/** writeUserItem for the first user: without the comma. */
export function writeFirstUserItem(page: Buffer, at: number, value: unknown): number {
  let k = at;
  for (let i = 0; i < USER_INDENT.length; i++) page[k++] = USER_INDENT.charCodeAt(i);
  const end = writeObject(page, k, value as Readonly<Record<string, string | readonly string[]>>);
  return end < 0 ? end : end - at;
}

/**
 * Writes `object` at `k` as JSON.stringify does, byte for byte, when its values are strings or
 * arrays of strings and no string holds what JSON escapes; returns where it ends, or -1.
 */
function writeObject(
  page: Buffer,
  k: number,
  object: Readonly<Record<string, string | readonly string[]>>,
): number {
  let next = 0x7b; // {, then a comma between properties
  for (const key in object) {
    page[k++] = next;
    next = 0x2c;
    k = unescapedString(page, k, key);
    if (k < 0) return -1;
    page[k++] = 0x3a; // :
    const v = object[key] as string | readonly string[];
    if (typeof v === "string") k = unescapedString(page, k, v);
    else {
      page[k++] = 0x5b; // [
      for (let i = 0; i < v.length && k >= 0; i++) {
        if (i > 0) page[k++] = 0x2c;
        k = unescapedString(page, k, v[i] as string);
      }
      if (k < 0) return -1;
      page[k++] = 0x5d; // ]
    }
    if (k < 0) return -1;
  }
  if (next === 0x7b) page[k++] = next; // {}
  page[k++] = 0x7d; // }
  return k;
}

/**
 * Writes `text` in quotes at `k`, in UTF-8, when JSON.stringify writes it with no escape (no
 * quote, backslash, control character or lone surrogate); returns where it ends, or -1.
 */
function unescapedString(page: Buffer, k: number, text: string): number {
  page[k++] = 0x22;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (c < 0x20 || c === 0x22 || c === 0x5c) return -1;
      page[k++] = c;
    } else {
      k = writeWideChar(page, k, text, i);
      if (k < 0) return -1;
      if (isHighSurrogate(c)) i++;
    }
  }
  page[k++] = 0x22;
  return k;
}

/** A DocumentWriter producing JSON text; it takes values as read (anything JSON.stringify takes). */
export class JsonWriter implements DocumentWriter {
  readonly #out: ChunkedOut;
  #section: Section = "none";
  #sections = 0;
  #items = 0;
  // users of a license not given yet, as JSON text
  #pending = new SpillList<string>(10_000);
  #pendingLicense = -1;
  // the license object still open for users given after it, and how many it has
  #open = -1;
  #openUsers = 0;

  constructor(out: TextOut) {
    this.#out = new ChunkedOut(out);
    this.#out.write("{");
  }

  user(value: unknown): void {
    this.#enter("users");
    // most users are short text: their bytes are written as JSON.stringify writes them, without it
    const bytes = userItemBytes(value);
    const first = this.#items === 0;
    if (bytes >= 0 && this.#out.fill(bytes, first ? writeFirstUserItem : writeUserItem, value)) this.#items++;
    else this.#item(json(value));
  }

  license(index: number, value: unknown, userCount: number): void {
    this.#enter("licenses");
    this.#closeLicense();
    if (!isObject(value)) {
      this.#item(json(value));
      return;
    }
    const { users: _, ...rest } = value;
    if (userCount === 0 && this.#pendingLicense !== index) {
      this.#item(JSON.stringify(rest)); // a license without users is written without "users"
      return;
    }
    const props = JSON.stringify(rest).slice(1, -1);
    this.#item(`{${props}${props ? "," : ""}"users":[`);
    this.#open = index;
    this.#openUsers = 0;
    if (this.#pendingLicense === index) {
      for (const user of this.#pending) this.#licenseUser(user);
      this.#pending.dispose();
      this.#pendingLicense = -1;
    }
  }

  licenseUser(licenseIndex: number, value: unknown): void {
    if (licenseIndex === this.#open) this.#licenseUser(json(value));
    else {
      this.#pendingLicense = licenseIndex;
      this.#pending.push(json(value));
    }
  }

  /**
   * `count` users of the license open last (`licenseIndex`: the last license given), given as
   * their items: the bytes writeLicenseUserItem writes for each, one after another, in chunks
   * cut anywhere. What `licenseUser` writes for them one at a time.
   */
  licenseUserItems(licenseIndex: number, count: number, items: Iterable<Uint8Array>): void {
    if (count === 0) return;
    if (licenseIndex !== this.#open)
      throw new Error("JsonWriter: license users' items for a license not open");
    let first = this.#openUsers === 0; // a license's first user has no comma before it
    for (const chunk of items) {
      if (chunk.length === 0) continue;
      this.#out.bytes(first ? chunk.subarray(1) : chunk);
      first = false;
    }
    this.#openUsers += count;
  }

  end(): void {
    this.#closeLicense();
    this.#leave();
    if (this.#sections === 0) this.#out.write('\n  "users": []');
    this.#out.write("\n}\n");
    this.#out.flush();
    this.#pending.dispose();
  }

  /** Deletes temporary files of an abandoned write. */
  dispose(): void {
    this.#pending.dispose();
  }

  #licenseUser(text: string): void {
    this.#out.write(`${this.#openUsers++ === 0 ? "" : ","}${LICENSE_USER_INDENT}${text}`);
  }

  #item(text: string): void {
    this.#out.write(`${this.#items++ === 0 ? "\n" : ",\n"}    ${text}`);
  }

  #enter(section: Section): void {
    if (this.#section === section) return;
    this.#closeLicense();
    this.#leave();
    this.#out.write(`${this.#sections++ === 0 ? "" : ","}\n  "${section}": [`);
    this.#section = section;
    this.#items = 0;
  }

  #leave(): void {
    if (this.#section === "none") return;
    this.#out.write(this.#items === 0 ? "]" : "\n  ]");
    this.#section = "none";
  }

  #closeLicense(): void {
    if (this.#open === -1) return;
    this.#out.write(this.#openUsers === 0 ? "]}" : "\n    ]}");
    this.#open = -1;
  }
}
