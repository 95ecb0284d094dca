// The fast path of the JSON reader. A small automaton walks the document's skeleton
// (root object → users / licenses arrays → license objects → license users arrays) and
// reports its syntax errors exactly. Every other value — each user, each license user, each
// license property — is captured whole (_ValueCapture.ts, with the loop in _scanValue.ts) and
// handed on unparsed, as a slice of the chunk it lies in; RecordBuilder gives it to JSON.parse.
// Memory is bounded by the largest value: one over the size limit is verified and dropped.
// Plain users and license users are read whole instead (unless told not to): the run of them
// from one's `{` to the chunk's last `}`, in brackets, with one JSON.parse (which succeeds only
// when that `}` ends one of them), else a record from its `{` to the first `}` after it (a run
// of one). Their keys are counted against the colons after a quote in their text, and their
// lines, with the chunk's marks (textMarks.ts), their bytes with byteLength, not char by
// char; where each record of a run lies is found only when asked (_RecordBatch.ts). A run
// where one of these does not hold (a nested object, a syntax error, a duplicate key, too
// deep, too large) is read in smaller steps, down to being captured as above.

import { Buffer } from "../bytes/buffer.js";
import type { Code } from "../report/catalog.js";
import type { SourceLocation } from "../report/Finding.js";
import { escapePointer } from "../text/pointer.js";
import { suggest } from "../text/suggest.js";
import { describeChar, diagnoseJson } from "./_diagnose.js";
import { locationIn } from "./_position.js";
import { RecordBatch, type RecordSource } from "./_RecordBatch.js";
import type { Cursor } from "./_scanValue.js";
import { BROKEN, COMPLETE, PENDING, TOO_DEEP, TOO_LARGE, ValueCapture } from "./_ValueCapture.js";
import type { TextSink } from "./JsonDecoder.js";
import {
  type CaptureEvent,
  type CaptureKind,
  emptyCapture,
  type ScanLimits,
  type ScanSink,
} from "./ScanSink.js";
import { countBelow, marksOf, type TextMarks } from "./textMarks.js";

const ROOT_KEYS = ["users", "licenses"] as const;

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

// skeleton frames
const DOC = 0;
const ROOT = 1;
const USERS = 2;
const LICENSES = 3;
const LICENSE = 4;
const LICENSE_USERS = 5;

// frame states
const BEFORE = 0; // document: before the root value
const AFTER = 1; // document: after it
const KEY_OR_CLOSE = 2;
const KEY = 3;
const COLON_NEXT = 4;
const VALUE = 5;
const COMMA_OR_CLOSE = 6;
const ITEM_OR_CLOSE = 7;
const ITEM = 8;

// how plain records are read (see the file header)
const CAPTURED = 0;
const ONE_BY_ONE = 1;
const IN_RUNS = 2;

const FRAME_NAMES: Readonly<Record<number, string>> = {
  [ROOT]: "the document object",
  [USERS]: "the users array",
  [LICENSES]: "the licenses array",
  [LICENSE]: "a license object",
  [LICENSE_USERS]: "the users array of a license",
};

const SIZE_KINDS: Readonly<Record<string, string>> = {
  user: "user",
  licenseUser: "license user",
  license: "license",
  member: "license property",
  key: "property name",
};

interface Frame {
  kind: number;
  state: number;
  pointer: string;
  loc: SourceLocation;
  /** Elements so far (arrays); the license's index (license objects). */
  index: number;
  /** The last key read (objects), and where. */
  key: string;
  keyLoc: SourceLocation;
  keys: Set<string> | null;
  usersLoc: SourceLocation | null;
  userCount: number;
  /** The license a license users array belongs to. */
  licenseIndex: number;
}

/** Push-based scanner of decoded text; see the file header. */
export class JsonScanner implements TextSink {
  readonly #sink: ScanSink;
  readonly #maxDepth: number;
  readonly #maxRecordBytes: number;
  readonly #frames: Frame[];
  readonly #cursor: Cursor = { line: 1, lineStart: 0, charBase: 0, extra: 0 };
  #byteBase = 0;
  /** Whether plain records are read whole and parsed here (see the file header). */
  readonly #whole: boolean;
  /** How plain records are read in the rest of the current chunk: in runs, one by one, or captured. */
  #reading = CAPTURED;
  /** Whether the current chunk is all ASCII (a char a byte). */
  #ascii = false;
  /** Where the skeleton resumes after a record read whole (-1: where it was). */
  #resume = -1;
  /** The current chunk's line feeds and key colons: given with it, or found when first needed. */
  #marks: TextMarks | null = null;

  #stopped = false;
  #sawContent = false;
  #sawUsers = false;
  #usersComplete = false;

  // the value being captured: what it is for, its index, and the capture itself
  #capturing: CaptureKind | "key" | null = null;
  #capIndex = 0;
  readonly #cap: ValueCapture;
  readonly #event: CaptureEvent = emptyCapture();

  /**
   * `whole`: read plain records whole and hand them on parsed; false captures every value
   * char by char (what reading them whole is tested against).
   */
  constructor(sink: ScanSink, limits: ScanLimits, whole = true) {
    this.#sink = sink;
    this.#whole = whole;
    this.#maxDepth = limits.maxDepth;
    this.#maxRecordBytes = limits.maxRecordBytes;
    this.#cap = new ValueCapture(limits.maxDepth, limits.maxRecordBytes);
    this.#frames = [this.#frame(DOC, BEFORE, "", { line: 1, column: 1, offset: 0 })];
  }

  /** True once the scan has stopped: a fatal problem, or `stop()`. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Stops the scan (a consumer found a fatal problem in a captured value). */
  stop(): void {
    this.#stopped = true;
  }

  /** The JSON pointer of what is being read: the value being captured, or the open container. */
  #pointer(): string {
    return this.#capturing ? this.#capPointer() : this.#top().pointer;
  }

  /** The bytes after the text fed so far are not UTF-8: a fatal finding just past it (JsonDecoder's). */
  encodingError(detail: string): void {
    if (!this.#stopped) this.#fail("json.encoding", this.#here(0), { detail });
  }

  /**
   * Scans the next piece of text, `byteLength` bytes of the source; `marks`, when given, are
   * its marks (else they are found here if reading records whole needs them).
   */
  feed(text: string, byteLength: number, marks: TextMarks | null = null): void {
    if (this.#stopped) return;
    this.#marks = marks;
    const cursor = this.#cursor;
    cursor.extra = 0;
    this.#cap.startChunk(this.#here(0));
    const n = text.length;
    this.#reading = this.#whole ? IN_RUNS : CAPTURED;
    this.#ascii = byteLength === n;
    let i = 0;
    while (i < n && !this.#stopped) {
      i = this.#capturing ? this.#capture(text, i, n) : this.#skeleton(text, i, n);
    }
    if (this.#capturing && !this.#stopped) {
      this.#cap.endChunk(text);
      this.#settle();
    }
    cursor.charBase += n;
    this.#byteBase += byteLength;
    this.#marks = null;
    cursor.extra = 0;
  }

  /** The end of the input: reports what is left open. */
  finish(): void {
    if (this.#stopped) return;
    const end = this.#here(0);
    if (this.#capturing) {
      this.#cap.endInput(end);
      this.#settle();
      if (this.#stopped) return;
    }
    const top = this.#top();
    if (top.kind !== DOC) {
      this.#fail("json.syntax", end, {
        detail: `unexpected end of the file: ${FRAME_NAMES[top.kind]} that opens at line ${top.loc.line} is not closed`,
        hint: "the file looks truncated; check that the export or the download finished",
      });
    } else if (!this.#sawContent) this.#fail("json.empty", { line: 1, column: 1, offset: 0 }, {});
    else if (!this.#sawUsers) {
      this.#sink.finding("document.users.required", {
        pointer: "",
        location: { line: 1, column: 1, offset: 0 },
      });
    }
  }

  // ── skeleton ─────────────────────────────────────────────────────────────

  #skeleton(text: string, i: number, n: number): number {
    const cursor = this.#cursor;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === SPACE || c === LF || c === CR || c === TAB) {
        if (c === LF) {
          cursor.line++;
          cursor.lineStart = cursor.charBase + i + 1;
        }
        continue;
      }
      this.#sawContent = true;
      const f = this.#top();
      if (f.kind === DOC) this.#docChar(f, text, i);
      else if (f.kind === ROOT || f.kind === LICENSE) this.#objectChar(f, text, i, c);
      else this.#arrayChar(f, text, i, c);
      if (this.#resume >= 0) {
        i = this.#resume - 1; // a record was read whole: go on after it
        this.#resume = -1;
        if (this.#stopped) return n;
        continue;
      }
      // a capture starts at its first char; anything else was consumed here
      if (this.#capturing || this.#stopped) return this.#stopped ? n : i;
    }
    return n;
  }

  #docChar(f: Frame, text: string, i: number): void {
    const c = text.charCodeAt(i);
    if (f.state === AFTER) {
      this.#fail("json.trailing", this.#here(i), { found: describeChar(text, i) });
      return;
    }
    if (c === OPEN_BRACE) {
      f.state = AFTER;
      const root = this.#frame(ROOT, KEY_OR_CLOSE, "", this.#here(i));
      root.keys = new Set();
      this.#frames.push(root);
      return;
    }
    const type = valueTypeAt(c);
    if (type === null) this.#syntax(text, i, "expected a JSON object");
    else {
      this.#fail("document.type", this.#here(i), {
        actual: type,
        ...(c === OPEN_BRACKET ? { hint: 'if this is the list of users, wrap it: {"users": [...]}' } : {}),
      });
    }
  }

  /** One significant char inside the root or a license object. */
  #objectChar(f: Frame, text: string, i: number, c: number): void {
    switch (f.state) {
      case KEY_OR_CLOSE:
      case KEY:
        if (c === QUOTE) this.#begin("key", c, i, 0);
        else if (c === CLOSE_BRACE && f.state === KEY_OR_CLOSE) this.#closeObject(f);
        else if (c === CLOSE_BRACE)
          this.#syntax(text, i, "a trailing comma before '}'", "remove the comma before '}'");
        else this.#syntax(text, i, "expected a property name in double quotes");
        return;
      case COLON_NEXT:
        if (c === COLON) f.state = VALUE;
        else this.#syntax(text, i, `expected ':' after the property name "${f.key}"`);
        return;
      case VALUE:
        this.#objectValue(f, text, i, c);
        return;
      default: // COMMA_OR_CLOSE
        if (c === COMMA) f.state = KEY;
        else if (c === CLOSE_BRACE) this.#closeObject(f);
        else
          this.#syntax(
            text,
            i,
            "expected ',' or '}'",
            c === QUOTE ? "a comma is missing before this property" : undefined,
          );
    }
  }

  #objectValue(f: Frame, text: string, i: number, c: number): void {
    const type = valueTypeAt(c);
    if (type === null) {
      this.#syntax(text, i, "expected a value");
      return;
    }
    f.state = COMMA_OR_CLOSE;
    const pointer = `${f.pointer}/${escapePointer(f.key)}`;
    const here = this.#here(i);
    if (f.kind === ROOT && (f.key === "users" || f.key === "licenses")) {
      if (f.key === "users") this.#sawUsers = true;
      if (c === OPEN_BRACKET) {
        this.#frames.push(this.#frame(f.key === "users" ? USERS : LICENSES, ITEM_OR_CLOSE, pointer, here));
        this.#checkDepth(i);
        return;
      }
      const code = f.key === "users" ? "document.users.type" : "document.licenses.type";
      this.#sink.finding(code, { pointer, location: here, params: { actual: type } });
    } else if (f.kind === LICENSE && f.key === "users" && c === OPEN_BRACKET) {
      f.usersLoc = here;
      const list = this.#frame(LICENSE_USERS, ITEM_OR_CLOSE, pointer, here);
      list.licenseIndex = f.index;
      this.#frames.push(list);
      this.#checkDepth(i);
      return;
    }
    this.#begin(f.kind === LICENSE ? "member" : "skip", c, i, f.index);
  }

  #closeObject(f: Frame): void {
    this.#frames.pop();
    if (f.kind === LICENSE) {
      this.#sink.licenseEnd({ index: f.index, loc: f.loc, usersLoc: f.usersLoc, userCount: f.userCount });
    }
  }

  /** One significant char inside the users, licenses or license users array. */
  #arrayChar(f: Frame, text: string, i: number, c: number): void {
    if (f.state === COMMA_OR_CLOSE) {
      if (c === COMMA) f.state = ITEM;
      else if (c === CLOSE_BRACKET) this.#closeArray(f);
      else
        this.#syntax(
          text,
          i,
          "expected ',' or ']'",
          valueTypeAt(c) ? "a comma is missing between two items" : undefined,
        );
      return;
    }
    if (c === CLOSE_BRACKET) {
      if (f.state === ITEM_OR_CLOSE) this.#closeArray(f);
      else this.#syntax(text, i, "a trailing comma before ']'", "remove the comma before ']'");
      return;
    }
    if (valueTypeAt(c) === null) {
      this.#syntax(text, i, "expected a value");
      return;
    }
    f.state = COMMA_OR_CLOSE;
    const index = f.index++;
    if (f.kind === USERS || f.kind === LICENSE_USERS) {
      const kind = f.kind === USERS ? "user" : "licenseUser";
      while (c === OPEN_BRACE && this.#reading !== CAPTURED) {
        const close = this.#reading === IN_RUNS ? text.lastIndexOf("}") : text.indexOf("}", i + 1);
        this.#resume = this.#readRun(kind, f, text, i, close, index);
        if (this.#resume >= 0) return;
        // the rest of this chunk record by record, then captured as usual
        this.#reading = this.#reading === IN_RUNS ? ONE_BY_ONE : CAPTURED;
      }
      this.#begin(kind, c, i, index);
    } else if (c === OPEN_BRACE) {
      const license = this.#frame(LICENSE, KEY_OR_CLOSE, `${f.pointer}/${index}`, this.#here(i));
      license.index = index;
      license.keys = new Set();
      this.#frames.push(license);
      this.#checkDepth(i);
    } else this.#begin("license", c, i, index);
  }

  #closeArray(f: Frame): void {
    this.#frames.pop();
    const parent = this.#top();
    if (f.kind === LICENSE_USERS) parent.userCount += f.index;
    if (f.kind === USERS) {
      this.#usersComplete = true;
      if (f.index === 0) this.#sink.finding("document.users.empty", { pointer: "/users", location: f.loc });
    }
  }

  #checkDepth(i: number): void {
    if (this.#frames.length - 1 > this.#maxDepth)
      this.#fail("json.depth", this.#here(i), { limit: this.#maxDepth });
  }

  // ── capture ──────────────────────────────────────────────────────────────

  /** Starts capturing a value whose first char, `c`, is at `i`. */
  #begin(kind: CaptureKind | "key", c: number, i: number, index: number): void {
    this.#capturing = kind;
    this.#capIndex = index;
    this.#cap.begin(c, i, this.#here(i));
  }

  /** Scans the captured value from `i`; returns where scanning stopped. */
  #capture(text: string, i: number, n: number): number {
    const end = this.#cap.step(text, i, n, this.#cursor, this.#maxDepth - (this.#frames.length - 1));
    this.#settle();
    return this.#stopped ? n : end;
  }

  /**
   * Reads the records from the one whose `{` is at `s` to the `}` at `close` with one
   * JSON.parse, when they are all plain (see the file header), and hands them on parsed;
   * returns where they end, or -1 when they are to be read in smaller steps.
   */
  #readRun(kind: CaptureKind, f: Frame, text: string, s: number, close: number, index: number): number {
    if (close < s) return -1;
    const source = text.slice(s, close + 1);
    let values: unknown[];
    try {
      values = JSON.parse(`[${source}]`) as unknown[];
    } catch {
      return -1; // not the end of a record of this array (a nested object, a "}" in a string), or a syntax error
    }
    const bytes = this.#ascii ? source.length : Buffer.byteLength(source);
    if (bytes > this.#maxRecordBytes) return -1; // a record may be too large
    const limit = this.#maxDepth - (this.#frames.length - 1);
    let keys = 0;
    for (const value of values) keys += keysWithin(value, limit);
    // a key repeated, or a record too deep (-1): either way fewer keys than colons after a quote
    this.#marks ??= marksOf(text);
    const marks = this.#marks;
    if (keys !== countBelow(marks.keyColons, close) - countBelow(marks.keyColons, s)) return -1;
    const loc = this.#pass(marks.lineFeeds, s, close, bytes - source.length);
    const batch = new RecordBatch(source, loc, values.length, limit);
    const storable = countBelow(marks.unicodeEscapes, close) === countBelow(marks.unicodeEscapes, s);
    for (let k = 0; k < values.length; k++) {
      this.#emit(kind, index + k, "", 0, 0, loc, 0, values[k], batch.source(k), storable);
    }
    f.index += values.length - 1;
    return close + 1;
  }

  /**
   * Moves the cursor past `text[s..close]`, read whole, whose UTF-8 is `extra` bytes longer
   * than its chars (`lineFeeds`: the chunk's); returns the location of `text[s]`.
   */
  #pass(lineFeeds: Int32Array, s: number, close: number, extra: number): SourceLocation {
    const loc = this.#here(s);
    const cursor = this.#cursor;
    const before = countBelow(lineFeeds, close);
    const lines = before - countBelow(lineFeeds, s);
    if (lines > 0) {
      cursor.line += lines;
      cursor.lineStart = cursor.charBase + (lineFeeds[before - 1] as number) + 1;
    }
    cursor.extra += extra;
    return loc;
  }

  /** Acts on the capture's outcome: a value to hand on, one too large, or a problem. */
  #settle(): void {
    const cap = this.#cap;
    const kind = this.#capturing as CaptureKind | "key";
    switch (cap.status) {
      case PENDING:
        return;
      case COMPLETE:
        if (kind === "key") this.#acceptKey(cap.text.slice(cap.start, cap.end));
        else
          this.#emit(
            kind,
            this.#capIndex,
            cap.text,
            cap.start,
            cap.end,
            cap.loc,
            cap.commas,
            undefined,
            null,
            false,
          );
        break;
      case TOO_LARGE:
        this.#tooLarge(kind);
        break;
      case TOO_DEEP:
        this.#fail("json.depth", this.#here(cap.at), { limit: this.#maxDepth });
        return;
      case BROKEN: {
        const problem = cap.problem as NonNullable<ValueCapture["problem"]>;
        this.#fail("json.syntax", problem.location ?? this.#here(cap.at), {
          detail: problem.message,
          ...(problem.hint ? { hint: problem.hint } : {}),
        });
        return;
      }
    }
    this.#capturing = null;
  }

  /**
   * Hands on `text.slice(start, end)`, which starts at `loc`; or, for a record read whole,
   * its `value`, parsed, and its `source` (then the text and location are found from it), and
   * whether its text is free of `\u` escapes.
   */
  #emit(
    kind: CaptureKind,
    index: number,
    text: string,
    start: number,
    end: number,
    loc: SourceLocation,
    commas: number,
    value: unknown,
    source: RecordSource | null,
    textStorable: boolean,
  ): void {
    const f = this.#top();
    const e = this.#event;
    e.kind = kind;
    e.index = index;
    e.licenseIndex = f.licenseIndex;
    e.key = kind === "member" ? f.key : "";
    e.keyLoc = kind === "member" ? f.keyLoc : null;
    e.pointer = kind === "skip" ? this.#capPointer() : "";
    e.text = text;
    e.start = start;
    e.end = end;
    e.line = loc.line;
    e.column = loc.column;
    e.offset = loc.offset;
    e.commas = commas;
    e.afterUsers = this.#usersComplete;
    e.value = value;
    e.source = source;
    e.textStorable = textStorable;
    this.#sink.capture(e);
  }

  /** A property name of the root or a license object (short: parsed here). */
  #acceptKey(raw: string): void {
    const f = this.#top();
    let key: string;
    try {
      key = JSON.parse(raw) as string;
    } catch {
      const problem = diagnoseJson(raw, true);
      this.#fail("json.syntax", locationIn(raw, problem?.index ?? 0, this.#cap.loc), {
        detail: problem?.message ?? "invalid property name",
      });
      return;
    }
    f.key = key;
    f.keyLoc = this.#cap.loc;
    f.state = COLON_NEXT;
    const keys = f.keys as Set<string>;
    if (keys.has(key)) {
      this.#sink.finding("json.key.duplicate", {
        pointer: `${f.pointer}/${escapePointer(key)}`,
        location: this.#cap.loc,
        params: { key: JSON.stringify(key) },
      });
    } else if (keys.size < 10_000) keys.add(key);
    if (f.kind === ROOT && key !== "users" && key !== "licenses") {
      const suggestion = suggest(key, ROOT_KEYS);
      this.#sink.finding("document.property.unknown", {
        pointer: `/${escapePointer(key)}`,
        location: this.#cap.loc,
        field: key,
        params: { key: JSON.stringify(key) },
        ...(suggestion ? { hint: `did you mean "${suggestion}"?` } : {}),
      });
    }
  }

  #tooLarge(kind: CaptureKind | "key"): void {
    const what = SIZE_KINDS[kind];
    if (what === undefined) return; // an unknown property's large value is verified and dropped
    this.#sink.finding("json.record.size", {
      pointer: this.#capPointer(),
      location: this.#cap.loc,
      params: { kind: what, limit: this.#maxRecordBytes },
    });
    if (kind === "key") {
      const f = this.#top();
      f.key = "";
      f.keyLoc = this.#cap.loc;
      f.state = COLON_NEXT;
    }
  }

  #capPointer(): string {
    const f = this.#top();
    switch (this.#capturing) {
      case "user":
      case "licenseUser":
      case "license":
        return `${f.pointer}/${this.#capIndex}`;
      case "member":
      case "skip":
        return `${f.pointer}/${escapePointer(f.key)}`;
      default:
        return f.pointer;
    }
  }

  // ── positions and errors ─────────────────────────────────────────────────

  /** The location of `text[i]` in the current chunk; exact for any i up to the scan position. */
  #here(i: number): SourceLocation {
    const c = this.#cursor;
    return { line: c.line, column: c.charBase + i - c.lineStart + 1, offset: this.#byteBase + i + c.extra };
  }

  #top(): Frame {
    return this.#frames[this.#frames.length - 1] as Frame;
  }

  #frame(kind: number, state: number, pointer: string, loc: SourceLocation): Frame {
    return {
      kind,
      state,
      pointer,
      loc,
      index: 0,
      key: "",
      keyLoc: loc,
      keys: null,
      usersLoc: null,
      userCount: 0,
      licenseIndex: -1,
    };
  }

  #syntax(text: string, i: number, detail: string, hint?: string): void {
    this.#fail("json.syntax", this.#here(i), {
      detail: `${detail} but found ${describeChar(text, i)}`,
      ...(hint ? { hint } : {}),
    });
  }

  #fail(code: Code, location: SourceLocation, params: Record<string, string | number>): void {
    const { hint, ...rest } = params;
    this.#sink.finding(code, {
      pointer: this.#pointer(),
      location,
      params: rest,
      ...(typeof hint === "string" ? { hint } : {}),
    });
    this.#stopped = true;
    this.#capturing = null;
  }
}

/**
 * The keys of `value`'s objects at every depth, or -1 when it nests more than `limit` deep
 * (an object or array is one level).
 */
function keysWithin(value: unknown, limit: number): number {
  if (typeof value !== "object" || value === null) return 0;
  if (limit < 1) return -1;
  let keys = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item !== "object" || item === null) continue;
      const inner = keysWithin(item, limit - 1);
      if (inner < 0) return -1;
      keys += inner;
    }
    return keys;
  }
  for (const key in value) {
    keys++;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item !== "object" || item === null) continue;
    const inner = keysWithin(item, limit - 1);
    if (inner < 0) return -1;
    keys += inner;
  }
  return keys;
}

/** The JSON type a value starting with `c` has, or null when no value starts with `c`. */
function valueTypeAt(c: number): string | null {
  if (c === OPEN_BRACE) return "an object";
  if (c === OPEN_BRACKET) return "an array";
  if (c === QUOTE) return "a string";
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return "a number";
  if (c === 0x74 || c === 0x66) return "a boolean";
  if (c === 0x6e) return "null";
  return null;
}
