// Conversion: JSON → CSV → JSON gives the same document (a property over generated valid
// documents), the CSV layout as written, normalisation, and what is (not) written when.

import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CsvWriter,
  convertFile,
  convertStream,
  type DocumentWriter,
  JsonWriter,
  normalize,
  pipeDocument,
  type Report,
} from "../../src/index.js";
import { normalizeUser } from "../../src/model/normalize.js";
import { USER_DETAILS } from "../../src/schema/userDetails.js";
import { canonical } from "../support/canonical.js";
import { chunked, stream, utf8 } from "../support/chunks.js";
import { serialize } from "../support/jsonAst.js";
import { fixture } from "../support/paths.js";
import { modelAst, validModelArb } from "../support/validDocument.js";

type Writer = DocumentWriter & { formulasEscaped?: number };

/** Runs `text` through a writer made by `make`; the text written and the report. */
async function pipe(
  text: string,
  make: (out: (s: string) => void) => Writer,
  options: Parameters<typeof pipeDocument>[2] = {},
  chunk = 1 << 16,
): Promise<{ text: string; report: Report; writer: Writer }> {
  let out = "";
  const writer = make((s) => {
    out += s;
  });
  const report = await pipeDocument(stream(chunked(utf8(text), chunk)), writer, options);
  return { text: out, report, writer };
}

const toCsv = (text: string, options = {}) =>
  pipe(text, (out) => new CsvWriter(out), { format: "json", ...options });
const toJson = (text: string, format: "json" | "csv", options = {}) =>
  pipe(text, (out) => new JsonWriter(out), { format, ...options });

describe("JSON → CSV → JSON", () => {
  it('gives the same document, for documents whose texts hold , " newlines ; = and non-ASCII', async () => {
    await fc.assert(
      fc.asyncProperty(validModelArb, fc.integer({ min: 1, max: 200 }), async (model, size) => {
        const json = serialize(modelAst(model), ["", " ", "\n"]);
        const csv = await pipe(json, (out) => new CsvWriter(out), { format: "json" }, size);
        expect(csv.report.counts.error, JSON.stringify(csv.report.findings)).toBe(0);
        const back = await pipe(csv.text, (out) => new JsonWriter(out), { format: "csv" }, size);
        expect(back.report.counts.error, `${csv.text}\n${JSON.stringify(back.report.findings)}`).toBe(0);
        expect(back.report.counts.warning).toBe(0);
        expect(canonical(JSON.parse(back.text))).toEqual(canonical(JSON.parse(json)));
      }),
      { numRuns: 300 },
    );
  });

  it("reads its own CSV with the same counts, and JSON → JSON keeps the document", async () => {
    const json = readFileSync(fixture("valid/example.json"), "utf8");
    const csv = await toCsv(json);
    const back = await toJson(csv.text, "csv");
    expect(back.report.stats).toMatchObject({ users: 3, licenses: 2, licenseUsers: 3 });
    const same = await toJson(json, "json");
    expect(canonical(JSON.parse(same.text))).toEqual(canonical(JSON.parse(json)));
  });
});

describe("the CSV written", () => {
  it("has the canonical header, a row per user, then a row per license user, and an empty email for a license without users", async () => {
    const { text } = await toCsv(
      JSON.stringify({
        licenses: [
          { name: "Free", unassignedAmount: 10 },
          {
            name: "Pro, yearly",
            pricePerUser: 1250,
            users: [{ email: "b@x.io", licenseStatus: "inactive" }],
          },
        ],
        users: [{ email: "a@x.io", firstName: "Ann", roles: ["Admin", "a;b"] }, { email: "b@x.io" }],
      }),
    );
    expect(text).toBe(
      [
        "email,id,firstName,lastName,status,externalStatus,roles,lastUsedDate,licenseName,licenseStatus,pricePerUser,unassignedAmount",
        ",,,,,,,,Free,,,10",
        'a@x.io,,Ann,,,,"[""Admin"",""a;b""]",,,,,',
        "b@x.io,,,,,,,,,,,",
        'b@x.io,,,,,,,,"Pro, yearly",inactive,1250,',
        "",
      ].join("\n"),
    );
  });

  it("escapes formula cells and counts them; escapeFormulas: false writes them as they are", async () => {
    const doc = JSON.stringify({
      users: [{ email: "a@x.io", firstName: "=HYPERLINK()", lastName: "@x", roles: ["+1"] }],
    });
    const escaped = await toCsv(doc);
    expect(escaped.text.split("\n")[1]).toBe("a@x.io,,'=HYPERLINK(),'@x,,,'+1,,,,,");
    expect(escaped.writer.formulasEscaped).toBe(3);
    const raw = await pipe(doc, (out) => new CsvWriter(out, { escapeFormulas: false }), { format: "json" });
    expect(raw.text.split("\n")[1]).toBe("a@x.io,,=HYPERLINK(),@x,,,+1,,,,,");
    expect(raw.writer.formulasEscaped).toBe(0);
  });
});

describe("normalize", () => {
  const doc = JSON.stringify({
    licenses: [
      {
        users: [{ email: "A@x.io" }, { email: "b@x.io" }, { email: "b@x.io", licenseStatus: "inactive" }],
        name: "Pro",
        pricePerUser: 1250,
        extra: true,
      },
    ],
    users: [
      { email: "a@x.io", lastUsedDate: "2024-03-01T23:30:00-05:00", firstName: "", nickname: "x" },
      { email: "b@x.io", status: "deleted", lastUsedDate: "" },
    ],
  });

  it("derives license statuses from the users (even when licenses come first), converts prices, cuts dates, drops the rest", async () => {
    let out = "";
    const writer = new JsonWriter((s) => {
      out += s;
    });
    await normalize(stream([utf8(doc)]), writer, { displayCurrency: "EUR", rates: { EUR: "0.9215" } });
    expect(JSON.parse(out)).toEqual({
      users: [
        { email: "a@x.io", status: "active", lastUsedDate: "2024-03-01" },
        { email: "b@x.io", status: "deleted" },
      ],
      licenses: [
        {
          name: "Pro",
          pricePerUser: 1152,
          users: [
            { email: "A@x.io", licenseStatus: "active" },
            { email: "b@x.io", licenseStatus: "deleted" },
            { email: "b@x.io", licenseStatus: "inactive" },
          ],
        },
      ],
    });
  });

  it("writes a user's properties in the order of USER_DETAILS, whatever the file's order", () => {
    const given = fc.record(
      {
        id: fc.constantFrom("7", ""),
        firstName: fc.constant("Ada"),
        lastName: fc.constant("Lovelace"),
        status: fc.constantFrom("active", "deleted"),
        externalStatus: fc.constant("Suspended"),
        roles: fc.constant(["Admin"]),
        lastUsedDate: fc.constantFrom("2024-03-01", "2024-03-01T23:30:00Z"),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(given, fc.boolean(), (user, reversed) => {
        const entries = Object.entries({ email: "a@x.io", ...user });
        const value = Object.fromEntries(reversed ? entries.reverse() : entries);
        const keys = ["email", ...USER_DETAILS].filter(
          (key) =>
            key === "email" || key === "status" || (key in user && user[key as keyof typeof user] !== ""),
        );
        expect(Object.keys(normalizeUser(value))).toEqual(keys);
      }),
    );
  });

  it("gives the same result from CSV", async () => {
    const csv = await toCsv(doc);
    const fromJson = await toJson(doc, "json", { normalize: true });
    const fromCsv = await toJson(csv.text, "csv", { normalize: true });
    expect(JSON.parse(fromCsv.text)).toEqual(JSON.parse(fromJson.text));
  });

  it("refuses currencies without normalising, and unknown currencies or missing rates before reading", async () => {
    const writer = new JsonWriter(() => {});
    await expect(pipeDocument(stream([]), writer, { displayCurrency: "EUR" })).rejects.toThrow(
      /only when normalising/,
    );
    await expect(normalize(stream([]), writer, { displayCurrency: "XYZ" })).rejects.toThrow(
      /unknown currency "XYZ"/,
    );
    await expect(normalize(stream([]), writer, { displayCurrency: "EUR" })).rejects.toThrow(
      /no rate from USD to EUR/,
    );
  });
});

describe("convertFile", () => {
  const dir = () => mkdtempSync(join(tmpdir(), "syncfile-convert-test-"));

  it("writes the output and says so in the report", async () => {
    const d = dir();
    const report = await convertFile(fixture("valid/example.csv"), join(d, "users.json"));
    expect(report.output).toEqual({
      file: join(d, "users.json"),
      format: "json",
      written: true,
      normalized: false,
      formulasEscaped: 0,
    });
    expect(JSON.parse(readFileSync(join(d, "users.json"), "utf8")).users).toHaveLength(3);
    expect(readdirSync(d)).toEqual(["users.json"]);
  });

  it("writes nothing for an invalid input, leaves an existing output as it was, and no temporary file", async () => {
    const d = dir();
    const out = join(d, "users.csv");
    writeFileSync(out, "before");
    const report = await convertFile(fixture("invalid/user.email.format.json"), out);
    expect(report.valid).toBe(false);
    expect(report.output?.written).toBe(false);
    expect(readFileSync(out, "utf8")).toBe("before");
    expect(readdirSync(d)).toEqual(["users.csv"]);
  });

  it("writes an invalid input with force", async () => {
    const d = dir();
    const report = await convertFile(fixture("invalid/user.email.format.json"), join(d, "out.csv"), {
      force: true,
    });
    expect(report.output?.written).toBe(true);
    expect(readFileSync(join(d, "out.csv"), "utf8")).toContain("grace.example.com");
  });

  it("chooses the format by the output's extension, else the other one, else `to`", async () => {
    const d = dir();
    const input = fixture("valid/example.json");
    expect((await convertFile(input, join(d, "a.CSV"))).output?.format).toBe("csv");
    expect((await convertFile(input, join(d, "a.txt"))).output?.format).toBe("csv");
    expect((await convertFile(input, join(d, "a.txt"), { to: "json" })).output?.format).toBe("json");
    await expect(convertFile(input, join(d, "b"), { to: "xml" as "json" })).rejects.toThrow(
      /to must be "json", "csv" or "xlsx"/,
    );
  });

  it("streams to a writable only once the input is known to be valid", async () => {
    const sink = new PassThrough();
    const chunks: Buffer[] = [];
    sink.on("data", (c) => chunks.push(c));
    const report = await convertStream(stream([utf8('{"users":[{"email":"a@x.io"}]}')]), sink, { to: "csv" });
    expect(report.output).toMatchObject({ file: null, written: true });
    expect(Buffer.concat(chunks).toString()).toMatch(/^email,.*\na@x\.io,,,,,,,,,,,\n$/);
    const refused = new PassThrough();
    let received = 0;
    refused.on("data", (c) => {
      received += c.length;
    });
    const bad = await convertStream(stream([utf8('{"users":[{"email":"nope"}]}')]), refused, { to: "csv" });
    expect(bad.output?.written).toBe(false);
    expect(received).toBe(0);
  });

  it("leaves no output and no temporary file when the input cannot be read", async () => {
    const d = dir();
    await expect(convertFile(join(d, "missing.csv"), join(d, "out.json"))).rejects.toMatchObject({
      code: "ENOENT",
    });
    expect(existsSync(join(d, "out.json"))).toBe(false);
    expect(readdirSync(d)).toEqual([]);
  });
});
