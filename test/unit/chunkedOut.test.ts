// The writers' chunked output: bytes encoded straight into a buffer write exactly what the
// string sink receives, encoded — whatever the mix of pieces (non-Latin-1, astral, pieces
// larger than a chunk) and however they fall across chunk boundaries.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChunkedOut } from "../../src/bytes/ChunkedOut.js";

describe("ChunkedOut", () => {
  it("gives a byte sink the UTF-8 of what a string sink gets", () => {
    const piece = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 40 }),
      fc.constantFrom("é", "ễ", "𝄞", "a".repeat(70_000), "ễ".repeat(50_000)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), (pieces) => {
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
        for (const p of pieces) {
          strings.write(p);
          bytes.write(p);
        }
        strings.flush();
        bytes.flush();
        expect(Buffer.concat(chunks).toString("utf8")).toBe(text);
        expect(chunks.every((c) => c.length > 0)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
