// What the validator accepts, the service can store: no NUL character and no lone surrogate
// in the text of a user or a license, from JSON (escapes) or CSV (raw bytes); lastUsedDate in
// the years 0001 to 9999. (test/e2e/server.store.test.ts syncs what validate accepts.)

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateText } from "../../src/index.js";

const codes = (text: string | Uint8Array, options: { format?: "csv" } = {}) =>
  validateText(text, options).findings.map((f) => [f.code, f.pointer, f.row]);

/** A document of a valid user and `user`. */
const withUser = (user: string) => `{"users":[{"email":"ok@example.com"},${user}]}`;

describe("text the service stores", () => {
  it("a raw NUL byte in a CSV cell is an error at its row and column", () => {
    const csv = Buffer.from("email,firstName,lastName\nada@example.com,Ada,L\ngrace@example.com,Gr\0ace,H\n");
    const report = validateText(csv, { format: "csv" });
    expect(report.valid).toBe(false);
    expect(report.findings.map((f) => [f.code, f.row, f.line, f.field])).toEqual([
      ["user.text.nul", 2, 3, "firstName"],
    ]);
    expect(report.findings[0]?.message).toBe(
      "firstName holds a NUL character (U+0000) at character 3, which the service cannot store",
    );
  });

  it("a NUL in a license name read from CSV is an error too", () => {
    const csv = "email,licenseName\nada@example.com,Pro\0\n";
    expect(codes(csv, { format: "csv" })).toEqual([["license.text.nul", "/licenses/0/name", 1]]);
  });

  it("surrogate pairs, escaped or not, are characters; only a lone half is refused", () => {
    const ok = JSON.stringify({ users: [{ email: "a@example.com", firstName: "😀", lastName: "x" }] });
    expect(codes(ok)).toEqual([]);
    expect(codes('{"users":[{"email":"a@example.com","firstName":"\\ud83d\\ude00 \\u00e9"}]}')).toEqual([]);
    expect(codes(withUser('{"email":"a@example.com","lastName":"ok \\ud83d"}'))).toEqual([
      ["user.text.surrogate", "/users/1/lastName", undefined],
    ]);
    expect(codes(withUser('{"email":"a@example.com","externalStatus":"\\ude00\\ud83d"}'))).toEqual([
      ["user.text.surrogate", "/users/1/externalStatus", undefined],
    ]);
  });

  it("other control characters are text like any other", () => {
    const doc = JSON.stringify({ users: [{ email: "a@example.com", firstName: "\u0001\t\u001f\u007f\\" }] });
    expect(codes(doc)).toEqual([]);
  });

  it("lastUsedDate: the years 0001 to 9999; year 0000 is an error, as a date or a date-time", () => {
    const dated = (d: string) => withUser(JSON.stringify({ email: "a@example.com", lastUsedDate: d }));
    expect(codes(dated("0001-01-01"))).toEqual([]);
    expect(codes(dated("9999-12-31"))).toEqual([]);
    expect(codes(dated("0000-06-15"))).toEqual([
      ["user.lastUsedDate.range", "/users/1/lastUsedDate", undefined],
    ]);
    expect(codes(dated("0000-06-15T10:00:00Z"))).toEqual([
      ["user.lastUsedDate.range", "/users/1/lastUsedDate", undefined],
      ["user.lastUsedDate.datetime", "/users/1/lastUsedDate", undefined],
    ]);
  });
});

describe("the text of users read whole, in runs (the check skips a run without a \\u escape)", () => {
  // pieces of text: plain, non-ASCII, a pair, a NUL, lone halves, and a backslash before a u
  const PIECES = ["ab", "é", "😀", "\u0000", "\ud800", "\udc00", "\\u", "\\", "u"];
  const textArb = fc.array(fc.constantFrom(...PIECES), { maxLength: 4 }).map((parts) => parts.join(""));
  const FIELDS = ["id", "firstName", "lastName", "externalStatus"] as const;
  /** Every non-ASCII character of JSON.stringify's text as a \u escape. */
  const escapeAll = (json: string) =>
    json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  /** What the check reports of a user's field: the first NUL, else the first lone surrogate. */
  const expected = (text: string): string | null => {
    if (text.includes("\0")) return "user.text.nul";
    return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text)
      ? "user.text.surrogate"
      : null;
  };

  it("are reported exactly where a field holds a NUL or a lone surrogate, escaped or not", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ field: fc.constantFrom(...FIELDS), text: textArb }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.boolean(),
        (users, escaped) => {
          const doc = {
            users: users.map(({ field, text }, i) => ({ email: `u${i}@example.com`, [field]: text })),
          };
          const json = escaped ? escapeAll(JSON.stringify(doc)) : JSON.stringify(doc);
          const want = users.flatMap(({ field, text }, i) => {
            const code = expected(text);
            return code ? [[code, `/users/${i}/${field}`, undefined]] : [];
          });
          const got = codes(json).filter(([code]) => String(code).startsWith("user.text."));
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 500 },
    );
  });
});
