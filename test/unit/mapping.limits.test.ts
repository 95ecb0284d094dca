// Regressions of issue 48: mapping documents and exports too deep or too wide for the code that
// reads them. A mapping nested 5,000 deep overflowed the stack of the JSON parser; a mapping of
// thousands of mistakes, and an Atlassian header of thousands of product columns, were read in
// quadratic time. Each is made here, in memory: the tests count what keeps the work proportional
// to the input (a depth bound, a cap with its exact total, the elements copied or searched, the
// reads of the header), never how long it took.

import { describe, expect, it } from "vitest";
import { MappedHeader } from "../../src/csv/MappedRows.js";
import { mappingProblems } from "../../src/mapping/checkMapping.js";
import { Mapping } from "../../src/mapping/Mapping.js";
import type { MappingDocument } from "../../src/mapping/MappingDocument.js";
import { MappingSuggester } from "../../src/mapping/MappingSuggester.js";
import { profileNamed } from "../../src/mapping/profiles.js";
import { MappingError, readMapping } from "../../src/mapping/readMapping.js";

/** The MappingError `readMapping` throws for `text`. */
function mistakesOf(text: string, options?: { maxProblems?: number }): MappingError {
  try {
    readMapping(text, "m.json", options);
  } catch (error) {
    if (error instanceof MappingError) return error;
    throw error;
  }
  throw new Error("the mapping was read");
}

describe("a mapping nested deeper than any mapping is", () => {
  it("is a mistake at the bracket that goes too deep, not a stack overflow", () => {
    const deep = "[".repeat(5000) + "]".repeat(5000);
    const error = mistakesOf(deep);
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatchObject({ line: 1, column: 17, pointer: "" });
    expect(error.problems[0]?.message).toMatch(/^arrays and objects nested more than 16 deep/);

    // inside a field, on a later line: the place is the bracket's own
    const field = `{\n  "name": "x",\n  "email": ${"[".repeat(5000)}${"]".repeat(5000)}\n}\n`;
    expect(mistakesOf(field).problems[0]).toMatchObject({ line: 3, column: 27 });
  });

  it("is read as before while within the bound, brackets in strings not counted", () => {
    const nested = `{"name": "x", "email": ${"[".repeat(15)}"a"${"]".repeat(15)}}`;
    expect(mistakesOf(nested).problems[0]?.message).toMatch(/^email\[0\] must name a column/);
    const text = JSON.stringify({ name: "x", email: "[".repeat(100), title: "{".repeat(100) });
    expect(readMapping(text, "m.json").email).toBe("[".repeat(100));
  });
});

describe("a mapping of many mistakes", () => {
  // 3,000 license columns with two mistakes each: an empty column name and a license that is a number
  const many = 3000;
  const text = JSON.stringify(
    {
      name: "x",
      email: "Mail",
      licenseColumns: Array.from({ length: many }, (_, i) => ({ column: "", license: i, grants: ["*"] })),
    },
    null,
    2,
  );
  const lineOf = (needle: string, from = 0) => text.slice(0, text.indexOf(needle, from)).split("\n").length;

  it("lists the first ones in document order, up to the limit, and counts them all", () => {
    const error = mistakesOf(text, { maxProblems: 1000 });
    expect(error.total).toBe(2 * many);
    expect(error.problems).toHaveLength(1000);
    // the first 500 entries' two mistakes each, each at its own line
    const first = error.problems.slice(0, 2).map((p) => [p.line, p.pointer]);
    expect(first).toEqual([
      [lineOf('"column"'), "/licenseColumns/0/column"],
      [lineOf('"license"'), "/licenseColumns/0/license"],
    ]);
    expect(error.problems.at(-1)?.pointer).toBe("/licenseColumns/499/license");
    const lines = error.problems.map((p) => p.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(error.message.split("\n").at(-1)).toBe("m.json: … 5000 more mistakes not listed");
  });

  it("gathers the schema's errors by appending them, not copying those before at each wrong item", () => {
    // ajv's code for a $ref, every error asked for, was vErrors.concat(validateN.errors)
    const document = JSON.parse(text);
    const concat = Array.prototype.concat;
    let copied = 0;
    Array.prototype.concat = function (this: unknown[], ...items: unknown[]) {
      copied += this.length;
      return concat.apply(this, items);
    } as typeof concat;
    let problems: ReturnType<typeof mappingProblems>;
    try {
      problems = mappingProblems(document);
    } finally {
      Array.prototype.concat = concat;
    }
    expect(problems).toHaveLength(2 * many);
    // each error is copied a bounded number of times: 0 now, about 9 million (n²) before
    expect(copied).toBeLessThan(10 * many);
  });

  it("lists 1000 by default, and all of them when the limit allows", () => {
    expect(mistakesOf(text).problems).toHaveLength(1000);
    const all = mistakesOf(text, { maxProblems: Number.POSITIVE_INFINITY });
    expect(all.problems).toHaveLength(2 * many);
    expect(all.total).toBe(2 * many);
  });

  it("says an object's mistakes at their keys, however many keys it has", () => {
    const fields = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`f${i}`, 1]));
    const wide = JSON.stringify({ name: "x", email: "Mail", ...fields }, null, 1);
    const error = mistakesOf(wide, { maxProblems: 5000 });
    expect(error.total).toBe(2000);
    expect(error.problems.at(-1)).toMatchObject({ line: 2003, column: 2, pointer: "/f1999" });
  });
});

describe("an Atlassian export of thousands of product columns", () => {
  // the profile's licenseColumns (Jira - *, Confluence - *…) each match many columns of the header
  const products = 20_000;
  const header = [
    "User id",
    "User name",
    "User status",
    "email",
    "Last seen in Jira",
    ...Array.from({ length: products }, (_, i) => `Jira - site ${i}`),
    "Confluence - site 0",
  ];

  it("compares each header name once, and finds each product's columns without searching those found", () => {
    let reads = 0;
    const counted = new Proxy(header, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    // `found.includes(i)` for each column a wildcard matched: n² / 2 elements looked at
    const includes = Array.prototype.includes;
    let searched = 0;
    Array.prototype.includes = function (this: unknown[], ...args: [unknown, number?]) {
      searched += this.length;
      return includes.apply(this, args);
    } as typeof includes;
    let bound: MappedHeader | null;
    try {
      bound = MappedHeader.bind(new Mapping(profileNamed("atlassian") as MappingDocument), counted);
    } finally {
      Array.prototype.includes = includes;
    }
    expect(bound?.keys).toEqual([
      "email",
      "id",
      "firstName",
      "lastName",
      "status",
      "externalStatus",
      "lastUsedDate",
      "licenses",
    ]);
    expect(bound?.ignored).toEqual([]);
    // the header is read a bounded number of times, not once for each of the mapping's ~30 columns
    expect(reads).toBeLessThanOrEqual(3 * header.length);
    expect(searched).toBeLessThan(10 * header.length);
  });

  it("reads every product column of a row as its license", () => {
    const bound = MappedHeader.bind(new Mapping(profileNamed("atlassian") as MappingDocument), header);
    const row = [
      "u1",
      "Ada Lovelace",
      "Active",
      "ada@example.com",
      "1 Jan 2024",
      ...header.slice(5).map(() => ""),
    ];
    row[5 + 7] = "Product access";
    row[header.length - 1] = "Product access";
    const cells = bound?.row(row, () => {}) ?? [];
    expect(cells.at(-1)).toBe("Jira;Confluence");
  });
});

describe("mapping suggest on an export of thousands of columns", () => {
  const columns = 5000;
  const rows = 50;
  const header = ["Mail", "Status", "Last login", ...Array.from({ length: columns }, (_, i) => `Col ${i}`)];
  const feed = (suggester: MappingSuggester) => {
    suggester.header(header);
    for (let r = 0; r < rows; r++) {
      const cells = [`u${r}@example.com`, r % 2 ? "Active" : "Suspended", "2024-01-31"];
      for (let c = 0; c < columns; c++) cells.push(`v${r}-${c}`);
      suggester.row(cells);
    }
    return suggester;
  };
  const kept = (suggester: MappingSuggester) =>
    header.reduce((n, _, i) => n + suggester.valuesOf(i).length, 0);

  it("keeps the values of the few columns a suggestion reads, not of every cell", () => {
    const lean = feed(new MappingSuggester({ everyColumn: false }));
    // Status's two values and Last login's one; every cell of the 5,000 others was kept before
    expect(kept(lean)).toBe(3);
    expect(lean.sample).toEqual([]);
    const page = feed(new MappingSuggester());
    expect(kept(page)).toBe(rows + 2 + 1 + rows * columns);
    expect(page.sample).toHaveLength(5);
    expect(lean.suggest("x")).toEqual(page.suggest("x"));
  });
});
