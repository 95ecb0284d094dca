// Regressions of issue 48: mapping documents and exports too deep or too wide for the code that
// reads them. A mapping nested 5,000 deep overflowed the stack of the JSON parser. It is made
// here, in memory.

import { describe, expect, it } from "vitest";
import { MappingError, readMapping } from "../../src/mapping/readMapping.js";

/** The MappingError `readMapping` throws for `text`. */
function mistakesOf(text: string): MappingError {
  try {
    readMapping(text, "m.json");
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
