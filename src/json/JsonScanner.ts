// The fast path of the JSON reader. A small automaton walks the document's skeleton
// (root object → users / licenses arrays → license objects → license users arrays) and
// reports its syntax errors exactly; every other value — each user, each license user,
// each license property — is captured by a tight loop that only tracks strings, brackets
// and positions, and is then handed whole to JSON.parse. When JSON.parse refuses a value,
// stream-json's verifier finds the exact character. Memory is bounded by the largest value.

import { suggest } from "../_internal/suggest.js";
import type { Code } from "../report/catalog.js";
import type { SourceLocation } from "../report/Finding.js";
import type { FindingDetails } from "../report/ReportCollector.js";
import {
  describeChar,
  diagnoseJson,
  type LocatedProblem,
  StreamingDiagnosis,
  type SyntaxProblem,
} from "./_diagnose.js";
import { locationIn } from "./_position.js";
import { utf8Length } from "./_utf8.js";

/** The kinds of record the scanner hands out. */
export type ElementKind = "user" | "license" | "licenseUser";

/** A value as captured from the source: its text, where it starts, and its commas at its own top level. */
export interface Captured {
  text: string;
  loc: SourceLocation;
  commas: number;
}

/** One property of a license object other than an array of users. */
export interface LicenseMember {
  key: string;
  keyLoc: SourceLocation;
  value: unknown;
  source: Captured;
}

/** A license object, complete. `users` (the array) was streamed as licenseUser elements. */
export interface LicenseParts {
  index: number;
  loc: SourceLocation;
  members: LicenseMember[];
  /** Where the users array starts, when the license has one. */
  usersLoc: SourceLocation | null;
  userCount: number;
}

/** Receives what the scanner finds, synchronously and in source order. */
export interface ScanSink {
  element(kind: ElementKind, index: number, licenseIndex: number, value: unknown, source: Captured): void;
  license(parts: LicenseParts): void;
  finding(code: Code, details: FindingDetails): void;
}

/** Limits of one scan. */
export interface ScanLimits {
  maxDepth: number;
  maxRecordBytes: number;
}

const ROOT_KEYS = ["users", "licenses"] as const;

// char codes
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
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

// what a capture is for
const P_KEY = 0;
const P_USER = 1;
const P_LICENSE = 2;
const P_LICENSE_USER = 3;
const P_MEMBER = 4;
const P_SKIP = 5;

// capture modes
const M_NESTED = 0; // an object or array
const M_STRING = 1;
const M_PRIMITIVE = 2; // number or literal

interface Frame {
  kind: number;
  state: number;
  pointer: string;
  loc: SourceLocation;
  /** Elements so far (arrays), the license's index (license objects). */
  index: number;
  /** The last key read (objects). */
  key: string;
  keyLoc: SourceLocation;
  keys: Set<string> | null;
  members: LicenseMember[];
  usersLoc: SourceLocation | null;
  userCount: number;
  /** The license a license users array belongs to. */
  licenseIndex: number;
}

const FRAME_NAMES: Readonly<Record<number, string>> = {
  [ROOT]: "the document object",
  [USERS]: "the users array",
  [LICENSES]: "the licenses array",
  [LICENSE]: "a license object",
  [LICENSE_USERS]: "the users array of a license",
};

/** Push-based scanner of decoded text; see the file header. */
export class JsonScanner {
  readonly #sink: ScanSink;
  readonly #maxDepth: number;
  readonly #maxRecordChars: number;
  readonly #maxRecordBytes: number;
  readonly #kinds: Uint8Array;
  readonly #frames: Frame[];

  // position: line and absolute char index of its start; chunk start in chars and bytes;
  // extra UTF-8 bytes of the current chunk up to the scan position
  #line = 1;
  #lineStart = 0;
  #charBase = 0;
  #byteBase = 0;
  #extra = 0;
  #chunkStart: SourceLocation = { line: 1, column: 1, offset: 0 };

  #stopped = false;
  #sawContent = false;
  #sawUsers = false;
  #usersComplete = false;

  // the value being captured
  #capturing = false;
  #purpose = P_SKIP;
  #mode = M_NESTED;
  #capDepth = 0;
  #capInString = false;
  #capEscape = false;
  #capCommas = 0;
  #capStart = 0;
  #capLoc: SourceLocation = { line: 1, column: 1, offset: 0 };
  #capIndex = 0;
  #capParts: string[] = [];
  #capChars = 0;
  #overflow: StreamingDiagnosis | null = null;

  constructor(sink: ScanSink, limits: ScanLimits) {
    this.#sink = sink;
    this.#maxDepth = limits.maxDepth;
    this.#maxRecordBytes = limits.maxRecordBytes;
    // a char is at least one byte: keeping this many chars never exceeds the byte limit by much
    this.#maxRecordChars = limits.maxRecordBytes;
    this.#kinds = new Uint8Array(limits.maxDepth + 1);
    this.#frames = [this.#frame(DOC, BEFORE, "", { line: 1, column: 1, offset: 0 })];
  }

  /** True once a fatal error (syntax, depth) has stopped the scan. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** True once the users array has been read to its end. */
  get usersComplete(): boolean {
    return this.#usersComplete;
  }

  /** The JSON pointer of what is being read: the record being captured, or the open container. */
  pointer(): string {
    return this.#capturing ? this.#capPointer() : this.#top().pointer;
  }

  /** The location just past the text fed so far. */
  position(): SourceLocation {
    return this.#here(0);
  }

  /** Scans the next piece of text, which is `byteLength` bytes of the source. */
  feed(text: string, byteLength: number): void {
    if (this.#stopped) return;
    this.#extra = 0;
    this.#chunkStart = this.#here(0);
    const n = text.length;
    let i = 0;
    while (i < n && !this.#stopped) {
      i = this.#capturing ? this.#capture(text, i, n) : this.#skeleton(text, i, n);
    }
    if (this.#capturing && !this.#stopped) this.#keepPart(text.slice(this.#capStart));
    this.#capStart = 0;
    this.#charBase += n;
    this.#byteBase += byteLength;
    this.#extra = 0;
  }

  /** The end of the input: reports what is left open. */
  finish(): void {
    if (this.#stopped) return;
    const end = this.#here(0);
    if (this.#capturing) {
      if (this.#mode === M_PRIMITIVE) {
        this.#complete("", 0);
      } else {
        // the input is complete now: an error before the end (a raw newline in a string) comes first
        const sofar = this.#capParts.join("");
        const problem = this.#overflow ? this.#overflow.end() : diagnoseJson(sofar, true);
        const at =
          problem && "index" in problem ? locationIn(sofar, problem.index, this.#capLoc) : problem?.location;
        if (problem && at && at.offset < end.offset)
          this.#fail("json.syntax", at, { detail: problem.message });
        else {
          this.#fail("json.syntax", end, {
            detail: `unexpected end of the file inside the value that starts at line ${this.#capLoc.line}`,
            hint: "the file looks truncated; check that the export or the download finished",
          });
        }
      }
      if (this.#stopped) return;
    }
    const top = this.#top();
    if (top.kind === DOC) {
      if (!this.#sawContent) this.#fail("json.empty", { line: 1, column: 1, offset: 0 }, {});
      else if (!this.#sawUsers) {
        this.#sink.finding("document.users.required", {
          pointer: "",
          location: { line: 1, column: 1, offset: 0 },
        });
      }
      return;
    }
    this.#fail("json.syntax", end, {
      detail: `unexpected end of the file: ${FRAME_NAMES[top.kind]} that opens at line ${top.loc.line} is not closed`,
      hint: "the file looks truncated; check that the export or the download finished",
    });
  }

  // ── skeleton ─────────────────────────────────────────────────────────────

  #skeleton(text: string, i: number, n: number): number {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === SPACE || c === LF || c === CR || c === TAB) {
        if (c === LF) {
          this.#line++;
          this.#lineStart = this.#charBase + i + 1;
        }
        continue;
      }
      this.#sawContent = true;
      const f = this.#top();
      switch (f.kind) {
        case DOC:
          this.#docChar(f, text, i);
          return i + 1;
        case ROOT:
        case LICENSE:
          if (this.#objectChar(f, text, i, c)) return i + (this.#capturing ? 0 : 1);
          break;
        default:
          if (this.#arrayChar(f, text, i, c)) return i + (this.#capturing ? 0 : 1);
      }
      if (this.#stopped) return n;
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
      this.#frames.push(this.#frame(ROOT, KEY_OR_CLOSE, "", this.#here(i)));
      this.#frames[1]!.keys = new Set();
      return;
    }
    const type = valueTypeAt(c);
    if (type === null) {
      this.#syntax(text, i, "expected a JSON object");
      return;
    }
    this.#fail("document.type", this.#here(i), {
      actual: type,
      ...(c === OPEN_BRACKET ? { hint: 'if this is the list of users, wrap it: {"users": [...]}' } : {}),
    });
  }

  /** One significant char inside the root or a license object; true when it changed the frame stack or began a capture. */
  #objectChar(f: Frame, text: string, i: number, c: number): boolean {
    switch (f.state) {
      case KEY_OR_CLOSE:
      case KEY:
        if (c === QUOTE) {
          this.#begin(P_KEY, M_STRING, i, 0);
          return true;
        }
        if (c === CLOSE_BRACE && f.state === KEY_OR_CLOSE) return this.#closeObject(f);
        this.#syntax(
          text,
          i,
          c === CLOSE_BRACE ? "a trailing comma before '}'" : "expected a property name in double quotes",
          c === CLOSE_BRACE ? "remove the comma before '}'" : undefined,
        );
        return false;
      case COLON_NEXT:
        if (c === COLON) {
          f.state = VALUE;
          return false;
        }
        this.#syntax(text, i, `expected ':' after the property name "${f.key}"`);
        return false;
      case VALUE:
        return this.#objectValue(f, text, i, c);
      default: // COMMA_OR_CLOSE
        if (c === COMMA) {
          f.state = KEY;
          return false;
        }
        if (c === CLOSE_BRACE) return this.#closeObject(f);
        this.#syntax(
          text,
          i,
          "expected ',' or '}'",
          c === QUOTE ? "a comma is missing before this property" : undefined,
        );
        return false;
    }
  }

  #objectValue(f: Frame, text: string, i: number, c: number): boolean {
    const type = valueTypeAt(c);
    if (type === null) {
      this.#syntax(text, i, "expected a value");
      return false;
    }
    f.state = COMMA_OR_CLOSE;
    const pointer = `${f.pointer}/${escapePointer(f.key)}`;
    const here = this.#here(i);
    if (f.kind === ROOT && (f.key === "users" || f.key === "licenses")) {
      if (c === OPEN_BRACKET) {
        if (f.key === "users") this.#sawUsers = true;
        this.#frames.push(this.#frame(f.key === "users" ? USERS : LICENSES, ITEM_OR_CLOSE, pointer, here));
        this.#checkDepth(i);
        return true;
      }
      if (f.key === "users") this.#sawUsers = true;
      const code = f.key === "users" ? "document.users.type" : "document.licenses.type";
      this.#sink.finding(code, { pointer, location: here, params: { actual: type } });
    } else if (f.kind === LICENSE && f.key === "users" && c === OPEN_BRACKET) {
      f.usersLoc = here;
      const list = this.#frame(LICENSE_USERS, ITEM_OR_CLOSE, pointer, here);
      list.licenseIndex = f.index;
      this.#frames.push(list);
      this.#checkDepth(i);
      return true;
    }
    this.#begin(f.kind === LICENSE ? P_MEMBER : P_SKIP, modeOf(c), i, 0);
    return true;
  }

  #closeObject(f: Frame): boolean {
    this.#frames.pop();
    if (f.kind === LICENSE) {
      this.#sink.license({
        index: f.index,
        loc: f.loc,
        members: f.members,
        usersLoc: f.usersLoc,
        userCount: f.userCount,
      });
    }
    return true;
  }

  /** One significant char inside the users, licenses or license users array. */
  #arrayChar(f: Frame, text: string, i: number, c: number): boolean {
    if (f.state === COMMA_OR_CLOSE) {
      if (c === COMMA) {
        f.state = ITEM;
        return false;
      }
      if (c === CLOSE_BRACKET) return this.#closeArray(f);
      this.#syntax(
        text,
        i,
        "expected ',' or ']'",
        valueTypeAt(c) ? "a comma is missing between two items" : undefined,
      );
      return false;
    }
    if (c === CLOSE_BRACKET) {
      if (f.state === ITEM_OR_CLOSE) return this.#closeArray(f);
      this.#syntax(text, i, "a trailing comma before ']'", "remove the comma before ']'");
      return false;
    }
    const type = valueTypeAt(c);
    if (type === null) {
      this.#syntax(text, i, "expected a value");
      return false;
    }
    f.state = COMMA_OR_CLOSE;
    const index = f.index++;
    if (f.kind === USERS) this.#begin(P_USER, modeOf(c), i, index);
    else if (f.kind === LICENSE_USERS) this.#begin(P_LICENSE_USER, modeOf(c), i, index);
    else if (c === OPEN_BRACE) {
      const license = this.#frame(LICENSE, KEY_OR_CLOSE, `${f.pointer}/${index}`, this.#here(i));
      license.index = index;
      license.keys = new Set();
      this.#frames.push(license);
      this.#checkDepth(i);
    } else this.#begin(P_LICENSE, modeOf(c), i, index);
    return true;
  }

  #closeArray(f: Frame): boolean {
    this.#frames.pop();
    const parent = this.#top();
    if (f.kind === LICENSE_USERS) parent.userCount += f.index;
    if (f.kind === USERS) {
      this.#usersComplete = true;
      if (f.index === 0) this.#sink.finding("document.users.empty", { pointer: "/users", location: f.loc });
    }
    return true;
  }

  #checkDepth(i: number): void {
    if (this.#frames.length - 1 > this.#maxDepth) {
      this.#fail("json.depth", this.#here(i), { limit: this.#maxDepth });
    }
  }

  // ── capture ──────────────────────────────────────────────────────────────

  #begin(purpose: number, mode: number, i: number, index: number): void {
    this.#capturing = true;
    this.#purpose = purpose;
    this.#mode = mode;
    this.#capIndex = index;
    this.#capStart = i;
    this.#capLoc = this.#here(i);
    this.#capDepth = 0;
    this.#capInString = false;
    this.#capEscape = false;
    this.#capCommas = 0;
    this.#capParts = [];
    this.#capChars = 0;
    this.#overflow = null;
  }

  /** Scans a captured value from `i`; returns where scanning stopped (the chunk end, or just past the value). */
  #capture(text: string, i: number, n: number): number {
    if (this.#mode === M_PRIMITIVE) {
      let k = i;
      while (k < n && isPrimitiveChar(text.charCodeAt(k))) k++;
      if (k < n) this.#complete(text, k);
      return k;
    }
    const kinds = this.#kinds;
    const limit = this.#maxDepth - (this.#frames.length - 1);
    const charBase = this.#charBase;
    let depth = this.#capDepth;
    let inString = this.#capInString;
    let commas = this.#capCommas;
    let extra = this.#extra;
    let line = this.#line;
    let lineStart = this.#lineStart;
    let done = false;
    let problem = 0; // 1: bracket mismatch, 2: too deep
    if (this.#capEscape) {
      this.#capEscape = false;
      i++;
    }
    for (; i < n; i++) {
      let c = text.charCodeAt(i);
      if (inString || c === QUOTE) {
        // a string: its own tight loop (most chars of a record are in strings)
        if (!inString) i++;
        inString = true;
        for (; i < n; i++) {
          c = text.charCodeAt(i);
          if (c === QUOTE) {
            inString = false;
            break;
          }
          if (c === BACKSLASH) i++;
          else if (c >= 0x80) extra += c < 0x800 ? 1 : (c & 0xf800) === 0xd800 ? 1 : 2;
        }
        if (inString) break; // the chunk ends inside the string
        if (depth === 0) {
          done = true;
          i++;
          break;
        }
        continue;
      }
      if (c <= SPACE) {
        // whitespace (a control char here is JSON.parse's to report)
        if (c === LF) {
          line++;
          lineStart = charBase + i + 1;
        }
        continue;
      }
      switch (c) {
        case COMMA:
          if (depth === 1) commas++;
          break;
        case OPEN_BRACE:
        case OPEN_BRACKET:
          if (depth >= limit) problem = 2;
          else kinds[depth++] = c;
          break;
        case CLOSE_BRACE:
        case CLOSE_BRACKET:
          if (depth === 0 || kinds[depth - 1] !== c - 2) problem = 1;
          else if (--depth === 0) done = true;
          break;
        default:
          if (c >= 0x80) extra += c < 0x800 ? 1 : (c & 0xf800) === 0xd800 ? 1 : 2;
      }
      if (problem !== 0) break;
      if (done) {
        i++;
        break;
      }
    }
    if (i > n) {
      this.#capEscape = true; // the char after a backslash is in the next chunk
      i = n;
    }
    this.#capDepth = depth;
    this.#capInString = inString;
    this.#capCommas = commas;
    this.#extra = extra;
    this.#line = line;
    this.#lineStart = lineStart;
    if (problem === 2) this.#fail("json.depth", this.#here(i), { limit: this.#maxDepth });
    else if (problem === 1) this.#mismatch(text, i);
    else if (done) this.#complete(text, i);
    return problem === 0 ? i : n;
  }

  /** Where the part of the captured value in the current chunk starts. */
  #partStart(): SourceLocation {
    return this.#capChars === 0 ? this.#capLoc : this.#chunkStart;
  }

  /** Keeps the part of the value in this chunk; past the size limit, only verifies it. */
  #keepPart(part: string): void {
    const partStart = this.#partStart();
    this.#capChars += part.length;
    if (!this.#overflow && this.#capChars > this.#maxRecordChars) {
      const kept = this.#capParts.join("") + part;
      this.#capParts = [];
      this.#overflow = new StreamingDiagnosis();
      this.#located(this.#overflow.feed(kept, this.#capLoc));
    } else if (this.#overflow) this.#located(this.#overflow.feed(part, partStart));
    else this.#capParts.push(part);
  }

  /** The captured value ends at `end` in `text`. */
  #complete(text: string, end: number): void {
    const part = text.slice(this.#capStart, end);
    if (this.#overflow) {
      this.#keepPart(part);
      if (!this.#stopped) this.#located(this.#overflow.end());
      if (!this.#stopped) this.#tooLarge();
      this.#capturing = false;
      return;
    }
    const source: Captured = {
      text: this.#capParts.length > 0 ? this.#capParts.join("") + part : part,
      loc: this.#capLoc,
      commas: this.#capCommas,
    };
    this.#capParts = [];
    if (source.text.length * 3 > this.#maxRecordBytes && utf8Length(source.text) > this.#maxRecordBytes) {
      const problem = diagnoseJson(source.text, true);
      if (problem) this.#failAt(source.text, problem, source.loc);
      else this.#tooLarge();
      this.#capturing = false;
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(source.text);
    } catch (error) {
      const problem = diagnoseJson(source.text, true) ?? { index: 0, message: (error as Error).message };
      this.#failAt(source.text, problem, source.loc);
      return;
    }
    this.#capturing = false;
    this.#deliver(value, source);
  }

  #deliver(value: unknown, source: Captured): void {
    const f = this.#top();
    switch (this.#purpose) {
      case P_KEY:
        this.#acceptKey(f, value as string, source.loc);
        break;
      case P_USER:
        this.#sink.element("user", this.#capIndex, -1, value, source);
        break;
      case P_LICENSE_USER:
        this.#sink.element("licenseUser", this.#capIndex, f.licenseIndex, value, source);
        break;
      case P_LICENSE:
        this.#sink.element("license", this.#capIndex, -1, value, source);
        break;
      case P_MEMBER:
        f.members.push({ key: f.key, keyLoc: f.keyLoc, value, source });
        break;
      default: // P_SKIP: verified and dropped
    }
  }

  #acceptKey(f: Frame, key: string, loc: SourceLocation): void {
    f.key = key;
    f.keyLoc = loc;
    f.state = COLON_NEXT;
    const keys = f.keys as Set<string>;
    if (keys.has(key)) {
      this.#sink.finding("json.key.duplicate", {
        pointer: `${f.pointer}/${escapePointer(key)}`,
        location: loc,
        params: { key: JSON.stringify(key) },
      });
    } else if (keys.size < 10_000) keys.add(key);
    if (f.kind === ROOT && key !== "users" && key !== "licenses") {
      const suggestion = suggest(key, ROOT_KEYS);
      this.#sink.finding("document.property.unknown", {
        pointer: `/${escapePointer(key)}`,
        location: loc,
        field: key,
        params: { key: JSON.stringify(key) },
        ...(suggestion ? { hint: `did you mean "${suggestion}"?` } : {}),
      });
    }
  }

  #tooLarge(): void {
    const kinds: Record<number, string> = {
      [P_USER]: "user",
      [P_LICENSE_USER]: "license user",
      [P_LICENSE]: "license",
      [P_MEMBER]: "license property",
      [P_KEY]: "property name",
    };
    const kind = kinds[this.#purpose];
    if (kind === undefined) return; // an unknown property's large value is verified and dropped
    this.#sink.finding("json.record.size", {
      pointer: this.#capPointer(),
      location: this.#capLoc,
      params: { kind, limit: this.#maxRecordBytes },
    });
    if (this.#purpose === P_KEY) this.#acceptKey(this.#top(), "", this.#capLoc);
  }

  /**
   * A closing bracket that does not match: the value is broken at it or before, so the
   * verifier reads it as complete (no waiting on a held-back token) and names the first problem.
   */
  #mismatch(text: string, i: number): void {
    const part = text.slice(this.#capStart, i + 1);
    if (this.#overflow) {
      const partStart = this.#partStart();
      this.#located(this.#overflow.feed(part, partStart) ?? this.#overflow.end());
    } else {
      const sofar = this.#capParts.join("") + part;
      const problem = diagnoseJson(sofar, true);
      if (problem) this.#failAt(sofar, problem, this.#capLoc);
    }
    if (!this.#stopped) this.#syntax(text, i, "unexpected closing bracket");
  }

  #capPointer(): string {
    const f = this.#top();
    switch (this.#purpose) {
      case P_USER:
      case P_LICENSE_USER:
      case P_LICENSE:
        return `${f.pointer}/${this.#capIndex}`;
      case P_MEMBER:
      case P_SKIP:
        return `${f.pointer}/${escapePointer(f.key)}`;
      default:
        return f.pointer;
    }
  }

  // ── positions and errors ─────────────────────────────────────────────────

  /** The location of `text[i]` in the current chunk; exact for any i up to the scan position. */
  #here(i: number): SourceLocation {
    return {
      line: this.#line,
      column: this.#charBase + i - this.#lineStart + 1,
      offset: this.#byteBase + i + this.#extra,
    };
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
      members: [],
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

  /** A syntax problem found by the streaming diagnosis, if any. */
  #located(problem: LocatedProblem | null): void {
    if (problem) this.#fail("json.syntax", problem.location, { detail: problem.message });
  }

  /** A syntax problem at `problem.index` of `text`, which starts at `start`. */
  #failAt(text: string, problem: SyntaxProblem, start: SourceLocation): void {
    this.#fail("json.syntax", locationIn(text, problem.index, start), { detail: problem.message });
  }

  #fail(code: Code, location: SourceLocation, params: Record<string, string | number>): void {
    const { hint, ...rest } = params;
    this.#sink.finding(code, {
      pointer: this.pointer(),
      location,
      params: rest,
      ...(typeof hint === "string" ? { hint } : {}),
    });
    this.#stopped = true;
    this.#capturing = false;
    this.#capParts = [];
  }
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

function modeOf(c: number): number {
  if (c === OPEN_BRACE || c === OPEN_BRACKET) return M_NESTED;
  return c === QUOTE ? M_STRING : M_PRIMITIVE;
}

/** Chars that can continue a number or a literal; anything else ends it. */
function isPrimitiveChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    c === 0x2e ||
    c === 0x2b ||
    c === 0x2d
  );
}

/** RFC 6901 escaping of one pointer segment. */
export function escapePointer(segment: string): string {
  return segment.includes("~") || segment.includes("/")
    ? segment.replace(/~/g, "~0").replace(/\//g, "~1")
    : segment;
}
