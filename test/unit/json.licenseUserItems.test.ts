// A license's users given to the JSON writer at once, as the bytes of their items (what the
// parsing thread of a CSV conversion renders): the same text as given one by one, whatever the
// strings (quotes, backslashes, control characters, lone surrogates, scripts past ASCII) and
// however the bytes are cut.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { licenseUserValue } from "../../src/csv/CsvRecord.js";
import { JsonWriter, licenseUserItemBytes, writeLicenseUserItem } from "../../src/json/JsonWriter.js";

const textArb = fc.oneof(
  fc.constantFrom(
    "",
    "ada@example.com",
    "active",
    'a"b@x.co',
    "a\\b",
    "tab\there",
    "\u0000",
    "\u001f",
    " \u007f",
    "ễ@x.co",
    "\ud800",
  ),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.string({ unit: "grapheme-ascii", maxLength: 30 }),
);
const userArb = fc.record({ email: textArb, licenseStatus: textArb });

/** The item of `value`, written into a page that has just the room asked for. */
function item(value: Record<string, string>): Buffer {
  const page = Buffer.alloc(licenseUserItemBytes(value));
  return page.subarray(0, writeLicenseUserItem(page, 0, value));
}

/** The JSON a writer writes of one license with `users`, given one by one or as items cut at `cuts`. */
function written(users: { email: string; licenseStatus: string }[], cuts: number[] | null): string {
  let text = "";
  const writer = new JsonWriter((s) => {
    text += s;
  });
  writer.user({ email: "ada@example.com" });
  writer.license(0, { name: "Pro" }, users.length);
  const values = users.map((u) => licenseUserValue(u.email, u.licenseStatus) as Record<string, string>);
  if (cuts === null) for (const value of values) writer.licenseUser(0, value);
  else {
    const all = Buffer.concat(values.map(item));
    const at = [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((a, b) => a - b);
    const pieces = [...at, all.length].map((to, k) => all.subarray(k === 0 ? 0 : (at[k - 1] as number), to));
    writer.licenseUserItems(0, values.length, pieces);
  }
  writer.license(1, { name: "Basic" }, 0);
  writer.end();
  return text;
}

describe("a license's users given as JSON items", () => {
  it("writes each as a comma, the indent and JSON.stringify's text", () => {
    fc.assert(
      fc.property(userArb, ({ email, licenseStatus }) => {
        const value = licenseUserValue(email, licenseStatus) as Record<string, string>;
        expect(item(value).toString("utf8")).toBe(`,\n      ${JSON.stringify(value)}`);
      }),
      { numRuns: 2000 },
    );
  });

  it("writes the same document as the users given one by one, the items cut anywhere", () => {
    fc.assert(
      fc.property(
        fc.array(userArb, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        (users, cuts) => {
          const text = written(users, cuts);
          expect(text).toBe(written(users, null));
          expect(() => JSON.parse(text)).not.toThrow();
        },
      ),
      { numRuns: 500 },
    );
  });

  it("takes them only for the license open last", () => {
    const writer = new JsonWriter(() => {});
    writer.license(0, { name: "Pro" }, 1);
    expect(() => writer.licenseUserItems(1, 1, [Buffer.from(',\n      {"email":"a@b.co"}')])).toThrow(
      /not open/,
    );
  });
});

describe("users written as bytes (a user of short text, without JSON.stringify)", () => {
  // values a user may hold: text of every kind, lists of it, and what takes JSON.stringify's path
  const valueArb = fc.oneof(
    { weight: 6, arbitrary: textArb },
    {
      weight: 2,
      arbitrary: fc.constantFrom("😀 Zoë", "a\ud83d", "\udc00b", "\u2028\u2029", "ß\u00a0ü", "\u007f"),
    },
    { weight: 2, arbitrary: fc.array(textArb, { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(7, 1.5, -0, true, null, undefined, [1, "a"], { a: "b" }, [], {}),
    },
  );
  const keyArb = fc.oneof(
    fc.constantFrom("email", "firstName", "roles", "0", "10", "2", 'a"b', "é"),
    textArb,
  );
  const userValueArb = fc.dictionary(keyArb, valueArb, { maxKeys: 8 });

  /** The document a writer writes of `users`, into a sink of bytes (the fast path) or of text. */
  function document(users: unknown[], sink: "bytes" | "text"): string {
    const chunks: Buffer[] = [];
    let text = "";
    const writer = new JsonWriter(
      sink === "bytes"
        ? { bytes: (chunk: Uint8Array) => chunks.push(Buffer.from(chunk)) }
        : (s: string) => {
            text += s;
          },
    );
    for (const user of users) writer.user(user);
    writer.license(0, { name: "Pro" }, 0);
    writer.end();
    return sink === "bytes" ? Buffer.concat(chunks).toString("utf8") : text;
  }

  it("writes, byte for byte, what JSON.stringify writes, whatever the keys, their order and the values", () => {
    fc.assert(
      fc.property(fc.array(userValueArb, { maxLength: 6 }), (users) => {
        const bytes = document(users, "bytes");
        expect(bytes).toBe(document(users, "text"));
        expect(JSON.parse(bytes).users ?? []).toEqual(JSON.parse(JSON.stringify(users)));
      }),
      { numRuns: 2000 },
    );
  });

  it("writes plain users past a chunk's end as one document", () => {
    const users = Array.from({ length: 5000 }, (_, i) => ({
      email: `user${i}@example.com`,
      firstName: "Ada",
      roles: ["admin", "dev"],
    }));
    const bytes = document(users, "bytes");
    expect(bytes.length).toBeGreaterThan(3 * 65536);
    expect(bytes).toBe(document(users, "text"));
  });
});
