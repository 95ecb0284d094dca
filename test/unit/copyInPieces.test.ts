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

describe("CopyTextRows with two copiers of the license users", () => {
  /** License users in bursts (some with a long email), read by `copiers` at their own paces. */
  async function copied(
    steps: readonly { rows: number; long: boolean; pause: number }[],
    paces: readonly (readonly number[])[],
    copiers: number,
    inMemory = 2048,
  ): Promise<{ texts: string[]; paths: Set<string> }> {
    const texts: string[] = [];
    const paths = new Set<string>();
    const rows = new CopyTextRows(
      async (text) => {
        if (text.table.name !== "account_license_users") {
          for await (const _ of text.follow());
          return;
        }
        const k = texts.push("") - 1;
        paths.add(text.path);
        const pauses = paces[k % paces.length] as readonly number[];
        let reads = 0;
        for await (const bytes of text.follow()) {
          texts[k] += Buffer.from(bytes).toString("utf8");
          for (let p = pauses[reads++ % pauses.length] as number; p > 0; p--) await tick();
        }
      },
      7,
      "USD",
      inMemory,
      copiers,
    );
    try {
      let n = 0;
      for (const { rows: count, long, pause } of steps) {
        for (let r = 0; r < count; r++, n++) {
          const email = long && r === 0 ? `${"é".repeat(70_000)}${n}@example.com` : `holder${n}@example.com`;
          rows.licenseUser(n % 3, n, { email, licenseStatus: "active" });
        }
        for (let p = 0; p < pause; p++) await tick();
      }
      await rows.load();
    } finally {
      rows.dispose();
    }
    return { texts, paths };
  }

  const linesOf = (text: string) => text.split("\n").slice(0, -1);

  it("gives each line to one copier, whole, in order, as one copier would get them all", async () => {
    const step = fc.record({ rows: fc.integer({ min: 0, max: 3000 }), long: fc.boolean(), pause: fc.nat(3) });
    const pace = fc.array(fc.nat(4), { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 12 }),
        fc.array(pace, { minLength: 2, maxLength: 2 }),
        async (steps, paces) => {
          const one = await copied(steps, paces, 1);
          const two = await copied(steps, paces, 2);
          expect(one.texts).toHaveLength(1);
          expect(two.texts).toHaveLength(2);
          expect(two.paths.size).toBe(2); // each its own file
          const all = linesOf(one.texts[0] as string);
          const index = (line: string) => Number(line.split("\t")[2]);
          for (const text of two.texts) {
            expect(text === "" || text.endsWith("\n")).toBe(true); // whole lines
            const numbers = linesOf(text).map(index);
            expect(numbers).toEqual([...numbers].sort((a, b) => a - b)); // in order
          }
          const shared = two.texts.flatMap(linesOf).sort((a, b) => index(a) - index(b));
          expect(shared).toEqual(all);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("gives more of them to the copier that keeps up", async () => {
    // bursts of about 180 KB, a pause after each: the first copier reads at once, the second
    // takes its time, so more text waits for it when the next chunk is handed out (all of it in
    // memory: reading the file would make the paces the disk's)
    const steps = Array.from({ length: 20 }, () => ({ rows: 6000, long: false, pause: 2 }));
    const { texts } = await copied(steps, [[0], [40]], 2, 64 << 20);
    const [fast, slow] = texts.map((t) => linesOf(t).length) as [number, number];
    expect(fast + slow).toBe(120_000);
    expect(slow).toBeGreaterThan(0); // shared
    expect(fast).toBeGreaterThan(4 * slow); // about 11 times here; handed out in turn, as many
  });
});

const tick = () => new Promise((resolve) => setImmediate(resolve));
