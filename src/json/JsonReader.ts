// The push-based core of the JSON reader: fed bytes, it decodes strict UTF-8, drives the
// scanner and turns what it captures into records (users, licenses, license users).

import type { DataRecord } from "../model/DataRecord.js";
import type { Code } from "../report/catalog.js";
import type { FindingDetails } from "../report/ReportCollector.js";
import { findInJson, members, skipValue } from "./_locate.js";
import { locationIn } from "./_position.js";
import { findInvalidUtf8, incompleteTail } from "./_utf8.js";
import {
  type Captured,
  type ElementKind,
  escapePointer,
  JsonScanner,
  type LicenseParts,
  type ScanSink,
} from "./JsonScanner.js";
import { JsonLicenseRecord, JsonValueRecord } from "./records.js";

/** Receives records and reader findings, synchronously and in source order. */
export interface RecordSink {
  record(record: DataRecord): void;
  finding(code: Code, details: FindingDetails): void;
}

/** Limits of the reader (already normalised). */
export interface JsonReaderLimits {
  /** Deepest nesting accepted (the data file needs 5). */
  maxDepth: number;
  /** Largest single record, in bytes. */
  maxRecordBytes: number;
}

const BOM = [0xef, 0xbb, 0xbf];

/** Push-based JSON reader: `push(bytes)` as they arrive, then `end()`. */
export class JsonReader {
  readonly #sink: RecordSink;
  readonly #scanner: JsonScanner;
  readonly #decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  #pending: Uint8Array | null = null;
  #started = false;
  #stopped = false;
  #bytes = 0;

  constructor(sink: RecordSink, limits: JsonReaderLimits) {
    this.#sink = sink;
    this.#scanner = new JsonScanner(this.#scanSink(), limits);
  }

  /** Bytes pushed so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /** True once a fatal problem (syntax, encoding, depth) has ended reading: later input is ignored. */
  get stopped(): boolean {
    return this.#stopped || this.#scanner.stopped;
  }

  /** Reads the next bytes of the file. */
  push(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    if (this.stopped) return;
    let data = chunk;
    if (this.#pending) {
      data = new Uint8Array(this.#pending.length + chunk.length);
      data.set(this.#pending);
      data.set(chunk, this.#pending.length);
      this.#pending = null;
    }
    if (!this.#started) {
      if (data.length < 3 && BOM.slice(0, data.length).every((b, k) => data[k] === b)) {
        this.#pending = copyOf(data); // could still be a byte-order mark
        return;
      }
      this.#started = true;
      data = this.#skipByteOrderMark(data);
      if (this.stopped) return;
    }
    const tail = incompleteTail(data);
    if (tail > 0) {
      this.#pending = copyOf(data.subarray(data.length - tail));
      data = data.subarray(0, data.length - tail);
    }
    this.#decodeAndScan(data);
  }

  /** The end of the file. */
  end(): void {
    if (this.stopped) return;
    if (!this.#started && this.#pending) {
      const rest = this.#pending;
      this.#pending = null;
      this.#started = true;
      this.#decodeAndScan(rest);
    } else if (this.#pending) {
      this.#encodingError(
        this.#pending,
        findInvalidUtf8(this.#pending)?.reason ?? "the file ends inside a character",
      );
      return;
    }
    if (!this.stopped) this.#scanner.finish();
  }

  #skipByteOrderMark(data: Uint8Array): Uint8Array {
    if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) {
      this.#scanner.feed("", 3);
      return data.subarray(3);
    }
    if ((data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0xfe && data[1] === 0xff)) {
      this.#stopped = true;
      this.#sink.finding("json.encoding", {
        pointer: "",
        location: { line: 1, column: 1, offset: 0 },
        params: { detail: "the file is UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8" },
        hint: "save the file as UTF-8; with iconv: iconv -f utf-16 -t utf-8 in.json > out.json",
      });
    }
    return data;
  }

  #decodeAndScan(data: Uint8Array): void {
    let text: string;
    try {
      text = this.#decoder.decode(data);
    } catch {
      const bad = findInvalidUtf8(data);
      const at = bad ? bad.index : 0;
      this.#scanner.feed(this.#decoder.decode(data.subarray(0, at)), at);
      if (!this.#scanner.stopped) this.#encodingError(data.subarray(at), bad?.reason ?? "invalid UTF-8");
      return;
    }
    this.#scanner.feed(text, data.length);
  }

  #encodingError(rest: Uint8Array, reason: string): void {
    this.#stopped = true;
    const byte = rest[0] ?? 0;
    const latin1 = byte >= 0xa0 ? ` (in Latin-1 it would be '${String.fromCharCode(byte)}')` : "";
    this.#sink.finding("json.encoding", {
      pointer: this.#scanner.pointer(),
      location: this.#scanner.position(),
      params: { detail: `the file is not valid UTF-8: ${reason}${latin1}` },
    });
  }

  #scanSink(): ScanSink {
    const sink = this.#sink;
    return {
      finding: (code, details) => sink.finding(code, details),
      element: (kind, index, licenseIndex, value, source) =>
        sink.record(this.#valueRecord(kind, index, licenseIndex, value, source)),
      license: (parts) => sink.record(this.#licenseRecord(parts)),
    };
  }

  #valueRecord(
    kind: ElementKind,
    index: number,
    licenseIndex: number,
    value: unknown,
    source: Captured,
  ): DataRecord {
    let numericId = false;
    if (isObject(value)) {
      let keys = 0;
      for (const _ in value) keys++;
      if (keys !== (keys === 0 && source.commas === 0 ? 0 : source.commas + 1)) {
        this.#duplicateKeys(kind, index, licenseIndex, source);
      }
      if (kind === "user" && typeof value.id === "number") {
        // ids are strings; a numeric id keeps every digit of its source text
        const at = findInJson(source.text, ["id"]);
        value.id = source.text.slice(at, skipValue(source.text, at));
        numericId = true;
      }
    }
    const afterUsers = kind === "licenseUser" && this.#scanner.usersComplete;
    return new JsonValueRecord(
      kind,
      index,
      licenseIndex,
      value,
      source,
      numericId,
      afterUsers,
    ) as unknown as DataRecord;
  }

  #duplicateKeys(kind: ElementKind, index: number, licenseIndex: number, source: Captured): void {
    const seen = new Set<string>();
    const record = new JsonValueRecord(kind, index, licenseIndex, null, source);
    for (const member of members(source.text, 0)) {
      if (!seen.has(member.key)) {
        seen.add(member.key);
        continue;
      }
      this.#sink.finding("json.key.duplicate", {
        pointer: `${record.pointer}/${escapePointer(member.key)}`,
        location: locationIn(source.text, member.keyStart, source.loc),
        field: member.key,
        params: { key: JSON.stringify(member.key) },
      });
    }
  }

  #licenseRecord(parts: LicenseParts): DataRecord {
    const value: Record<string, unknown> = {};
    for (const member of parts.members) {
      // defineProperty: a "__proto__" key stays an own property and never reaches the prototype
      Object.defineProperty(value, member.key, {
        value: member.value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return new JsonLicenseRecord(
      parts.index,
      value,
      parts.loc,
      parts.members,
      parts.usersLoc,
      parts.userCount,
    );
  }
}

/** A copy (Buffer#slice would return a view of a buffer the caller may reuse). */
function copyOf(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
