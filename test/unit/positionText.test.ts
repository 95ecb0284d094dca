// The query parameter a database int column is compared with: its pattern takes exactly the
// numbers the column can hold, so that no statement overflows (a 500) where a 400 is due.

import fc from "fast-check";
import { expect, it } from "vitest";
import { INT32_MAX, positionText } from "../../src/server/routes/_schemas.js";

const pattern = new RegExp(positionText("after").pattern as string);

it("takes 1 to 2147483647 in digits, and nothing else", () => {
  for (const text of ["1", "9", "10", "999999999", "1000000000", "2147483647", "2147483640", "2099999999"]) {
    expect(pattern.test(text), text).toBe(true);
  }
  for (const text of [
    "0",
    "01",
    "2147483648",
    "2147483650",
    "2150000000",
    "9999999999",
    "10000000000",
    "-1",
    "1e3",
    " 1",
  ]) {
    expect(pattern.test(text), text).toBe(false);
  }
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), (n) => {
      expect(pattern.test(String(n))).toBe(n >= 1n && n <= BigInt(INT32_MAX));
    }),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(fc.integer({ min: 2_000_000_000, max: 2_300_000_000 }), (n) => {
      expect(pattern.test(String(n))).toBe(n <= INT32_MAX);
    }),
    { numRuns: 2000 },
  );
});
