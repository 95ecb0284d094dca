// The schemas are valid JSON Schema 2020-12; the validators compiled ahead of time from them
// (src/schema/_compiled.ts) are what scripts/compile-schemas.mjs writes today, and answer as ajv
// compiling the schemas itself, with ajv-formats' formats, does; each of our formats answers as
// ajv-formats' own on any string.

import { readdirSync, readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { fullFormats } from "ajv-formats/dist/formats.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compiledSource, OUTPUT, schemasAjv, VALIDATORS } from "../../scripts/compile-schemas.mjs";
import { addFormats } from "../../src/schema/addFormats.js";
import { isDateTime, isEmail, isFullDate } from "../../src/schema/formats.js";
import { schemas } from "../../src/schema/schemas.js";
import { getValidators, type Validators } from "../../src/schema/validators.js";

describe("the schemas", () => {
  it.each(Object.entries(schemas))("%s is valid against the 2020-12 meta-schema", (_name, schema) => {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
    addFormats(ajv, ["email", "date", "date-time"]);
    expect(ajv.validateSchema(schema), ajv.errorsText(ajv.errors)).toBe(true);
  });

  it("would catch a schema that breaks the meta-schema: a type misspelt, required not a list", () => {
    const ajv = new Ajv2020();
    expect(ajv.validateSchema({ type: "object", properties: { email: { type: "strnig" } } })).toBe(false);
    expect(ajv.validateSchema({ type: "object", required: "email" })).toBe(false);
  });

  it("compile into the validators the checks use", () => {
    const validators = getValidators();
    expect(validators.user({ email: "ada@example.com" })).toBe(true);
    expect(validators.user({ email: "not an email" })).toBe(false);
  });
});

describe("the validators compiled ahead of time", () => {
  it("are what `npm run compile-schemas` writes from today's schemas", () => {
    // a schema changed without running it leaves the old validators in place: run it
    expect(readFileSync(OUTPUT, "utf8") === compiledSource(), "src/schema/_compiled.ts is stale").toBe(true);
  });

  const compiled = getValidators();
  // ajv-formats' own formats: date and date-time functions, email a regular expression
  const ajv = schemasAjv({
    date: fullFormats.date,
    "date-time": fullFormats["date-time"],
    email: fullFormats.email,
  } as Parameters<typeof schemasAjv>[0]);
  const names = Object.keys(VALIDATORS) as (keyof Validators)[];
  const byAjv = Object.fromEntries(
    names.map((name) => [name, ajv.getSchema(schemas[name].$id)]),
  ) as unknown as Validators;
  /** The compiled validator and ajv's own give the same answer and the same errors. */
  const agree = (name: keyof Validators, value: unknown) => {
    const ours = compiled[name](value);
    const theirs = byAjv[name](value);
    expect(ours).toBe(theirs);
    expect(compiled[name].errors ?? null).toEqual(byAjv[name].errors ?? null);
  };

  it("answer as ajv's own on every JSON fixture, and on its records", () => {
    let checked = 0;
    for (const folder of ["valid", "invalid"]) {
      for (const file of readdirSync(`fixtures/${folder}`).filter((name) => name.endsWith(".json"))) {
        let doc: unknown;
        try {
          doc = JSON.parse(readFileSync(`fixtures/${folder}/${file}`, "utf8"));
        } catch {
          continue; // a syntax fixture: no value to validate
        }
        agree("document", doc);
        const { users, licenses } = (doc ?? {}) as { users?: unknown; licenses?: unknown };
        for (const user of Array.isArray(users) ? users : []) agree("user", user);
        for (const license of Array.isArray(licenses) ? licenses : []) {
          agree("license", license);
          const licenseUsers = (license as { users?: unknown } | null)?.users;
          for (const user of Array.isArray(licenseUsers) ? licenseUsers : []) agree("licenseUser", user);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it("answer as ajv's own on any record, with every error in the same words and place", () => {
    const keys = [
      ...new Set(names.flatMap((name) => Object.keys(schemas[name].properties ?? {}))),
      "unknown",
    ];
    const text = fc.oneof(
      fc.string(),
      fc.constantFrom(
        "ada@example.com",
        "Ada.Lovelace+tag@Mail.Example.co.uk",
        "not an email",
        "ada@localhost",
        "2024-02-29",
        "2023-02-29",
        "2024-01-01T10:00:00Z",
        "",
      ),
      fc.constantFrom("active", "deleted", "Active", "USD", "monthly", "yearly", "12.50"),
    );
    const value = fc.oneof(
      text,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(text, { maxLength: 3 }),
    );
    const record = fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length });
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.oneof(record, value), (name, candidate) => {
        agree(name, candidate);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("the date format", () => {
  const ajvFormatsDate = (fullFormats.date as { validate: (value: string) => boolean }).validate;
  /** Date-like strings: each part any number in and around its range, sometimes a char changed. */
  const dateLike = fc
    .tuple(
      fc.integer({ min: -1, max: 10000 }),
      fc.integer({ min: -1, max: 13 }),
      fc.integer({ min: -1, max: 32 }),
      fc.option(fc.tuple(fc.nat(11), fc.string({ minLength: 0, maxLength: 2 })), { freq: 3 }),
    )
    .map(([year, month, day, change]) => {
      const text = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
      if (!change) return text;
      const [at, chars] = change;
      return text.slice(0, at) + chars + text.slice(at + 1);
    });

  it("answers as ajv-formats' date does, for any string and any date-like one", () => {
    fc.assert(
      fc.property(fc.oneof(dateLike, fc.string(), fc.string({ unit: "binary" })), (text) => {
        expect(isFullDate(text)).toBe(ajvFormatsDate(text));
      }),
      { numRuns: 20000 },
    );
  });

  it("knows the calendar: leap days, month ends, digits only", () => {
    for (const text of ["2024-02-29", "2000-02-29", "2023-04-30", "2023-12-31", "0000-01-01"])
      expect(isFullDate(text), text).toBe(true);
    for (const text of ["2023-02-29", "1900-02-29", "2023-04-31", "2023-13-01", "2023-00-10", "2023-01-00"])
      expect(isFullDate(text), text).toBe(false);
    for (const text of ["2023-1-01", "2023-01-01 ", "２０２３-01-01", "2023/01/01", "+023-01-01", ""])
      expect(isFullDate(text), text).toBe(false);
  });

  it("is the format the user schema's lastUsedDate is checked with", () => {
    const { user } = getValidators();
    expect(user({ email: "ada@example.com", lastUsedDate: "2024-02-29" })).toBe(true);
    expect(user({ email: "ada@example.com", lastUsedDate: "2023-02-29" })).toBe(false);
  });
});

describe("the date-time and email formats", () => {
  const ajvFormats = (name: "date-time" | "email") => {
    const format = fullFormats[name] as RegExp | { validate: (value: string) => boolean };
    return (text: string) => (format instanceof RegExp ? format.test(text) : format.validate(text));
  };
  const ajvDateTime = ajvFormats("date-time");
  const ajvEmail = ajvFormats("email");

  /** Strings made of the chars that matter to a format, and sometimes any char. */
  const madeOf = (chars: string) =>
    fc.string({
      unit: fc.oneof(fc.constantFrom(...chars), fc.string({ minLength: 1, maxLength: 1 })),
      maxLength: 30,
    });

  it("date-time answers as ajv-formats' does, for any string and any date-time-like one", () => {
    const dateTimeLike = fc
      .tuple(
        fc.constantFrom("2024-02-29", "2023-02-29", "2024-13-01", "2024-1-01", "20240101", ""),
        fc.constantFrom("T", "t", " ", "\t", "x", "TT", ""),
        fc.constantFrom("10:00:00", "23:59:60", "24:00:00", "10:00", "10:00:00.123", ""),
        fc.constantFrom("Z", "z", "+01:00", "-0130", "+01", "", "Q"),
      )
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.oneof(dateTimeLike, madeOf("0123456789-:T.Z+ "), fc.string()), (text) => {
        expect(isDateTime(text)).toBe(ajvDateTime(text));
      }),
      { numRuns: 20000 },
    );
  });

  it("email answers as ajv-formats' regular expression does, for any string and any email-like one", () => {
    const emailLike = fc
      .tuple(madeOf("aZ09.-_+!#~`|{}"), fc.constantFrom("@", "@@", ""), madeOf("aZ09.-"))
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.oneof(emailLike, madeOf("a.@-"), fc.string({ unit: "binary" })), (text) => {
        expect(isEmail(text)).toBe(ajvEmail(text));
      }),
      { numRuns: 30000 },
    );
  });

  it("email: dot-atoms, one @, two or more labels of letters, digits and inner hyphens", () => {
    for (const text of ["ada@example.com", "A.B-C+d@x-1.Example.ORG", "o'hara@a.b", "{x}|~@a1.b2"])
      expect(isEmail(text), text).toBe(true);
    for (const text of [
      "ada@localhost",
      ".ada@example.com",
      "ada.@example.com",
      "a..b@example.com",
      "ada@-x.com",
      "ada@x-.com",
      "ada@example.com.",
      "ada@@example.com",
      "adé@example.com",
      "ada@exämple.com",
      "ada@example.com\n",
      "ada@example_x.com",
      "",
    ])
      expect(isEmail(text), text).toBe(false);
  });
});
