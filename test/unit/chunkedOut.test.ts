// The writers' chunked output: bytes encoded straight into a buffer write exactly what the
// string sink receives, encoded — whatever the mix of pieces (non-Latin-1, astral, pieces
// larger than a chunk) and however they fall across chunk boundaries; bytes given as they are
// come out where they were given, in both sinks, cut anywhere between the texts.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChunkedOut } from "../../src/bytes/ChunkedOut.js";

/** A ChunkedOut over a sink of strings and one over a sink of bytes, and what each received. */
function twoSinks() {
  let text = "";
  const strings = new ChunkedOut((s) => {
    text += s;
  });
  const chunks: Uint8Array[] = [];
  const bytes = new ChunkedOut({
    bytes: (chunk) => {
      chunks.push(Uint8Array.from(chunk)); // its memory is used again after the call
    },
  });
  return { strings, bytes, text: () => text, chunks };
}

describe("ChunkedOut", () => {
  it("gives a byte sink the UTF-8 of what a string sink gets", () => {
    const piece = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 40 }),
      fc.constantFrom("é", "ễ", "𝄞", "a".repeat(70_000), "ễ".repeat(50_000)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), (pieces) => {
        const { strings, bytes, text, chunks } = twoSinks();
        for (const p of pieces) {
          strings.write(p);
          bytes.write(p);
        }
        strings.flush();
        bytes.flush();
        expect(Buffer.concat(chunks).toString("utf8")).toBe(text());
        expect(chunks.every((c) => c.length > 0)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("puts bytes given as they are where they were given, cut anywhere, in a byte sink and a string sink", () => {
    const piece = fc.oneof(
      fc.record({ text: fc.string({ unit: "grapheme", maxLength: 40 }) }),
      fc.record({ text: fc.constantFrom("a".repeat(70_000), "ễ".repeat(30_000)) }),
      // a text given as its UTF-8 bytes, in pieces cut at any byte
      fc.record({
        bytes: fc.oneof(fc.string({ unit: "grapheme", maxLength: 60 }), fc.constant("𝄞é".repeat(40_000))),
        cuts: fc.array(fc.nat(), { maxLength: 4 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        let expected = "";
        const { strings, bytes, text, chunks } = twoSinks();
        for (const p of pieces) {
          if ("text" in p) {
            expected += p.text;
            strings.write(p.text);
            bytes.write(p.text);
            continue;
          }
          expected += p.bytes;
          const all = Buffer.from(p.bytes);
          const cuts = [...new Set(p.cuts.map((c) => c % (all.length + 1)))].sort((a, b) => a - b);
          let from = 0;
          for (const to of [...cuts, all.length]) {
            // a piece given is not kept: its memory is used again after the call
            const part = Buffer.from(all.subarray(from, to));
            strings.bytes(part);
            bytes.bytes(part);
            part.fill(0);
            from = to;
          }
        }
        strings.flush();
        bytes.flush();
        expect(text()).toBe(expected);
        expect(Buffer.concat(chunks).toString("utf8")).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
