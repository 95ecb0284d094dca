// The reference reader for the differential test: stream-json all the way. Its tokenizer,
// fed one character at a time so that every token's position is known, and its Assembler
// build the records; its verifier, run over the whole document, finds the syntax error.
// Slow, simple and independent of syncfile's scanner.

import Assembler from "stream-json/assembler.js";
import { jsonParser } from "stream-json/core/parser.js";
import { jsonVerifier } from "stream-json/core/utils/verifier.js";
import { locationIn } from "../../src/json/_position.js";
import type { SourceLocation } from "../../src/report/Finding.js";

const none = Symbol.for("object-stream.none");
const RAW = Symbol("raw number");

export interface ReferenceRecord {
  kind: "user" | "license" | "licenseUser";
  pointer: string;
  value: unknown;
  loc: SourceLocation;
}

export interface ReferenceResult {
  /** Where the document stops being JSON, or null. */
  syntaxError: SourceLocation | null;
  /** The records of a syntactically valid document, in the order they complete. */
  records: ReferenceRecord[];
}

interface Token {
  name: string;
  value?: unknown;
}

interface Frame {
  type: "object" | "array";
  key: string | null;
  index: number;
}

const START = { line: 1, column: 1, offset: 0 };

/** Reads `text` the stream-json way. */
export function referenceRead(text: string): ReferenceResult {
  const syntaxError = verify(text);
  if (syntaxError) return { syntaxError, records: [] };
  return { syntaxError: null, records: collectRecords(text) };
}

function verify(text: string): SourceLocation | null {
  const check = jsonVerifier() as unknown as (chunk: unknown) => unknown;
  try {
    check(text);
    check(none);
    return null;
  } catch (error) {
    return locationIn(text, (error as { offset: number }).offset, START);
  }
}

interface OpenRecord {
  kind: ReferenceRecord["kind"];
  pointer: string;
  start: number;
  assembler: Assembler;
}

function collectRecords(text: string): ReferenceRecord[] {
  const parse = jsonParser() as unknown as (chunk: unknown) => { values: Token[] } | symbol;
  const stack: Frame[] = [];
  const records: ReferenceRecord[] = [];
  const open: OpenRecord[] = []; // a license, and a license user inside it

  const pathOf = (): (string | number)[] =>
    stack.map((f) => (f.type === "array" ? f.index : (f.key as string)));

  const handle = (token: Token, at: number): void => {
    const startsValue = /^(start(Object|Array|String|Number)|nullValue|trueValue|falseValue)$/.test(
      token.name,
    );
    if (startsValue && stack[stack.length - 1]?.type === "array") {
      const path = pathOf();
      const kind = recordKind(path);
      if (kind) {
        // a literal's token comes once the char after it is read
        const literal = token.name.endsWith("Value") ? String(token.value).length : 0;
        const assembler = new Assembler();
        // keep each number's source text, as syncfile does for ids
        (assembler as unknown as Record<string, unknown>).numberValue = (raw: string) =>
          (assembler as unknown as { _saveValue(v: unknown): void })._saveValue({ [RAW]: raw });
        open.push({ kind, pointer: `/${path.join("/")}`, start: at - literal, assembler });
      }
    }
    for (const record of open) record.assembler.consume(token as never);
    switch (token.name) {
      case "startObject":
      case "startArray":
        stack.push({ type: token.name === "startObject" ? "object" : "array", key: null, index: 0 });
        return;
      case "keyValue": {
        const top = stack[stack.length - 1];
        if (top) top.key = token.value as string;
        return;
      }
      case "endObject":
      case "endArray":
        stack.pop();
        break;
      case "stringValue":
      case "numberValue":
      case "nullValue":
      case "trueValue":
      case "falseValue":
        break;
      default:
        return; // streamed parts of strings, keys and numbers
    }
    // a value ended: maybe the innermost open record
    const last = open[open.length - 1];
    if (last?.assembler.done) {
      open.pop();
      records.push({
        kind: last.kind,
        pointer: last.pointer,
        value: withoutStreamedUsers(last.kind, finish(last.kind, last.assembler.current)),
        loc: locationIn(text, last.start, START),
      });
    }
    const parent = stack[stack.length - 1];
    if (parent?.type === "array") parent.index++;
  };

  for (let i = 0; i <= text.length; i++) {
    const out = parse(i < text.length ? text[i] : none);
    if (typeof out === "object" && out !== null) for (const token of out.values) handle(token, i);
  }
  return records;
}

function recordKind(path: (string | number)[]): ReferenceRecord["kind"] | null {
  if (path.length === 2 && path[0] === "users" && typeof path[1] === "number") return "user";
  if (path.length === 2 && path[0] === "licenses" && typeof path[1] === "number") return "license";
  if (path.length === 4 && path[0] === "licenses" && path[2] === "users" && typeof path[3] === "number") {
    return "licenseUser";
  }
  return null;
}

/** A license record is the license without its users array, whose elements are records of their own. */
function withoutStreamedUsers(kind: ReferenceRecord["kind"], value: unknown): unknown {
  if (kind !== "license" || !isObject(value) || !Array.isArray(value.users)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key !== "users")
      Object.defineProperty(out, key, {
        value: value[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

/** Numbers back to numbers; a user's numeric id keeps its source text, as syncfile does. */
function finish(kind: ReferenceRecord["kind"], value: unknown): unknown {
  const walk = (v: unknown, isUserId: boolean): unknown => {
    if (isObject(v) && RAW in v) return isUserId ? v[RAW as never] : Number(v[RAW as never]);
    if (Array.isArray(v)) return v.map((x) => walk(x, false));
    if (isObject(v)) {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v)) {
        Object.defineProperty(out, key, {
          value: walk(v[key], kind === "user" && key === "id" && v === value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return v;
  };
  return walk(value, false);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
