// Spills: the temporary file Node writes and the memory a browser build keeps (MemorySpill) give
// back the same bytes after any sequence of writes (at positions, past the end, appended) and
// reads (across their pages, past the end), and closing the file deletes it. Their lines read
// back whole, however long.

import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KeyPartitions } from "../../src/spill/KeyPartitions.js";
import { MemorySpill } from "../../src/spill/MemorySpill.js";
import { readLines } from "../../src/spill/readLines.js";
import { openSpill, type SpillFile } from "../../src/spill/spill.js";

const PREFIX = "syncfile-spill-test-";
const spillDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith(PREFIX)).length;

// positions reach a few of MemorySpill's 64 KiB pages; some writes are longer than a page
const position = fc.nat(200_000);
const bytes = fc.oneof(
  { arbitrary: fc.uint8Array({ maxLength: 300 }), weight: 4 },
  { arbitrary: fc.integer({ min: 60_000, max: 140_000 }).map(filled), weight: 1 },
);
const operation = fc.oneof(
  fc.record({ op: fc.constant("write" as const), bytes, position: fc.option(position, { nil: undefined }) }),
  fc.record({
    op: fc.constant("read" as const),
    position,
    length: fc.oneof(fc.nat(400), fc.integer({ min: 60_000, max: 150_000 })),
    offset: fc.nat(16),
  }),
);

/** `n` bytes that differ from their neighbours' (a misplaced copy shows). */
function filled(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 7 + (i >> 8)) & 0xff;
  return out;
}

/**
 * What a read gave: how many bytes, and where the buffer read into (all of it: what lies past them
 * must be untouched) first differs from the other spill's, or -1.
 */
function readBoth(spills: [SpillFile, SpillFile], offset: number, length: number, at: number) {
  const [a, b] = spills.map((spill) => {
    const into = new Uint8Array(offset + length).fill(0xa5);
    return { n: spill.read(into, offset, length, at), into };
  }) as [{ n: number; into: Uint8Array }, { n: number; into: Uint8Array }];
  let differs = -1;
  for (let i = 0; i < a.into.length && differs === -1; i++) if (a.into[i] !== b.into[i]) differs = i;
  return { n: [a.n, b.n], differs };
}

describe("spill", () => {
  it("reads back the same bytes from a temporary file and from memory, whatever was written where", () => {
    const before = spillDirs();
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 30 }), (operations) => {
        const file = openSpill(PREFIX);
        const memory = new MemorySpill();
        try {
          for (const o of operations) {
            if (o.op === "write") {
              file.write(o.bytes, o.position);
              memory.write(o.bytes, o.position);
            } else {
              const { n, differs } = readBoth([file, memory], o.offset, o.length, o.position);
              expect(n[1]).toBe(n[0]);
              expect(differs).toBe(-1);
            }
          }
          // and the whole of it, from the start
          const whole = readBoth([file, memory], 0, 400_000, 0);
          expect(whole.n[1]).toBe(whole.n[0]);
          expect(whole.differs).toBe(-1);
        } finally {
          file.close();
          memory.close();
        }
      }),
      { numRuns: 100 },
    );
    expect(spillDirs()).toBe(before);
  });

  it("is empty once closed in memory, and deleted once closed on disk (closing twice is nothing)", () => {
    const before = spillDirs();
    const file = openSpill(PREFIX);
    expect(spillDirs()).toBe(before + 1);
    file.write(new Uint8Array([1, 2, 3]));
    file.close();
    file.close();
    expect(spillDirs()).toBe(before);
    const memory = new MemorySpill();
    memory.write(new Uint8Array([1, 2, 3]), 70_000);
    memory.close();
    expect(memory.read(new Uint8Array(4), 0, 4, 0)).toBe(0);
  });

  it("gives back its lines, short, empty, non-ASCII or longer than a block read, and not an unfinished last one", () => {
    const lines = ["a", "", "é€𝄞".repeat(200_000), "b".repeat(3_000_000), "{}", ...Array(50_000).fill("ü")];
    const text = new TextEncoder().encode(`${lines.join("\n")}\nunfinished`);
    for (const spill of [openSpill(PREFIX), new MemorySpill()]) {
      // written in pieces that cut characters
      for (let at = 0; at < text.length; at += 100_001) spill.write(text.subarray(at, at + 100_001));
      const read = [...readLines(spill)];
      expect(read.length).toBe(lines.length);
      expect(read.every((line, i) => line === lines[i])).toBe(true);
      spill.close();
    }
  });
});

describe("KeyPartitions", () => {
  it("gives each partition its entries back in the order pushed, from blocks on disk and in memory", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer(), fc.integer(), fc.integer(), fc.integer()), { maxLength: 300 }),
        fc.nat(3),
        fc.integer({ min: 1, max: 7 }),
        (entries, bits, blockEntries) => {
          const partitions = new KeyPartitions(bits, blockEntries);
          try {
            for (const [h1, h2, a, b] of entries) partitions.push(h1, h2, a, b);
            expect(partitions.count).toBe(entries.length);
            for (let p = 0; p < partitions.partitions; p++) {
              const expected = entries.filter(([h1]) => (bits === 0 ? 0 : h1 >>> (32 - bits)) === p);
              const read: number[][] = [];
              partitions.forEach(p, (h1, h2, a, b) => read.push([h1, h2, a, b]));
              expect(read).toEqual(expected);
              expect(partitions.countOf(p)).toBe(expected.length);
            }
          } finally {
            partitions.dispose();
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
