// Exports read through the built-in profiles: each fixture (made from the vendor's documented
// columns, with its disabled and never-signed-in users, a row without an email, an email
// repeated in another case, non-ASCII names and a list column) picks its profile by its header,
// reports exactly its findings where they are, and converts to its expected document; the same
// rows as a workbook do the same, in their cells. Mapping documents of one's own, and their
// mistakes at their line and column. A file in the service's layout is read the same with or
// without detection.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { convertFile, JsonWriter, pipeDocument, type Report, validateFile } from "../../src/index.js";
import { mappingProblems } from "../../src/mapping/checkMapping.js";
import type { MappingDocument } from "../../src/mapping/MappingDocument.js";
import { detectProfile, PROFILES } from "../../src/mapping/profiles.js";
import { MappingError, readMapping } from "../../src/mapping/readMapping.js";
import { CANONICAL_COLUMNS } from "../../src/schema/csvColumns.js";
import { chunked, stream, utf8 } from "../support/chunks.js";
import { csvOf } from "../support/csvText.js";
import { handWorkbook } from "../support/handWorkbook.js";
import { fixture } from "../support/paths.js";
import { validModelArb } from "../support/validDocument.js";

const scratch = mkdtempSync(join(tmpdir(), "syncfile-profiles-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Found = [code: string, row: number | undefined, line: number | undefined, field: string | undefined];

// every finding of each export, with its row, line and column (the export's own header name)
const EXPECTED: Record<string, Found[]> = {
  "google-workspace": [
    ["csv.row.user", 4, 5, "First Name [Required]"],
    ["user.email.duplicate", 5, 6, "Email Address [Required]"],
  ],
  // the people report (Primary email, Groups); the Password Health report is pushed in cli.client.test.ts
  okta: [
    ["csv.row.user", 5, 6, "First name"],
    ["user.email.duplicate", 6, 7, "Primary email"],
  ],
  "entra-id": [
    ["csv.row.user", 4, 5, "id"],
    ["user.email.duplicate", 5, 6, "mail"],
  ],
  "microsoft-365": [
    ["csv.row.user", 4, 5, "Object Id"],
    ["user.email.duplicate", 5, 6, "User principal name"],
    ["license.user.duplicate", 5, 6, "User principal name"],
  ],
  jumpcloud: [
    ["csv.row.user", 4, 5, "_id"],
    ["user.email.duplicate", 5, 6, "email"],
  ],
  bamboohr: [
    ["csv.row.user", 4, 5, "First Name"],
    ["user.email.duplicate", 5, 6, "Work Email"],
  ],
  slack: [
    ["csv.row.user", 5, 6, "userid"],
    ["user.email.duplicate", 6, 7, "email"],
  ],
  "github-org": [
    ["mapping.status.none", 0, 1, undefined],
    ["csv.row.user", 3, 4, "login"],
    ["user.email.duplicate", 5, 6, "email"],
    ["license.user.duplicate", 5, 6, "email"],
  ],
  atlassian: [
    ["csv.row.user", 4, 5, "User id"],
    ["user.email.duplicate", 5, 6, "email"],
    ["license.user.duplicate", 5, 6, "email"],
  ],
  // the service's own layout with a column of its own (a custom field), which makes it the
  // profile's: a user's rows add up (ADA@ on row 5 is the user of row 1, and disagrees)
  "torii-sheets": [
    ["csv.row.user", 4, 5, "Id"],
    ["csv.user.conflict", 5, 6, "Id"],
    ["csv.user.conflict", 5, 6, "Name"],
  ],
  // the CSV a job's scim source writes (src/sources/scim.ts)
  scim: [
    ["csv.row.user", 4, 5, "id"],
    ["user.email.duplicate", 5, 6, "email"],
  ],
  // an ldap source's records as writeRecords writes them (a list of DNs holding commas as JSON)
  "active-directory": [
    ["csv.row.user", 4, 5, "objectGUID"],
    ["user.email.duplicate", 5, 6, "mail"],
  ],
  ldap: [
    ["csv.row.user", 4, 5, "uid"],
    ["user.email.duplicate", 5, 6, "mail"],
  ],
};

// rows each profile leaves out (Slack's bots)
const EXCLUDED: Record<string, number> = { slack: 1 };

const found = (report: Report): Found[] => report.findings.map((f) => [f.code, f.row, f.line, f.field]);

describe("the built-in profiles", () => {
  it("has a fixture for each profile, and each profile is a mapping document with its detect names", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(PROFILES.map((p) => p.name).sort());
    for (const profile of PROFILES) {
      expect(mappingProblems(profile), profile.name).toEqual([]);
      expect(profile.detect?.length, profile.name).toBeGreaterThan(0);
    }
  });

  it.each(Object.keys(EXPECTED))("%s: picked by its header, every finding where it is", async (name) => {
    const report = await validateFile(fixture(`exports/${name}.csv`));
    expect(report.mapping).toMatchObject({ name, how: "detected", rowsExcluded: EXCLUDED[name] ?? 0 });
    expect(found(report)).toEqual(EXPECTED[name]);
    expect(report.valid).toBe(false);
  });

  it.each(Object.keys(EXPECTED))("%s: converts to the document the export means", async (name) => {
    const out = join(scratch, `${name}.json`);
    const report = await convertFile(fixture(`exports/${name}.csv`), out, { to: "json", force: true });
    expect(report.output?.written).toBe(true);
    const expected = JSON.parse(readFileSync(fixture(`exports/${name}.expected.json`), "utf8"));
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(expected);
  });

  it("reads disabled users as deleted with their own status kept, and never-signed-in users without a date", () => {
    const google = JSON.parse(readFileSync(fixture("exports/google-workspace.expected.json"), "utf8"));
    expect(google.users[1]).toMatchObject({ status: "deleted", externalStatus: "Suspended" });
    expect(google.users[2].lastUsedDate).toBeUndefined(); // Never logged in
    const m365 = JSON.parse(readFileSync(fixture("exports/microsoft-365.expected.json"), "utf8"));
    expect(m365.users[1]).toMatchObject({ status: "deleted", externalStatus: "Sign-in blocked" });
    // the + list split, Unlicensed no license
    expect(m365.licenses.map((l: { name: string }) => l.name)).toEqual([
      "Microsoft 365 E3",
      "Microsoft Power BI Pro",
      "Visio Plan 2",
    ]);
  });

  it("is forced with --profile, and none reads the service's layout only", async () => {
    const forced = await validateFile(fixture("exports/okta.csv"), { profile: "okta" });
    expect(forced.mapping).toMatchObject({ name: "okta", how: "profile" });
    const none = await validateFile(fixture("exports/okta.csv"), { profile: "none" });
    expect(none.mapping).toBeUndefined();
    expect(none.findings[0]?.code).toBe("csv.header.missing");
    await expect(validateFile(fixture("exports/okta.csv"), { profile: "nope" })).rejects.toThrow(
      /profile must be one of google-workspace, .* or none, got nope/,
    );
  });
});

describe("an export as a workbook", () => {
  /** The CSV fixture's rows as a workbook's inline strings, cell by cell. */
  const workbookOf = (name: string): string => {
    const rows = readFileSync(fixture(`exports/${name}.csv`), "utf8")
      .trimEnd()
      .split("\n")
      .map(splitCsv);
    const xml = rows.map(
      (cells, r) =>
        `<row r="${r + 1}">${cells
          .map((text, c) =>
            text === ""
              ? ""
              : `<c r="${letters(c)}${r + 1}" t="inlineStr"><is><t>${escapeXml(text)}</t></is></c>`,
          )
          .join("")}</row>`,
    );
    const path = join(scratch, `${name}.xlsx`);
    writeFileSync(path, handWorkbook({ rows: xml.join("") }));
    return path;
  };

  // one workbook per family: Google, Microsoft, an HR system, Atlassian
  it.each(["google-workspace", "microsoft-365", "bamboohr", "atlassian"])(
    "%s: the same findings, in their cells, and the same document",
    async (name) => {
      const path = workbookOf(name);
      const report = await validateFile(path);
      expect(report.mapping).toMatchObject({ name, how: "detected" });
      const header = splitCsv(readFileSync(fixture(`exports/${name}.csv`), "utf8").split("\n")[0] as string);
      expect(report.findings.map((f) => [f.code, f.row, f.field])).toEqual(
        EXPECTED[name]?.map(([code, row, , field]) => [
          code,
          row === 0 ? undefined : (row as number) + 1,
          field,
        ]),
      );
      for (const f of report.findings) {
        if (f.row === undefined || f.field === undefined) continue;
        expect(f.cell).toBe(`Users!${letters(header.indexOf(f.field))}${f.row}`);
      }
      const out = join(scratch, `${name}.xlsx.json`);
      await convertFile(path, out, { to: "json", force: true });
      const expected = JSON.parse(readFileSync(fixture(`exports/${name}.expected.json`), "utf8"));
      expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(expected);
    },
  );
});

describe("a mapping of one's own", () => {
  const hr: MappingDocument = {
    name: "hr",
    title: "Our HR system",
    email: ["Work mail", "Private mail"],
    fullName: "Employee",
    status: {
      column: "State",
      values: { Employed: "active", "Left*": { status: "deleted", externalStatus: "Left" } },
    },
    roles: { column: "Teams", separator: "|" },
    lastUsedDate: { column: "Last seen", forms: ["DD.MM.YYYY"], never: ["-"] },
    licenseColumns: [{ column: "Has Figma", license: "Figma", grants: ["yes"] }],
    license: "HR portal",
    exclude: [{ column: "Kind", values: ["service account"] }],
  };
  const csv =
    "Employee,Work mail,Private mail,State,Teams,Last seen,Has Figma,Kind\n" +
    "Ada Lovelace,ada@example.com,,Employed,Eng|Ops,05.07.2024,Yes,person\n" +
    "Grace Hopper,,grace@example.org,Left 2023,Navy,-,no,person\n" +
    "Backup Bot,backup@example.com,,Employed,,,,Service Account\n" +
    "Alan Turing,alan@example.com,,On sabbatical,,31.02.2024,,person\n";

  it("maps each field, value table, date form, list, license and exclusion as it says", async () => {
    const path = join(scratch, "hr.csv");
    writeFileSync(path, csv);
    const out = join(scratch, "hr.json");
    const report = await convertFile(path, out, { to: "json", force: true, mapping: hr });
    expect(report.mapping).toEqual({
      name: "hr",
      title: "Our HR system",
      how: "file",
      rowsExcluded: 1,
      columnsIgnored: [],
    });
    expect(found(report)).toEqual([
      ["mapping.value", 4, 5, "State"],
      ["mapping.date", 4, 5, "Last seen"],
    ]);
    expect(report.findings[0]?.message).toBe(
      '"On sabbatical" is not a value the mapping knows here; it knows "Employed", "Left*"',
    );
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual({
      users: [
        {
          email: "ada@example.com",
          firstName: "Ada",
          lastName: "Lovelace",
          status: "active",
          externalStatus: "Employed",
          roles: ["Eng", "Ops"],
          lastUsedDate: "2024-07-05",
        },
        {
          email: "grace@example.org",
          firstName: "Grace",
          lastName: "Hopper",
          status: "deleted",
          externalStatus: "Left",
          roles: ["Navy"],
        },
        { email: "alan@example.com", firstName: "Alan", lastName: "Turing" },
      ],
      licenses: [
        {
          name: "HR portal",
          users: [
            { email: "ada@example.com" },
            { email: "grace@example.org" },
            { email: "alan@example.com" },
          ],
        },
        { name: "Figma", users: [{ email: "ada@example.com" }] },
      ],
    });
  });

  it("finds the header under a preamble, or at the row it names; says so when it is nowhere", async () => {
    const path = join(scratch, "preamble.csv");
    writeFileSync(path, "Report of users\nGenerated 2024-07-05\n\nMail,State\nada@example.com,Employed\n");
    const pre: MappingDocument = {
      name: "pre",
      email: "Mail",
      status: { column: "State", values: { Employed: "active" } },
    };
    for (const mapping of [pre, { ...pre, headerRow: 3 }]) {
      const report = await validateFile(path, { mapping });
      expect(found(report)).toEqual([]);
      expect(report.stats.users).toBe(1);
    }
    const nowhere = await validateFile(path, { mapping: { ...pre, email: "Work mail" } });
    expect(found(nowhere)).toEqual([["mapping.header", 0, 1, undefined]]);
    expect(nowhere.findings[0]?.message).toBe(
      'no header in the first 50 rows has "Work mail", the email column of the mapping pre',
    );
    const past = await validateFile(path, { mapping: { ...pre, headerRow: 9 } });
    expect(past.findings[0]?.message).toBe(
      'no header in row 9 has "Mail", the email column of the mapping pre',
    );
  });

  it("says each mistake at its line and column in the mapping document", () => {
    const text = `{
  "name": "HR export",
  "email": "Work mail",
  "status": { "column": "State", "values": { "Employed": "working" } },
  "lastUsedDate": { "column": "Last seen", "forms": ["DD.MM.YY"] },
  "nickname": "Nick"
}
`;
    let error: unknown;
    try {
      readMapping(text, "hr.json");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MappingError);
    const problems = (error as MappingError).problems.map((p) => [p.line, p.column, p.message]);
    expect(problems).toEqual([
      [2, 3, "name must be a name of lower-case letters, digits and '-', e.g. \"hr-export\""],
      [
        4,
        46,
        'status.values.Employed must be "active", "deleted" or "?" (not decided yet), or {"status": "deleted", "externalStatus": "Blocked"}',
      ],
      [
        5,
        54,
        'lastUsedDate.forms[0] must be a date form of YYYY, MM or M or MMM, DD or D and the separators . / , - or space: "YYYY/MM/DD", "DD MMM YYYY", "M/D/YYYY"',
      ],
      [6, 3, expect.stringMatching(/^nickname is not a field of a mapping here; a mapping has name, title/)],
    ]);
    expect(() => readMapping('{"name": "x", ', "x.json")).toThrow(/x\.json:1:15: the mapping is not JSON/);
  });
});

describe("a file in the service's layout", () => {
  const toJson = async (csv: string, options: { profile?: string }) => {
    let text = "";
    const writer = new JsonWriter((s) => {
      text += s;
    });
    const report = await pipeDocument(stream(chunked(utf8(csv), 97)), writer, { format: "csv", ...options });
    return { text, findings: report.findings, mapping: report.mapping };
  };

  it("reads byte for byte the same with profiles detected and with none", async () => {
    await fc.assert(
      fc.asyncProperty(validModelArb, async (model) => {
        const csv = await csvOf(model);
        const detected = await toJson(csv, {});
        expect(detected.mapping).toBeUndefined();
        expect(detected).toEqual(await toJson(csv, { profile: "none" }));
      }),
      { numRuns: 100 },
    );
  });

  it("names no profile, whatever its columns and their spelling", () => {
    const names = [
      ...CANONICAL_COLUMNS,
      "licenses",
      "Licenses",
      "Name",
      "Full name",
      "Display name",
      "License",
    ];
    fc.assert(
      fc.property(fc.subarray(names), (header) => {
        expect(detectProfile(header)).toBeNull();
      }),
    );
  });
});

/** The cells of one CSV line of a fixture (quotes around a cell, "" inside). */
function splitCsv(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      cells.push(cell);
      cell = "";
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

/** A column's letters: 0 → A, 26 → AA. */
function letters(column: number): string {
  let n = column + 1;
  let out = "";
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
