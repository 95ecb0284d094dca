// Validation on worker threads gives exactly the report of validation in one thread: on
// every fixture, and on generated and mutated documents in any chunking. The workers are
// built scripts, so this test runs the build (dist/), which `npm test` makes first.

import { readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type * as Library from "../src/index.js";
import { chunked, stream, utf8 } from "./support/chunks.js";
import { documentArb, documentBytes, mutationArb, spacesArb } from "./support/jsonAst.js";
import { fixture, root } from "./support/paths.js";

const built = (await import(`${root}dist/index.js`)) as typeof Library;

// findings that stop reading: how far reading got before it stopped depends on the chunking
const FATAL = new Set(["json.syntax", "json.encoding", "json.depth", "json.trailing", "document.type"]);

/** The report without what may differ between runs: timing, and bytes read past a fatal problem. */
function comparable(report: Library.Report) {
  const fatal = report.findings.some((f) => FATAL.has(f.code));
  return { ...report, stats: { ...report.stats, durationMs: 0, bytes: fatal ? 0 : report.stats.bytes } };
}

describe("parallel validation", () => {
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
});
