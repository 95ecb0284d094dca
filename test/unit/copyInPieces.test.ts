// The embedded database's COPY pieces: each statement gets whole lines, and the statements in
// turn get every line of the table's COPY text once, in order — whatever the lines' lengths
// (shorter than a piece, across two pieces, longer than a piece). The stand-in for the database
// keeps a copy of each piece, as the database's thread gets one.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { NormalizedUser } from "../../src/model/normalize.js";
import {
  CopyTextRows,
  copyInPieces,
  copyLine,
  copyLineBytes,
  writeCopyLine,
} from "../../src/server/repositories/_copy.js";

/** A megabyte: what a piece reads at most. */
const PIECE = 1 << 20;

/** Syncs `names` as users through the pieces; resolves to the pieces the database was sent. */
async function piecesOf(names: readonly string[]): Promise<string[]> {
  const pieces: string[] = [];
  const rows = new CopyTextRows(
    copyInPieces({
      async copyFrom(sql, bytes) {
        expect(sql).toMatch(/^COPY account_\w+ \(.*\) FROM '\/dev\/blob'$/);
        pieces.push(Buffer.from(bytes).toString("utf8"));
        await new Promise((resolve) => setImmediate(resolve)); // the database takes its time
        return bytes.filter((b) => b === 0x0a).length;
      },
    }),
    7,
    "USD",
  );
  try {
    for (const [i, name] of names.entries()) {
      const user: NormalizedUser = { email: `u${i}@example.com`, firstName: name, status: "active" };
      rows.user(user);
    }
    await rows.load();
  } finally {
    rows.dispose();
  }
  return pieces;
}

const line = (name: string, i: number) =>
  `7\t${i}\tu${i}@example.com\t\\N\t${name}\t\\N\tactive\t\\N\t\\N\t\\N\n`;

describe("copyInPieces", () => {
  it("sends every line once, in order, a piece of whole lines at a time, whatever their lengths", async () => {
    // lengths around the piece's size: a line across two pieces, one longer than a piece
    const length = fc.oneof(
      fc.integer({ min: 0, max: 300 }),
      fc.integer({ min: PIECE - 200, max: PIECE + 200 }),
      fc.integer({ min: 2 * PIECE, max: 3 * PIECE }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(length, fc.constantFrom("a", "é", "\t")), { maxLength: 8 }),
        fc.integer({ min: 0, max: 3000 }),
        async (long, many) => {
          // many short users (pieces cut inside a line), then the long ones
          const names = [
            ...Array.from({ length: many }, (_, i) => `name ${"x".repeat(i % 500)}`),
            ...long.map(([n, c]) => c.repeat(n)),
          ];
          const pieces = await piecesOf(names);
          for (const piece of pieces) expect(piece.endsWith("\n")).toBe(true);
          const escaped = names.map((n) => n.replaceAll("\t", "\\t"));
          expect(pieces.join("")).toBe(escaped.map(line).join(""));
        },
      ),
      { numRuns: 12 },
    );
  });
});

/** A half of a surrogate pair without the other. */
const LONE_HALF = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("writeCopyLine", () => {
  it("writes the UTF-8 of copyLine's text, byte for byte, for any cells, or says it cannot", () => {
    // text with what COPY escapes, any character (lone halves of surrogate pairs too), numbers
    // as a price or an index is, and nulls
    const text = fc.oneof(
      fc.string({
        unit: fc.constantFrom("a", "\\", "\t", "\n", "\r", "N", "é", "€", "𝄞", "\ud800", "\udc00"),
      }),
      fc.string({ unit: "binary" }),
      fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
    );
    const cell = fc.oneof(text, fc.integer(), fc.double({ noNaN: true }), fc.constant(null));
    fc.assert(
      fc.property(
        fc.array(cell, { minLength: 1, maxLength: 10 }),
        fc.constantFrom("7\t", "7\tUSD\t"),
        (row, prefix) => {
          const expected = Buffer.from(copyLine(prefix, row));
          const bytes = Buffer.from(prefix);
          const max = copyLineBytes(bytes, row);
          const page = Buffer.alloc(max + 8, 0xff);
          const n = writeCopyLine(page, 3, { prefix: bytes, row });
          const lone = row.some((c) => typeof c === "string" && LONE_HALF.test(c));
          if (lone) {
            expect(n).toBe(-1); // written as text instead, its lone halves replaced
            return;
          }
          expect(n).toBeLessThanOrEqual(max);
          expect(page.subarray(3, 3 + n)).toEqual(expected);
          expect(page[3 + n]).toBe(0xff); // nothing past the line
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("CopyTextRows", () => {
  it("gives the copier every line once, in order, whether the text waits in memory or in the file", async () => {
    // the pass writes rows in bursts, the copier reads at its own pace: text waits in memory,
    // past 2 KB in the file, and in memory again once the copier has read the file
    const step = fc.record({ rows: fc.integer({ min: 0, max: 80 }), long: fc.boolean(), pause: fc.nat(3) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 30 }),
        fc.array(fc.nat(3), { minLength: 1 }),
        async (steps, pauses) => {
          let read = "";
          let reads = 0;
          const rows = new CopyTextRows(
            async (file) => {
              for await (const bytes of file.follow()) {
                if (file.table.name === "account_users") read += Buffer.from(bytes).toString("utf8");
                for (let p = pauses[reads++ % pauses.length] as number; p > 0; p--) await tick();
              }
            },
            7,
            "USD",
            2048,
          );
          const names: string[] = [];
          try {
            for (const { rows: n, long, pause } of steps) {
              for (let r = 0; r < n; r++) {
                const name = long && r === 0 ? "é\t".repeat(40_000) : `name ${names.length}`;
                rows.user({ email: `u${names.length}@example.com`, firstName: name, status: "active" });
                names.push(name);
              }
              for (let p = 0; p < pause; p++) await tick();
            }
            await rows.load();
          } finally {
            rows.dispose();
          }
          expect(read).toBe(names.map((n, i) => line(n.replaceAll("\t", "\\t"), i)).join(""));
        },
      ),
      { numRuns: 60 },
    );
  });
});

const tick = () => new Promise((resolve) => setImmediate(resolve));
