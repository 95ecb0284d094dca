// The shared strings table: what is added as text and what is added as ASCII bytes (an item the
// scanner read whole) read back the same, kept as strings, logged, and logged past the memory
// budget (in a temporary file).

import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { SharedStrings } from "../../src/xlsx/_SharedStrings.js";

describe("SharedStrings", () => {
  it("gives back what addAscii added as add would, past the strings it keeps and its memory budget", () => {
    const count = 900_000; // ~20 MB of UTF-8: past the 16 MB kept in memory
    const text = (k: number) => (k % 1000 === 7 ? "" : `user${k}@example.com`);
    const byText = new SharedStrings();
    const byBytes = new SharedStrings();
    // the bytes sit inside a larger buffer, as a chunk of the part holds them
    const chunk = Buffer.alloc(64);
    try {
      for (let k = 0; k < count; k++) {
        const s = text(k);
        byText.add(k % 5000 === 3 ? null : s);
        if (k % 5000 === 3) byBytes.add(null);
        else {
          const at = 9 + (k % 7);
          chunk.write(s, at, "latin1");
          byBytes.addAscii(chunk, at, at + s.length);
        }
      }
      expect(byBytes.count).toBe(count);
      for (const k of [0, 3, 7, 65_535, 65_536, 65_537, 70_003, 123_456, 500_007, count - 1]) {
        expect(byBytes.get(k)).toBe(byText.get(k));
      }
      expect(byBytes.get(5003)).toBeNull();
      expect(byBytes.get(count - 1)).toBe(text(count - 1));
      expect(byBytes.get(count)).toBeUndefined();
    } finally {
      byText.dispose();
      byBytes.dispose();
    }
  });
});
