// The CSV reader: any chunking gives the same report, the fast row check says what the row
// schema says, the dialects and header matching, and where findings land.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UserDefinitions } from "../../src/csv/_UserDefinitions.js";
import { JsonWriter, pipeDocument, type Report, validateStream, validateText } from "../../src/index.js";
import { getValidators } from "../../src/schema/validators.js";
import { chunked, stream, utf8 } from "../support/chunks.js";
import { csvBytes, csvSpecArb } from "../support/csvText.js";
import { expectFinding } from "../support/expectFinding.js";

// findings that stop reading: how many bytes were read before it stopped depends on the chunking
const FATAL = new Set([
  "csv.quote",
  "csv.encoding",
  "csv.record.size",
  "csv.header.missing",
  "csv.empty",
  "file.type",
]);
const comparable = (report: Report) => {
  const fatal = report.findings.some((f) => FATAL.has(f.code));
  return { ...report, stats: { ...report.stats, durationMs: 0, bytes: fatal ? 0 : report.stats.bytes } };
};
const csv = (text: string, options = {}) => validateText(text, { format: "csv", ...options });
const codes = (report: Report) => report.findings.map((f) => f.code);

describe("chunk boundaries", () => {
  // found by the property below (seed -260977466): bytes E2 82 then C3 split as E2 82 | C3 | AB
  // kept C3 back and judged E2 82 alone ("cuts off"), not E2 82 C3 ("but 0xC3 follows")
  it.each(["csv", "json"] as const)(
    "regression: a cut character followed by a lead byte reads the same in any chunking (%s)",
    async (format) => {
      const head =
        format === "csv" ? "email,firstName\na@b.co,x" : '{"users":[{"email":"a@b.co","firstName":"x';
      const bytes = Buffer.concat([Buffer.from(head), Buffer.from([0xe2, 0x82]), Buffer.from("ëZ\n")]);
      const whole = validateText(bytes, { format });
      expect(whole.findings[0]?.message).toMatch(/byte 0xE2 starts a 3-byte character but 0xC3 follows/);
      for (const size of [1, 2, 3, 5, 7]) {
        const pieces = await validateStream(stream(chunked(bytes, size)), { format });
        expect(pieces.findings.map((f) => f.message)).toEqual(whole.findings.map((f) => f.message));
      }
    },
  );

  it("do not matter: the same bytes in any chunking give the same report", async () => {
    await fc.assert(
      fc.asyncProperty(csvSpecArb, fc.integer({ min: 1, max: 97 }), async (spec, size) => {
        const bytes = await csvBytes(spec);
        const whole = validateText(bytes, { format: "csv" });
        const pieces = await validateStream(stream(chunked(bytes, size)), { format: "csv" });
        expect(comparable(pieces)).toEqual(comparable(whole));
        if (!spec.insert) expect(whole.counts.error, JSON.stringify(whole.findings)).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the row check", () => {
  const CELLS = ["", "x", " ", "'=", "active", "12", "a@b.co"];
  const cells = fc.constantFrom(...CELLS);

  it("finds a csv.row.* problem exactly when csv-row.schema.json rejects the row", () => {
    const schema = getValidators().csvRow;
    fc.assert(
      fc.property(fc.boolean(), fc.array(cells, { minLength: 7, maxLength: 7 }), (dialect, row) => {
        const header = [
          "email",
          dialect ? "Licenses" : "licenseName",
          "licenseStatus",
          "pricePerUser",
          "unassignedAmount",
          "status",
          "Name",
        ];
        const keys = [
          "email",
          dialect ? "licenses" : "licenseName",
          "licenseStatus",
          "pricePerUser",
          "unassignedAmount",
          "status",
          "name",
        ];
        const object = Object.fromEntries(
          keys.flatMap((key, i) => ((row[i] as string) === "" ? [] : [[key, row[i] as string]])),
        );
        const report = csv(`${header.join(",")}\n${row.map((c) => (c === " " ? '" "' : c)).join(",")}\n`);
        const rowProblems = codes(report).filter((c) => c.startsWith("csv.row."));
        expect(rowProblems.length > 0, `${JSON.stringify(object)}: ${codes(report)}`).toBe(!schema(object));
      }),
      { numRuns: 500 },
    );
  });

  it("never reads a user whose email is empty as a license nobody holds", () => {
    // a GitHub organisation's members: an email only where the member made it public
    const github = csv(
      "name,email,licenseName\nThe Octocat,octo@example.com,Enterprise\nHubot,,Enterprise\n,,Enterprise\n",
    );
    expect(github.findings.map((f) => [f.code, f.row, f.field, f.message])).toEqual([
      ["csv.row.user", 2, "name", "name is set but the row has no email"],
    ]);
    // one row a user in the spreadsheet dialect: a Licenses cell is that user's
    const sheet = csv('Email,Status,Licenses\nada@example.com,Active,"Pro, Viewer"\n,Suspended,Viewer\n');
    expect(sheet.findings.map((f) => [f.code, f.row, f.field])).toEqual([["csv.row.user", 2, "Status"]]);
    // no license either: said once, as the user's missing email
    const bare = csv("email,firstName,lastName\n,Ada,Lovelace\n");
    expect(bare.findings.map((f) => [f.code, f.field])).toEqual([["csv.row.user", "firstName"]]);
    // a license row of the canonical layout is still one: only the missing users are said
    expect(codes(csv("email,licenseName,pricePerUser\n,Pro,1250\n"))).toEqual(["document.users.empty"]);
  });
});

describe("dialects and headers", () => {
  it("matches headers whatever their case, spaces, _ and -", () => {
    const report = csv("E-Mail,FIRST_NAME,last name,License Name,Price per user\na@b.co,Ada,L,Pro,100\n");
    expect(report.findings).toEqual([]);
    expect(report.stats).toMatchObject({ users: 1, licenses: 1, licenseUsers: 1 });
  });

  it("warns about an unknown header with a did-you-mean hint, and reads the rest", () => {
    const report = csv("email,frist name\na@b.co,Ada\n");
    expectFinding(report, {
      code: "csv.header.unknown",
      row: 0,
      line: 1,
      field: "frist name",
      hint: 'did you mean "firstName"?',
    });
    expect(report.valid).toBe(true);
  });

  it("reads the spreadsheet dialect: Licenses as a list, statuses in any case, ; delimiter, BOM, CRLF", () => {
    const text =
      '\ufeffEmail;Status;Licenses\r\nada@x.io;DELETED;"Pro, Viewer"\r\nbob@x.io;Active;Viewer\r\n';
    const report = csv(text);
    expect(report.findings).toEqual([]);
    expect(report.stats).toMatchObject({ users: 2, licenses: 2, licenseUsers: 3 });
  });

  it("reads statuses in any case in every layout, and writes them in lower case", async () => {
    // a canonical header (an HR system's export renamed), with its own capitalisation
    const text = "email,status,licenseName,licenseStatus\nada@x.io,Active,Pro,INACTIVE\nbob@x.io,DELETED,,\n";
    let json = "";
    const report = await pipeDocument([text], new JsonWriter((s) => (json += s)), { format: "csv" });
    expect(report.findings).toEqual([]);
    const document = JSON.parse(json);
    expect(document.users.map((u: { status: string }) => u.status)).toEqual(["active", "deleted"]);
    expect(document.licenses[0].users).toEqual([{ email: "ada@x.io", licenseStatus: "inactive" }]);
    // a status that is none of them is still one, whatever its case
    expect(expectFinding(csv("email,status\nada@x.io,Suspended\n"), { code: "user.status.enum" }).row).toBe(
      1,
    );
  });

  it("finds an email repeated in another case where rows name no license, and merges it where they do", () => {
    // a Google Workspace export: one row a user, two accounts whose addresses differ in case
    const google = csv("Email,Status\nada@x.io,Active\nbob@x.io,Active\nAda@X.io,Suspended\n");
    expect(google.findings.map((f) => [f.code, f.row, f.line, f.field, f.message])).toEqual([
      [
        "user.email.duplicate",
        3,
        4,
        "Email",
        'email "Ada@X.io" is already used by the user at row 1 (line 2)',
      ],
    ]);
    expect(google.stats.users).toBe(2);
    // the canonical layout repeats a user's row for each license: its spellings are one user
    const canonical = csv("email,licenseName\nada@x.io,Pro\nAda@x.io,Viewer\n");
    expect(canonical.findings).toEqual([]);
    expect(canonical.stats).toMatchObject({ users: 1, licenseUsers: 2 });
  });

  it("reads old Mac line ends (CR only)", () => {
    const report = csv("email,firstName\ra@b.co,Ada\rc@d.co,Cy\r");
    expect(report.findings).toEqual([]);
    expect(report.stats.users).toBe(2);
  });
});

describe("list cells", () => {
  /** The document a CSV converts to. */
  const converted = async (text: string) => {
    let json = "";
    const report = await pipeDocument([text], new JsonWriter((s) => (json += s)), { format: "csv" });
    expect(report.counts.error, JSON.stringify(report.findings)).toBe(0);
    return JSON.parse(json) as {
      users: { email: string; roles?: string[] }[];
      licenses: { name: string; users?: { email: string }[] }[];
    };
  };

  it("separate roles and Licenses at , and ; trimmed, empty items dropped (the service's own layouts)", async () => {
    const sheet = await converted(
      'Id,Email,Status,Roles,Licenses\n1,ada@x.io,Active,"Admin, Billing","Pro; Viewer, "\n2,bo@x.io,Active,Viewer;,Pro\n',
    );
    expect(sheet.users.map((u) => u.roles)).toEqual([["Admin", "Billing"], ["Viewer"]]);
    expect(sheet.licenses.map((l) => [l.name, l.users?.map((u) => u.email)])).toEqual([
      ["Pro", ["ada@x.io", "bo@x.io"]],
      ["Viewer", ["ada@x.io"]],
    ]);
    const manual = await converted("Email,Licenses,Last used date\nada@x.io,Pro;Viewer,2024-07-05\n");
    expect(manual.licenses.map((l) => l.name)).toEqual(["Pro", "Viewer"]);
  });

  it("keep items holding a separator in the JSON-array form, and a licenseName cell names one license", async () => {
    const doc = await converted(
      'email,roles,licenseName\nada@x.io,"[""Editor; Billing"",""Ops, EU""]","Pro; yearly"\n',
    );
    expect(doc.users[0]?.roles).toEqual(["Editor; Billing", "Ops, EU"]);
    expect(doc.licenses.map((l) => l.name)).toEqual(["Pro; yearly"]);
    expect(codes(csv('email,roles\nada@x.io,"[""Admin"", 3]"\n'))).toEqual(["csv.roles.format"]);
  });
});

describe("a Name column", () => {
  const users = async (text: string) => {
    let json = "";
    const report = await pipeDocument([text], new JsonWriter((s) => (json += s)), { format: "csv" });
    return { report, users: (JSON.parse(json) as { users: Record<string, unknown>[] }).users };
  };

  it("splits at the first space: the first word is the first name, the rest the last name (the Google Sheets template)", async () => {
    const { report, users: read } = await users(
      "Id,Email,Name,Status,External status,Roles,Licenses,Last used date\n" +
        "1,ada@x.io,Ada King Lovelace,Active,Active,Admin,Pro,2024-07-05\n" +
        "2,zoe@x.io,Zoë,Active,,,,\n" +
        "3,li@x.io,  李 小龍 ,Deleted,,,,\n",
    );
    expect(report.findings).toEqual([]);
    expect(read.map((u) => [u.firstName, u.lastName])).toEqual([
      ["Ada", "King Lovelace"],
      ["Zoë", undefined],
      ["李", "小龍"],
    ]);
  });

  it("takes Full name and Display name too, and names the Name column in a conflict", async () => {
    for (const header of ["Full name", "Display name"]) {
      const { users: read } = await users(`Email,${header}\nada@x.io,Ada Lovelace\n`);
      expect(read[0]).toMatchObject({ firstName: "Ada", lastName: "Lovelace" });
    }
    const conflict = csv("Email,Name,Licenses\nada@x.io,Ada Lovelace,Pro\nada@x.io,Ada Byron,Team\n");
    expectFinding(conflict, { code: "csv.user.conflict", row: 2, field: "Name" });
  });

  it("is ignored with a warning when First name or Last name columns give the names", async () => {
    const { report, users: read } = await users("Email,Name,First name\nada@x.io,Ada Lovelace,Augusta\n");
    expect(read[0]).toEqual({ email: "ada@x.io", firstName: "Augusta" });
    expect(report.findings.map((f) => [f.code, f.field, f.message])).toEqual([
      [
        "csv.header.name",
        "Name",
        'column "Name" is not split into first and last name: the file has "First name"',
      ],
    ]);
  });
});

describe("files that are not text", () => {
  const starts = {
    zip: [0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00],
    xls: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0x00],
    pdf: [...utf8("%PDF-1.7\n")],
  };
  it.each(
    Object.entries(starts).flatMap(([kind, bytes]) =>
      (["csv", "json"] as const).map((f) => [kind, f, bytes] as const),
    ),
  )("a %s read as %s is said to be one, in any chunking, and reading stops", async (kind, format, start) => {
    const bytes = new Uint8Array([...start, ...utf8("[Content_Types].xml\nemail\n{}"), 0xff, 0x00]);
    for (const size of [1, 2, 3, 64]) {
      const report = await validateStream(stream(chunked(bytes, size)), { format });
      expect(codes(report)).toEqual(["file.type"]);
      expect(report.findings[0]?.message).toMatch(
        kind === "pdf" ? /a PDF document/ : kind === "xls" ? /\.xls/ : /ZIP archive, as an Excel workbook is/,
      );
      expect(report.findings[0]).toMatchObject({ line: 1 });
    }
  });

  it("are told apart from text that starts like one", () => {
    expect(codes(csv("PK,email\nx,a@b.co\n"))).toEqual(["csv.header.unknown"]);
    expect(codes(validateText("P", { format: "json" }))).toEqual(["json.syntax"]);
  });
});

describe("where findings land", () => {
  it("counts lines as an editor does, quoted line breaks (LF or CR LF) included", () => {
    const text = 'email,firstName\r\na@b.co,"two\r\nlines"\r\nc@d.co,"x\ny"\r\nbad,Z\r\n';
    const finding = expectFinding(csv(text), { code: "user.email.format" });
    expect(finding).toMatchObject({ row: 3, line: 6, field: "email", offset: text.indexOf("bad") });
  });

  it("places a bad byte at its line and offset, in the column being read", () => {
    const bytes = new Uint8Array([...utf8("email,firstName\na@b.co,Ad"), 0xff, ...utf8("a\n")]);
    const finding = expectFinding(validateText(bytes, { format: "csv" }), { code: "csv.encoding" });
    expect(finding).toMatchObject({ row: 1, line: 2, offset: 25, field: "firstName" });
  });

  it("places a file cut inside a character at the character", () => {
    const bytes = new Uint8Array([...utf8("email,firstName\na@b.co,Zo"), 0xc3]);
    const finding = expectFinding(validateText(bytes, { format: "csv" }), { code: "csv.encoding" });
    expect(finding).toMatchObject({ row: 1, line: 2, offset: 25 });
  });

  it("places an unclosed quote where its record opens", () => {
    const text = 'email,firstName\na@b.co,Ada\nc@d.co,"Cy\nand the rest\n';
    expect(expectFinding(csv(text), { code: "csv.quote" })).toMatchObject({
      row: 2,
      line: 3,
      offset: text.indexOf("c@d"),
    });
  });

  it("names both rows when a user's rows disagree", () => {
    const text = "email,firstName,licenseName\na@b.co,Ada,Pro\nb@c.co,Bo,Pro\nA@B.CO,Augusta,Viewer\n";
    const finding = expectFinding(csv(text), {
      code: "csv.user.conflict",
      row: 3,
      line: 4,
      field: "firstName",
    });
    expect(finding.message).toContain("row 1");
  });
});

describe("hints", () => {
  // the catalog's hint unless the reader tells a case apart that needs another
  it("are the catalog's, or the reader's more specific one, word for word", () => {
    expect(expectFinding(csv("ada@example.com,Ada\n"), { code: "csv.header.missing" }).hint).toBe(
      "the first row looks like data: add a header row, e.g. email,firstName,lastName,status,licenseName",
    );
    expect(expectFinding(csv("mail,name\n"), { code: "csv.header.missing" }).hint).toBe(
      "name the column of email addresses email; the first row of the file must be the header",
    );
    // the rows after the header show which column holds the addresses (an export of a layout no
    // profile knows: Google Workspace's without its status column, which its profile needs)
    const google = csv(
      "First Name [Required],Last Name [Required],Email Address [Required],Status,Recovery Email\n" +
        "Ada,Lovelace,ada@example.com,Active,\n" +
        'Grace,Hopper,grace@example.com,Suspended,"grace@example.org"\n' +
        'Alan,Turing,alan@example.com,Active,"broken"quote\n',
    );
    expect(google.findings.map((f) => [f.code, f.row, f.line, f.hint])).toEqual([
      ["csv.header.missing", 0, 1, 'column "Email Address [Required]" holds email addresses: name it email'],
    ]);
    expect(expectFinding(csv("mail,name\nnot an address,Ada\n"), { code: "csv.header.missing" }).hint).toBe(
      "name the column of email addresses email; the first row of the file must be the header",
    );
    expect(expectFinding(csv(""), { code: "csv.empty" }).hint).toBe(
      "a CSV data file starts with a header row: email,firstName,lastName,status,licenseName",
    );
    const ragged = csv("email,firstName,lastName\na@b.co,A\nc@d.co,C,D,E\n");
    expect(expectFinding(ragged, { code: "csv.ragged", row: 1 }).hint).toBe(
      "every row needs a cell for each header column, empty or not",
    );
    expect(expectFinding(ragged, { code: "csv.ragged", row: 2 }).hint).toBe(
      "a cell holding the delimiter must be in double quotes",
    );
    expect(expectFinding(csv('email,firstName\na@b.co,"Ada\n'), { code: "csv.quote" }).hint).toBe(
      'the file may be truncated, or a quote inside a quoted cell is not doubled (write "" for ")',
    );
  });
});

describe("the row that first defines each user (kept to compare the user's later rows with)", () => {
  const cellArb = fc.oneof(
    fc.constantFrom("", "Ada", "Béatrice", "Nguyễn", "😀 Zoë", "a,b", '"q"', "line\nbreak"),
    fc.string({ maxLength: 20 }),
  );
  it("is given back as stored, cell by cell, from memory or from its temporary file", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(cellArb, { minLength: 1, maxLength: 9 }), { minLength: 1, maxLength: 300 }),
        fc.array(fc.nat(), { maxLength: 50 }),
        fc.constantFrom(64, 4096, 1 << 22),
        (users, picks, budget) => {
          const definitions = new UserDefinitions(budget);
          try {
            for (const [user, cells] of users.entries())
              definitions.put(user, user + 2, user + 3, [...cells]);
            for (const pick of [...picks, users.length - 1, 0]) {
              const user = pick % users.length;
              expect(definitions.get(user)).toEqual({ row: user + 2, line: user + 3, cells: users[user] });
            }
          } finally {
            definitions.dispose();
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
