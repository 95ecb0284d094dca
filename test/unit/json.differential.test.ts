// The fast path and stream-json agree: on whether a document is valid JSON, on where it stops
// being JSON, and on every record (kind, pointer, value, location) — whatever the whitespace,
// the key order, the chunking, and after any one-character mutation.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readRecords } from "../../src/index.js";
import { chunked, stream, utf8 } from "../support/chunks.js";
import { documentArb, mutate, mutationArb, serialize, spacesArb } from "../support/jsonAst.js";
import { referenceRead } from "../support/referenceReader.js";

const FATAL = new Set(["json.syntax", "json.trailing", "json.empty"]);

async function fastPath(bytes: Uint8Array, chunkSize: number) {
  const records: { kind: string; pointer: string; value: unknown; loc: unknown }[] = [];
  const findings: { code: string; line?: number; column?: number; offset?: number }[] = [];
  for await (const event of readRecords(stream(chunked(bytes, chunkSize)))) {
    if (event.type === "finding") findings.push(event.finding);
    else {
      const { kind, pointer, value, loc } = event.record;
      records.push({ kind, pointer, value, loc: { ...loc } });
    }
  }
  return { records, findings };
}

async function agree(text0: string, chunkSize: number): Promise<void> {
  const bytes = utf8(text0);
  const text = new TextDecoder().decode(bytes); // lone surrogates become U+FFFD on both sides
  const reference = referenceRead(text);
  const ours = await fastPath(bytes, chunkSize);
  const fatal = ours.findings.find((f) => FATAL.has(f.code));
  if (ours.findings.some((f) => f.code === "document.type")) {
    // a root that is not an object stops the fast path at once, before any syntax is checked
    expect(text.trimStart()[0]).not.toBe("{");
    return;
  }
  if (reference.syntaxError === null) {
    expect(fatal, `unexpected ${JSON.stringify(fatal)} in ${JSON.stringify(text)}`).toBeUndefined();
    expect(ours.records).toEqual(reference.records);
    return;
  }
  expect(fatal, `missed the syntax error in ${JSON.stringify(text)}`).toBeDefined();
  if (fatal?.code === "json.empty") expect(text.trim()).toBe("");
  else {
    expect({ line: fatal?.line, column: fatal?.column, offset: fatal?.offset }, JSON.stringify(text)).toEqual(
      reference.syntaxError,
    );
  }
}

describe("fast path and stream-json agree", () => {
  it("on generated documents, any whitespace, any chunking", async () => {
    await fc.assert(
      fc.asyncProperty(documentArb, spacesArb, fc.integer({ min: 1, max: 64 }), async (doc, spaces, chunk) =>
        agree(serialize(doc, spaces), chunk),
      ),
      { numRuns: 300 },
    );
  });

  it("after one mutation of a generated document", async () => {
    await fc.assert(
      fc.asyncProperty(
        documentArb,
        spacesArb,
        mutationArb,
        fc.integer({ min: 1, max: 64 }),
        async (doc, spaces, m, chunk) => agree(mutate(serialize(doc, spaces), m), chunk),
      ),
      { numRuns: 600 },
    );
  });

  it.each([
    "",
    "   ",
    '{"users":[{"email":"a@b.co"} {"email":"c@d.co"}]}',
    '{"users":[{"email":"a@b.co","x":tru}]}',
    '{"users":[{"email":"a@b.co"}]} x',
    '{"users":[{"email":"a@b.co"}]',
    '{"users":[{"email":"a@b.co"',
    '{"users":[{"email":"a@b',
    '{"users":[1,]}',
    '{"users":[{"a":[1}]}',
    '{"licenses":[{"name":"x","users":[{"email":"a"},tru]}],"users":[]}',
    '{"users":[],"licenses":[{"users":[{"email":"a@b.co"}],"name":"P","__proto__":1}]}',
    '{"users":[{"email":"a@b.co"}],"meta":{"a":[1,2,{"b":null}]},"users":["x"]}',
  ])("on %j", async (text) => {
    for (const chunk of [1, 3, 1000]) await agree(text, chunk);
  });
});
