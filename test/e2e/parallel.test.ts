// Validation on worker threads gives exactly the report of validation in one thread: on
// every fixture, and on generated and mutated documents in any chunking. The workers are
// built scripts, so this test runs the build (dist/), which `npm test` makes first.

import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type * as Library from "../../src/index.js";
import { chunked, stream, utf8 } from "../support/chunks.js";
import { csvBytes, csvSpecArb } from "../support/csvText.js";
import { documentArb, documentBytes, mutationArb, spacesArb } from "../support/jsonAst.js";
import { fixture, root } from "../support/paths.js";

const built = (await import(`${root}dist/index.js`)) as typeof Library;

// findings that stop reading: how far reading got before it stopped depends on the chunking
const FATAL = new Set([
  "json.syntax",
  "json.encoding",
  "json.depth",
  "json.trailing",
  "document.type",
  "csv.quote",
  "csv.encoding",
  "csv.record.size",
  "csv.header.missing",
  "csv.empty",
]);

/** The report without what may differ between runs: timing, and bytes read past a fatal problem. */
function comparable(report: Library.Report) {
  const fatal = report.findings.some((f) => FATAL.has(f.code));
  return { ...report, stats: { ...report.stats, durationMs: 0, bytes: fatal ? 0 : report.stats.bytes } };
}

// Each property run starts worker threads; with the rest of the suite on the same two CPUs,
// 60 runs have taken over 30 s (the default timeout) in CI.
describe("parallel validation", { timeout: 120_000 }, () => {
  const files = [
    ...readdirSync(fixture("valid")).map((f) => `valid/${f}`),
    ...readdirSync(fixture("invalid")).map((f) => `invalid/${f}`),
  ];

  it.each(files)("matches one thread on %s", async (name) => {
    const options = name.includes("record.size") ? { maxRecordBytes: 100 } : {};
    const parallel = await built.validateFile(fixture(name), { ...options, parallel: true });
    const single = await built.validateFile(fixture(name), { ...options, parallel: false });
    expect(comparable(parallel)).toEqual(comparable(single));
  });

  it("matches one thread on generated and mutated documents, in any chunking", async () => {
    await fc.assert(
      fc.asyncProperty(
        documentArb,
        spacesArb,
        fc.option(mutationArb),
        fc.integer({ min: 1, max: 300 }),
        async (doc, spaces, m, size) => {
          const bytes = documentBytes(doc, spaces, m);
          const parallel = await built.validateStream(stream(chunked(bytes, size)), {
            parallel: true,
            maxErrors: 50,
          });
          const single = built.validateText(bytes, { maxErrors: 50 });
          expect(comparable(parallel)).toEqual(comparable(single));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("stops reading soon after a syntax error early in a large input", async () => {
    async function* big(): AsyncGenerator<Uint8Array> {
      yield utf8('{"users":[{"email":"a@b.co", "x": tru}');
      const block = utf8(`,${JSON.stringify({ email: "c@d.co" })}`.repeat(4000));
      for (let i = 0; i < 2000; i++) yield block;
      yield utf8("]}");
    }
    const report = await built.validateStream(big(), { parallel: true });
    expect(report.findings.map((f) => f.code)).toEqual(["json.syntax"]);
    expect(report.stats.bytes).toBeLessThan(5_000_000);
  });

  it("matches one thread on generated CSV, broken or not, in any chunking", async () => {
    await fc.assert(
      fc.asyncProperty(csvSpecArb, fc.integer({ min: 1, max: 300 }), async (spec, size) => {
        const bytes = await csvBytes(spec);
        const options = { format: "csv" as const, maxErrors: 50 };
        const parallel = await built.validateStream(stream(chunked(bytes, size)), {
          ...options,
          parallel: true,
        });
        const single = built.validateText(bytes, options);
        expect(comparable(parallel)).toEqual(comparable(single));
      }),
      { numRuns: 60 },
    );
  });

  it("converts CSV on two threads to the same JSON as on one", async () => {
    const bytes = utf8(readFileSync(fixture("valid/example.csv"), "utf8"));
    const outputs: string[] = [];
    for (const parallel of [true, false]) {
      let text = "";
      const writer = new built.JsonWriter((s) => {
        text += s;
      });
      const report = await built.pipeDocument(stream(chunked(bytes, 7)), writer, { format: "csv", parallel });
      expect(report.valid).toBe(true);
      outputs.push(text);
    }
    expect(outputs[0]).toBe(outputs[1]);
  });

  it("stops reading soon after a broken quote early in a large CSV", async () => {
    async function* big(): AsyncGenerator<Uint8Array> {
      yield utf8('email,firstName\na@b.co,"Ada\n');
      const block = utf8("c@d.co,Cy\n".repeat(4000));
      for (let i = 0; i < 2000; i++) yield block;
    }
    const report = await built.validateStream(big(), { format: "csv", parallel: true, maxRecordBytes: 1000 });
    expect(report.findings.map((f) => f.code)).toEqual(["csv.record.size"]);
    expect(report.stats.bytes).toBeLessThan(5_000_000);
  });
});
