// Text as spreadsheets save it: UTF-16 with a byte-order mark (Excel's "Unicode Text") decoded
// in any chunking, the delimiter told by the first lines' content, what the report says of
// both, and an export's short rows read through a mapping.

import { describe, expect, it } from "vitest";
import {
  formatText,
  JsonWriter,
  type MappingDocument,
  pipeDocument,
  type Report,
  validateStream,
  validateText,
} from "../../src/index.js";
import { formatOf } from "../../src/pass/formatOf.js";
import { Utf16Decoder } from "../../src/text/Utf16Decoder.js";
import { chunked, stream, utf8 } from "../support/chunks.js";
import { expectFinding } from "../support/expectFinding.js";

/** `text` as UTF-16 with its byte-order mark. */
function utf16(text: string, encoding: "UTF-16LE" | "UTF-16BE"): Uint8Array {
  const bytes = Buffer.from(`\ufeff${text}`, "utf16le");
  if (encoding === "UTF-16BE") bytes.swap16();
  return new Uint8Array(bytes);
}

/** A user's name with a surrogate pair (😀, four bytes in UTF-16) and letters of two bytes. */
const UNICODE_TEXT =
  "email\tfirstName\tlastName\r\n" +
  "yuki@example.com\tYūki\t田中\r\n" +
  "ana@example.com\tAna 😀\tLópez, Sr\r\n" +
  "zoe@example.com\tZoë\tŁukasiewicz\r\n";

/** The document `bytes`, in the pieces `pieces`, converts to, and the report. */
async function converted(
  pieces: Iterable<Uint8Array>,
  options = {},
): Promise<{ report: Report; json: unknown }> {
  let json = "";
  const report = await pipeDocument(
    stream(pieces),
    new JsonWriter((s) => {
      json += s;
    }),
    { format: "csv", ...options },
  );
  return { report, json: json === "" ? null : JSON.parse(json) };
}

const comparable = (report: Report) => ({ ...report, stats: { ...report.stats, durationMs: 0 } });

describe("UTF-16 with a byte-order mark", () => {
  it.each(["UTF-16LE", "UTF-16BE"] as const)("reads %s as the same text in UTF-8 reads", async (encoding) => {
    const bytes = utf16(UNICODE_TEXT, encoding);
    const { report, json } = await converted([bytes]);
    expect(report.findings).toEqual([]);
    expect(report.text).toEqual({ encoding, delimiter: "\t" });
    expect(json).toEqual({
      users: [
        { email: "yuki@example.com", firstName: "Yūki", lastName: "田中" },
        { email: "ana@example.com", firstName: "Ana 😀", lastName: "López, Sr" },
        { email: "zoe@example.com", firstName: "Zoë", lastName: "Łukasiewicz" },
      ],
    });
    expect(report.stats.bytes).toBe(bytes.length);
  });

  it.each(["UTF-16LE", "UTF-16BE"] as const)(
    "gives the same report and document cut at every byte (%s), a unit or a pair split between chunks",
    async (encoding) => {
      const bytes = utf16(UNICODE_TEXT, encoding);
      const whole = await converted([bytes]);
      for (let cut = 1; cut < bytes.length; cut++) {
        const two = await converted([bytes.subarray(0, cut), bytes.subarray(cut)]);
        expect(comparable(two.report), `cut at ${cut}`).toEqual(comparable(whole.report));
        expect(two.json, `cut at ${cut}`).toEqual(whole.json);
      }
      for (const size of [1, 2, 3, 5, 7]) {
        const pieces = await converted(chunked(bytes, size));
        expect(comparable(pieces.report), `pieces of ${size}`).toEqual(comparable(whole.report));
        expect(pieces.json).toEqual(whole.json);
      }
    },
  );

  it("decodes a surrogate pair cut anywhere to the same UTF-8", () => {
    const bytes = utf16("a😀b€", "UTF-16LE").subarray(2);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const decoder = new Utf16Decoder("UTF-16LE");
      const parts = [decoder.push(bytes.subarray(0, cut)), decoder.push(bytes.subarray(cut)), decoder.end()];
      expect(Buffer.concat(parts).toString("utf8"), `cut at ${cut}`).toBe("a😀b€");
      expect(decoder.failure).toBeNull();
    }
  });

  it.each([
    ["a high surrogate followed by a letter", [0x3d, 0xd8, 0x41, 0x00], "0xD83D"],
    ["a low surrogate alone", [0x00, 0xde], "0xDE00"],
    ["a high surrogate that ends the file", [0x3d, 0xd8], "0xD83D"],
  ])("says where %s is, as csv.encoding at its row, in any chunking", async (_, unit, named) => {
    const head = utf16("email\tfirstName\r\nada@example.com\tAda\r\nbob@example.com\tB", "UTF-16LE");
    const bytes = Buffer.concat([head, Buffer.from(unit)]);
    const whole = validateText(bytes, { format: "csv" });
    const finding = expectFinding(whole, { code: "csv.encoding", row: 2, line: 3 });
    expect(finding.message).toBe(
      `the file is not valid UTF-16LE: code unit ${named} is half of a character without its other half (a lone surrogate)`,
    );
    expect(finding.hint).toContain("damaged");
    expect(finding.offset).toBeUndefined();
    expect(whole.stats.users).toBe(1); // the row before is read
    for (const size of [1, 2, 3, 7]) {
      const pieces = await validateStream(stream(chunked(bytes, size)), { format: "csv" });
      expect(pieces.findings).toEqual(whole.findings);
    }
  });

  it("says a file cut inside a unit (an odd size) is not UTF-16", () => {
    const bytes = Buffer.concat([utf16("email\r\nada@example.com\r\nb", "UTF-16LE"), Buffer.from([0x40])]);
    const finding = expectFinding(validateText(bytes, { format: "csv" }), { code: "csv.encoding", row: 2 });
    expect(finding.message).toContain("the file ends inside a character");
  });

  it("leaves no offset in the findings, and says how the text was read in the summary", () => {
    const text = "email\tStatus\r\nada@example.com\tactive\r\nbob@example\tactive\r\n";
    const report = validateText(utf16(text, "UTF-16BE"), { format: "csv", file: "users.txt" });
    const finding = expectFinding(report, { code: "user.email.format", row: 2, line: 3 });
    expect(finding.offset).toBeUndefined();
    expect(formatText(report)).toContain("\nread as tab-separated UTF-16BE text\n");
  });
});

describe("the delimiter, told by the first lines", () => {
  const delimiterOf = (text: string) => validateText(text, { format: "csv" }).text?.delimiter ?? ",";

  it.each([
    ["tab", "email\tname\nada@x.io\tAda\nbob@x.io\tBob\n", "\t"],
    ["semicolon", "email;name\nada@x.io;Ada\nbob@x.io;Bob\n", ";"],
    ["pipe", "email|name|status\nada@x.io|Ada|active\nbob@x.io|Bob|deleted\n", "|"],
    ["comma", "email,name\nada@x.io,Ada\nbob@x.io,Bob\n", ","],
    // commas inside quoted header cells do not make a comma-separated file
    ["tab, with commas in quoted header cells", '"email, work"\t"name, full"\nada@x.io\tAda\n', "\t"],
    ["comma, with tabs and ; in quoted header cells", '"a\tb;c",email\n"x\ty;z",ada@x.io\n', ","],
    // names written "Last, First" in a tab-separated file: only the tab splits every line alike
    ["tab, with a comma in every name", "Name\tEmail\nTanaka, Yuki\ty@x.io\nDoe, Jane\tj@x.io\n", "\t"],
    // a comma in the header too: the rows decide
    [
      "tab, over a header with one comma",
      "Name, full\tEmail\tTeam\nTanaka\ty@x.io\tA\nDoe\tj@x.io\tB\n",
      "\t",
    ],
    ["semicolon, with commas in the cells", "email;roles\nada@x.io;a,b,c\nbob@x.io;d\n", ";"],
    ["comma, with semicolons in the cells", "email,roles\nada@x.io,a;b;c\nbob@x.io,d;e\n", ","],
    ["comma, when nothing splits", "email\nada@x.io\n", ","],
  ])("tells %s", (_, text, delimiter) => {
    expect(delimiterOf(text)).toBe(delimiter);
  });

  it("tells the same delimiter in any chunking", async () => {
    const text = utf8(`Name, full\tEmail\n${"Jane Doe\tj@x.io\n".repeat(10)}`);
    for (const size of [1, 3, 8, 64]) {
      const report = await validateStream(stream(chunked(text, size)), { format: "csv" });
      expect(report.text).toEqual({ delimiter: "\t" });
    }
  });

  it("says a delimiter other than a comma in the report and its summary, a comma not at all", () => {
    const semicolon = validateText("email;firstName\nada@x.io;Ada\n", { format: "csv" });
    expect(semicolon.text).toEqual({ delimiter: ";" });
    expect(formatText(semicolon)).toContain("\nread as semicolon-separated text\n");
    const comma = validateText("email,firstName\nada@x.io,Ada\n", { format: "csv" });
    expect(comma.text).toBeUndefined();
    expect(formatText(comma)).not.toContain("read as");
  });
});

describe("short rows of an export", () => {
  const MAPPING: MappingDocument = {
    name: "hr",
    email: "Work email",
    firstName: "First",
    lastName: "Last",
    status: { column: "State", values: { Active: "active", Gone: "deleted" } },
    roles: "Teams",
  };
  const EXPORT =
    "Work email,First,Last,State,Teams\n" +
    "ada@x.io,Ada,Lovelace,Active,Math\n" +
    "bob@x.io,Bob\n" +
    "cy@x.io,Cy,Young,Gone\n" +
    "dee@x.io,Dee,Dee,Active,Ops\n";

  it("reads the missing cells as empty through a mapping, said once with the count", async () => {
    const { report, json } = await converted([utf8(EXPORT)], { mapping: MAPPING });
    expect(report.findings.map((f) => [f.code, f.row, f.line, f.severity])).toEqual([
      ["csv.row.short", 2, 3, "warning"],
    ]);
    expect(report.findings[0]?.message).toBe(
      "2 rows had fewer cells than the header's 5, starting with this one (2); their missing cells were read as empty",
    );
    expect(report.valid).toBe(true);
    expect(json).toEqual({
      users: [
        {
          email: "ada@x.io",
          firstName: "Ada",
          lastName: "Lovelace",
          status: "active",
          externalStatus: "Active",
          roles: ["Math"],
        },
        { email: "bob@x.io", firstName: "Bob" },
        { email: "cy@x.io", firstName: "Cy", lastName: "Young", status: "deleted", externalStatus: "Gone" },
        {
          email: "dee@x.io",
          firstName: "Dee",
          lastName: "Dee",
          status: "active",
          externalStatus: "Active",
          roles: ["Ops"],
        },
      ],
    });
  });

  it("keeps a row with more cells than the header csv.ragged, through a mapping too", () => {
    const report = validateText(`${EXPORT}eve@x.io,Eve,Evans,Active,Ops,extra\n`, {
      format: "csv",
      mapping: MAPPING,
    });
    expectFinding(report, { code: "csv.ragged", row: 5, line: 6, severity: "error" });
    expectFinding(report, { code: "csv.row.short", row: 2 });
    expect(report.stats.users).toBe(4);
  });

  it("keeps a short row csv.ragged in the service's own layout", () => {
    const report = validateText("email,firstName,lastName\nada@x.io,Ada\n", { format: "csv" });
    expect(report.findings.map((f) => f.code)).toEqual(["csv.ragged"]);
  });
});

describe("file names", () => {
  it.each([
    ["users.txt", "csv"],
    ["users.TSV", "csv"],
    ["users.csv", "csv"],
    ["users.xlsx", "xlsx"],
    ["users.json", "json"],
  ])("reads %s as %s", (name, format) => {
    expect(formatOf(name)).toBe(format);
  });
});
