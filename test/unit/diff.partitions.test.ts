// The lines of a diff's partitions, kept in one spill as blocks: each partition gives back its
// lines, in order, whatever their characters and lengths and however the blocks fall.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PartitionedLines } from "../../src/diff/compare.js";

describe("PartitionedLines", () => {
  it("gives each partition its lines back in order, across blocks and lines longer than a block", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 8, max: 64 }),
        fc.array(fc.tuple(fc.nat(), fc.string({ unit: "binary", maxLength: 40 })), { maxLength: 200 }),
        (partitions, blockBytes, added) => {
          const lines = new PartitionedLines(partitions, blockBytes);
          const expected: string[][] = Array.from({ length: partitions }, () => []);
          try {
            for (const [at, text] of added) {
              const line = text.replaceAll("\n", " ");
              lines.add(at % partitions, `${line}\n`);
              expected[at % partitions]?.push(line);
            }
            lines.flushAll();
            for (let p = 0; p < partitions; p++) expect([...lines.lines(p)]).toEqual(expected[p]);
          } finally {
            lines.close();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
