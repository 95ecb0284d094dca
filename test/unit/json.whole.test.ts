// A scanner that reads plain records whole (JSON.parse up to the first "}", keys counted
// against the colons) hands on exactly what the char-by-char capture hands on: the same
// records, values, texts and locations, the same findings in the same order — for any
// document, whitespace, chunking and limits, and after any one-character mutation.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonDecoder } from "../../src/json/JsonDecoder.js";
import { JsonScanner } from "../../src/json/JsonScanner.js";
import { RecordBuilder } from "../../src/json/RecordBuilder.js";
import type { DataRecord } from "../../src/model/DataRecord.js";
import type { FindingDetails } from "../../src/report/Finding.js";
import { chunked, utf8 } from "../support/chunks.js";
import { documentArb, mutate, mutationArb, serialize, spacesArb } from "../support/jsonAst.js";

interface Limits {
  maxDepth: number;
  maxRecordBytes: number;
}

function read(bytes: Uint8Array, chunkSize: number, limits: Limits, whole: boolean) {
  const out: unknown[] = [];
  const sink = {
    record(record: DataRecord) {
      const { value, loc, pointer } = record;
      const text = "text" in record ? record.text : null;
      out.push({ record: pointer, kind: record.kind, value, text, loc: { ...loc } });
    },
    finding(code: string, details: FindingDetails) {
      out.push({ finding: code, details });
    },
  };
  let scanner: JsonScanner | null = null;
  const builder = new RecordBuilder(sink, () => scanner?.stop());
  scanner = new JsonScanner(builder, limits, whole);
  const decoder = new JsonDecoder(scanner, (code, details) => builder.finding(code, details));
  for (const chunk of chunked(bytes, chunkSize)) {
    decoder.push(chunk);
    if (decoder.stopped || builder.stopped) break;
  }
  decoder.end();
  return out;
}

const limitsArb = fc.record({
  maxDepth: fc.integer({ min: 2, max: 6 }),
  maxRecordBytes: fc.constantFrom(24, 48, 200, 1 << 20),
});
const chunkArb = fc.oneof(fc.integer({ min: 1, max: 64 }), fc.constantFrom(256, 4096, 1 << 16));

function agree(text: string, chunkSize: number, limits: Limits): void {
  const bytes = utf8(text);
  expect(read(bytes, chunkSize, limits, true), text).toEqual(read(bytes, chunkSize, limits, false));
}

describe("records read whole and records captured char by char", () => {
  it("agree on generated documents, any whitespace, chunking and limits", () => {
    fc.assert(
      fc.property(documentArb, spacesArb, chunkArb, limitsArb, (doc, spaces, chunk, limits) =>
        agree(serialize(doc, spaces), chunk, limits),
      ),
      { numRuns: 400 },
    );
  });

  it("agree after any one-character mutation", () => {
    fc.assert(
      fc.property(documentArb, spacesArb, mutationArb, chunkArb, limitsArb, (doc, spaces, m, chunk, limits) =>
        agree(mutate(serialize(doc, spaces), m), chunk, limits),
      ),
      { numRuns: 400 },
    );
  });

  it("agree on the records a plain reading could get wrong", () => {
    const users = [
      '{"email": "a@example.com", "x": 1, "x": 2}', // a key repeated
      '{"email": "a@example.com", "x" : 1, "x": 2}', // repeated, a space before one colon
      '{"email": "a@example.com", "x": 1, "x"\t: 2}', // repeated, a tab before one colon
      '{"email": "a@example.com", "x": 1, "x"\r\n: 2}', // repeated, a line break before one colon
      '{"n": {"a": 1, "a": 2}, "b": 2}', // repeated in a nested object
      '{"email": "}", "b": ":"}', // a "}" and a colon in strings
      '{"email": "q\\"}", "b": 1}', // an escaped quote before a "}"
      '{"a": "\\":", "b": 1}', // an escaped quote before a colon
      '{"n": {"m": {"k": [1]}}}', // deeper than a small limit
      '{"email": "ünïcødé 😀", "name":\n  "on two lines"}', // bytes past the chars, lines inside
      '{"id": 12345678901234567890}', // a numeric id keeps its digits
      '{"a": 1,}', // a syntax error
    ];
    for (const user of users) {
      const text = `{"users": [\n  ${user},\n  {"email": "b@example.com"}\n], "licenses": [{"name": "L", "users": [${user}]}]}`;
      for (const maxDepth of [2, 3, 64])
        for (const chunk of [7, 64, 4096]) agree(text, chunk, { maxDepth, maxRecordBytes: 1 << 20 });
      agree(text, 4096, { maxDepth: 64, maxRecordBytes: 30 });
    }
  });
});
