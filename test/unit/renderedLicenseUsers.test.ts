// The license users a CSV conversion's parsing thread renders: kept per license as their rows
// come (licenses interleaved, past a memory budget partly in temporary files), then handed over
// in one file, each license's items in row order, where the calling thread reads them.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { licenseUserValue } from "../../src/csv/CsvRecord.js";
import { licenseUserItemBytes, writeLicenseUserItem } from "../../src/json/JsonWriter.js";
import { RenderedLicenseUsers, renderedItems } from "../../src/pass/_renderedLicenseUsers.js";
import { takeSpill } from "../../src/spill/spill.js";

/** The item JsonWriter writes for a later user of a license. */
function item(email: string, licenseStatus: string): Buffer {
  const value = licenseUserValue(email, licenseStatus) as Record<string, string>;
  const page = Buffer.alloc(licenseUserItemBytes(value));
  return page.subarray(0, writeLicenseUserItem(page, 0, value));
}

describe("the rendered license users", () => {
  it("hands over each license's items in row order, whatever the budget and the interleaving", () => {
    const userArb = fc.record({
      license: fc.nat({ max: 6 }),
      email: fc.oneof(fc.constantFrom("ada@example.com", 'q"@x.co'), fc.string({ maxLength: 12 })),
      licenseStatus: fc.constantFrom("", "active", "ễ"),
      // now and then an item longer than a record of the log
      long: fc.nat({ max: 40 }),
    });
    fc.assert(
      fc.property(
        fc.array(userArb, { maxLength: 400 }),
        fc.constantFrom(0, 512, 64 * 1024),
        (users, budget) => {
          const rendered = new RenderedLicenseUsers(budget);
          const expected: Buffer[][] = [];
          for (const { license, email, licenseStatus, long } of users) {
            const address = long === 0 ? `${"x".repeat(5000)}${email}` : email;
            rendered.add(license, address, licenseStatus);
            expected[license] = [...(expected[license] ?? []), item(address, licenseStatus)];
          }
          const { folder, ranges } = rendered.handOver();
          const file = takeSpill(folder);
          try {
            for (let license = 0; license < 7; license++) {
              const mine = expected[license] ?? [];
              const range = ranges[license] ?? [0, 0, 0];
              expect(range[2]).toBe(mine.length);
              const read = Buffer.concat([...renderedItems(file, range)].map((c) => Buffer.from(c)));
              expect(read.toString("utf8")).toBe(Buffer.concat(mine).toString("utf8"));
            }
          } finally {
            file.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
