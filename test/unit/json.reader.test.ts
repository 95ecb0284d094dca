// The JSON reader on bad and unusual input: every case ends in findings, never a throw.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DataRecord, isCode, readRecords, validateStream, validateText } from "../../src/index.js";
import { chunked, stream, utf8 } from "../support/chunks.js";
import { describeFindings, expectFinding } from "../support/expectFinding.js";

const ada = '{"email":"ada@example.com"}';

async function records(text: string | Uint8Array): Promise<DataRecord[]> {
  const out: DataRecord[] = [];
  for await (const event of readRecords(stream([typeof text === "string" ? utf8(text) : text]))) {
    if (event.type === "record") out.push(event.record);
  }
  return out;
}

describe("encoding", () => {
  it("accepts a UTF-8 byte-order mark; columns start after it, offsets count it", () => {
    const report = validateText(`\ufeff{"users":[{"email":"bad"}]}`);
    expectFinding(report, { code: "user.email.format", line: 1, column: 20, offset: 22 });
  });

  it("rejects UTF-16 with a clear finding", () => {
    const report = validateText(new Uint8Array([0xff, 0xfe, 0x7b, 0x00]));
    expect(expectFinding(report, { code: "json.encoding", line: 1, column: 1 }).message).toMatch(/UTF-16/);
  });

  it.each([1, 2, 3, 5, 64])(
    "reports a bad byte at its exact place whatever the chunking (%i-byte chunks)",
    async (size) => {
      const bytes = new Uint8Array([
        ...utf8('{"users":[\n {"email":"jos'),
        0xe9,
        ...utf8('@example.com"}]}'),
      ]);
      const report = await validateStream(stream(chunked(bytes, size)));
      expect(describeFindings(report)).toEqual(["json.encoding /users/0 2:15"]);
      expect(report.findings[0]?.offset).toBe(25);
    },
  );

  it("never lets a replacement character through: invalid bytes are never decoded", async () => {
    const bytes = new Uint8Array([
      ...utf8('{"users":[{"email":"a@b.co","firstName":"'),
      0xc3,
      0x28,
      ...utf8('"}]}'),
    ]);
    const report = validateText(bytes);
    expect(report.valid).toBe(false);
    expect(expectFinding(report, { code: "json.encoding" }).message).toMatch(
      /0xC3 starts a 2-byte character but 0x28/,
    );
  });

  it("reports a file that ends in the middle of a character", () => {
    const report = validateText(new Uint8Array([...utf8('{"users":[{"email":"a@b.co"}]}'), 0xe2, 0x82]));
    expectFinding(report, { code: "json.encoding", line: 1, column: 31, offset: 30 });
  });

  it("counts columns in characters and offsets in bytes", () => {
    const report = validateText('{"users":[{"email":"é@example.com","firstName":1}]}');
    expectFinding(report, { code: "user.firstName.type", column: 48, offset: 48 });
  });
});

describe("structure", () => {
  it.each([
    ["", "json.empty"],
    ["  \n\t ", "json.empty"],
    ["[]", "document.type"],
    ["42", "document.type"],
    ['"users"', "document.type"],
    ["null", "document.type"],
    ["{}", "document.users.required"],
    ['{"users":[]}', "document.users.empty"],
    ['{"users":{}}', "document.users.type"],
    [`{"users":[${ada}]} {}`, "json.trailing"],
    [`{"users":[${ada}]}]`, "json.trailing"],
    [`{"users":[${ada},]}`, "json.syntax"],
    [`{"users":[${ada}],}`, "json.syntax"],
    [`{"users" [${ada}]}`, "json.syntax"],
    [`{users:[${ada}]}`, "json.syntax"],
    [`{"users":[{"email":"a@b.co",}]}`, "json.syntax"],
    [`{"users":[{"email":"a@b.co"]}`, "json.syntax"],
    [`{"users":[{"email":"a\\qb@c.co"}]}`, "json.syntax"],
    [`{"users":[{"email":"a@b.co","n":01}]}`, "json.syntax"],
    [`{"users":[{"email":"a@b.co","n":NaN}]}`, "json.syntax"],
  ])("%j → %s", (text, code) => {
    const report = validateText(text);
    expect(report.valid).toBe(false);
    expectFinding(report, { code });
  });

  it("accepts whitespace after the document", () => {
    expect(validateText(`{"users":[${ada}]}\n\n  \r\n`).valid).toBe(true);
  });

  it("reports nesting beyond the limit as a finding, not a stack overflow", () => {
    const deep = `{"users":[${"[".repeat(100_000)}`;
    const report = validateText(deep);
    expect(describeFindings(report)).toEqual(["json.depth /users/0 1:73"]);
  });

  it("reports 100 000 nested brackets at the root as a wrong document type", () => {
    const report = validateText("[".repeat(100_000));
    expect(describeFindings(report)).toEqual(["document.type <root> 1:1"]);
  });
});

describe("keys", () => {
  it("never lets __proto__, constructor or prototype reach a prototype", async () => {
    const text = `{"users":[{"email":"a@b.co","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}],
      "licenses":[{"name":"P","__proto__":{"polluted":true},"users":[{"email":"a@b.co","__proto__":{"polluted":true}}]}],
      "__proto__":{"polluted":true}}`;
    const report = validateText(text);
    const list = await records(text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    for (const record of list) {
      const value = record.value as Record<string, unknown>;
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.hasOwn(value, "__proto__")).toBe(true);
      expect(value.polluted).toBeUndefined();
    }
    expect(report.valid).toBe(true);
    expect(report.counts.byCode).toEqual({
      "user.property.unknown": 2,
      "license.property.unknown": 1,
      "license.user.property.unknown": 1,
      "document.property.unknown": 1,
    });
  });

  it("warns about duplicate keys at the second occurrence; the last value counts, as in JSON.parse", async () => {
    const text =
      '{"users":[{"email":"x@y.co",\n"email":"a@b.co"}],"licenses":[{"name":"A","name":"B"}],"users":[]}';
    const report = validateText(text);
    expectFinding(report, { code: "json.key.duplicate", pointer: "/users/0/email", line: 2, column: 1 });
    expectFinding(report, { code: "json.key.duplicate", pointer: "/licenses/0/name" });
    expectFinding(report, { code: "json.key.duplicate", pointer: "/users" });
    const list = await records(text);
    expect((list[0]!.value as { email: string }).email).toBe("a@b.co");
    expect((list[1]!.value as { name: string }).name).toBe("B");
  });
});

describe("numbers", () => {
  it("keeps every digit of a numeric id", async () => {
    const text = '{"users":[{"email":"a@b.co","id":123456789012345678901},{"email":"c@d.co","id":1.50e3}]}';
    const [first, second] = await records(text);
    expect((first!.value as { id: string }).id).toBe("123456789012345678901");
    expect((second!.value as { id: string }).id).toBe("1.50e3");
    const finding = expectFinding(validateText(text), { code: "user.id.number", pointer: "/users/0/id" });
    expect(finding.value).toBe("123456789012345678901");
  });
});

describe("bad input never crashes or hangs", () => {
  it("reports random bytes as invalid, with catalog codes, in any chunking", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 1, max: 50 }),
        async (bytes, size) => {
          const report = await validateStream(stream(chunked(bytes, size)));
          for (const finding of report.findings) expect(isCode(finding.code)).toBe(true);
          expect(report.valid).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  const good = `{\n  "users": [\n    {"email": "a@b.co", "roles": ["x"]}\n  ],\n  "licenses": [{"name": "P", "users": [{"email": "a@b.co"}]}]\n}\n`;

  it("reports a truncated file at every cut point", () => {
    for (let cut = 1; cut < good.trimEnd().length; cut++) {
      const report = validateText(good.slice(0, cut));
      expect(report.valid, `cut at ${cut}: ${JSON.stringify(good.slice(0, cut))}`).toBe(false);
      expect(
        report.findings.some((f) => f.code.startsWith("json.")),
        `cut at ${cut}`,
      ).toBe(true);
    }
  });

  it("reports a 50 MB string value as too large, reading it in chunks", async () => {
    async function* big(): AsyncGenerator<Uint8Array> {
      yield utf8(`{"users":[${ada},{"email":"b@c.co","firstName":"`);
      const block = utf8("x".repeat(1 << 16));
      for (let i = 0; i < 800; i++) yield block;
      yield utf8('"}]}');
    }
    const report = await validateStream(big());
    expect(describeFindings(report)).toEqual(["json.record.size /users/1 1:39"]);
    expect(report.stats.bytes).toBeGreaterThan(50_000_000);
  });

  it("finds a syntax error past the record size limit, at its place", async () => {
    const text = `{"users":[{"email":"b@c.co","firstName":"${"x".repeat(5000)}", "n": tru}]}`;
    const report = await validateStream(stream(chunked(utf8(text), 1000)), { maxRecordBytes: 1024 });
    expect(describeFindings(report)).toEqual(["json.syntax /users/0 1:5050"]);
  });
});
