// Turns the scanner's captures into records: JSON.parse on each captured value (with an
// exact location when it fails) unless the scanner read it whole and parsed it already, exact
// numeric ids, duplicate-key warnings, and license objects assembled from their properties.
// Runs in the thread of the checks, with the scanner.

import type { RecordSink } from "../model/RecordSink.js";
import type { Code } from "../report/catalog.js";
import type { FindingDetails, SourceLocation } from "../report/Finding.js";
import { escapePointer } from "../text/pointer.js";
import { diagnoseJson } from "./_diagnose.js";
import { findInJson, members, skipValue } from "./_locate.js";
import { locationIn } from "./_position.js";
import type { RecordSource } from "./_RecordBatch.js";
import { type Captured, JsonLicenseRecord, JsonValueRecord, type LicenseMember } from "./records.js";
import type { CaptureEvent, LicenseEndEvent, ScanSink } from "./ScanSink.js";

/** A scan sink that parses what the scanner captured; fatal on the first syntax error. */
export class RecordBuilder implements ScanSink {
  readonly #sink: RecordSink;
  readonly #onFatal: () => void;
  #members: LicenseMember[] = [];
  #stopped = false;

  /** `onFatal` is told when a syntax error ends reading (to stop the scanner). */
  constructor(sink: RecordSink, onFatal: () => void = () => {}) {
    this.#sink = sink;
    this.#onFatal = onFatal;
  }

  /** True after a syntax error in a captured value: everything later is ignored. */
  get stopped(): boolean {
    return this.#stopped;
  }

  capture(e: CaptureEvent): void {
    if (this.#stopped) return;
    // a plain record read whole by the scanner comes parsed, its keys already counted, and its
    // source found only when asked for
    if (e.source) {
      this.#record(e, e.value, e.source);
      return;
    }
    const source = capturedSource(e);
    const { text, loc } = source;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.#syntaxError(text, loc, pointerOf(e), error as Error);
      return;
    }
    if (e.kind === "skip") return;
    if (e.kind === "member") {
      this.#members.push({
        key: e.key,
        keyLoc: e.keyLoc ?? loc,
        value,
        source: { text, loc, commas: e.commas },
      });
      return;
    }
    if (isObject(value)) {
      let keys = 0;
      for (const _ in value) keys++;
      if (keys !== (keys === 0 && e.commas === 0 ? 0 : e.commas + 1))
        this.#duplicateKeys(text, loc, pointerOf(e));
    }
    this.#record(e, value, source);
  }

  /** Hands on a user, a license user or a license that is not an object. */
  #record(e: CaptureEvent, value: unknown, source: RecordSource): void {
    let numericId = false;
    if (e.kind === "user" && isObject(value) && typeof value.id === "number") {
      // ids are strings; a numeric id keeps every digit of its source text
      const text = source.text;
      const at = findInJson(text, ["id"]);
      value.id = text.slice(at, skipValue(text, at));
      numericId = true;
    }
    const afterUsers = e.kind === "licenseUser" && e.afterUsers;
    const textStorable = e.source !== null && e.textStorable;
    this.#sink.record(
      new JsonValueRecord(
        e.kind as JsonValueRecord["kind"], // never a member or a skipped value
        e.index,
        e.licenseIndex,
        value,
        source,
        numericId,
        afterUsers,
        textStorable,
      ),
    );
  }

  licenseEnd(e: LicenseEndEvent): void {
    if (this.#stopped) return;
    const value: Record<string, unknown> = {};
    for (const member of this.#members) {
      // defineProperty: a "__proto__" key stays an own property and never reaches the prototype
      Object.defineProperty(value, member.key, {
        value: member.value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    const record = new JsonLicenseRecord(e.index, value, e.loc, this.#members, e.usersLoc, e.userCount);
    this.#members = [];
    this.#sink.record(record);
  }

  finding(code: Code, details: FindingDetails): void {
    if (!this.#stopped) this.#sink.finding(code, details);
  }

  #syntaxError(text: string, loc: SourceLocation, pointer: string, error: Error): void {
    const problem = diagnoseJson(text, true) ?? { index: 0, message: error.message };
    this.#sink.finding("json.syntax", {
      pointer,
      location: locationIn(text, problem.index, loc),
      params: { detail: problem.message },
    });
    this.#stopped = true;
    this.#onFatal();
  }

  #duplicateKeys(text: string, loc: SourceLocation, pointer: string): void {
    const seen = new Set<string>();
    for (const member of members(text, 0)) {
      if (!seen.has(member.key)) {
        seen.add(member.key);
        continue;
      }
      this.#sink.finding("json.key.duplicate", {
        pointer: `${pointer}/${escapePointer(member.key)}`,
        location: locationIn(text, member.keyStart, loc),
        field: member.key,
        params: { key: JSON.stringify(member.key) },
      });
    }
  }
}

/** A captured value's text and location, from the event. */
function capturedSource(e: CaptureEvent): RecordSource {
  const text = e.start === 0 && e.end === e.text.length ? e.text : e.text.slice(e.start, e.end);
  return { text, loc: { line: e.line, column: e.column, offset: e.offset } };
}

function pointerOf(e: CaptureEvent): string {
  switch (e.kind) {
    case "user":
      return `/users/${e.index}`;
    case "license":
      return `/licenses/${e.index}`;
    case "licenseUser":
      return `/licenses/${e.licenseIndex}/users/${e.index}`;
    case "member":
      return `/licenses/${e.index}/${escapePointer(e.key)}`;
    default:
      return e.pointer;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export type { Captured };
