// Records made the CSV a job reads: nested fields by path, lists in the list layout, columns in
// the order they first appear; the mapping records with the service's names get; a Link
// header's next page; and the record sources as a job file writes them, their secrets known to
// the redaction and their mistakes at their place.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { JobFileError, readJobText } from "../../src/jobs/readJobFile.js";
import { linkNext } from "../../src/sources/jsonApi.js";
import { recordsMapping } from "../../src/sources/recordsMapping.js";
import { scimUser } from "../../src/sources/scim.js";
import { cellOf, flatten, writeRecords } from "../../src/sources/writeRecords.js";
import { redactText } from "../../src/text/redact.js";

const dir = mkdtempSync(join(tmpdir(), "syncfile-records-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function* of(records: Record<string, unknown>[]) {
  yield* records;
}

describe("records as CSV", () => {
  it("names nested fields by path, and writes lists, dates and nothing as the layout reads them", () => {
    expect(
      flatten({
        id: 7,
        profile: { email: "a@x.io", name: { first: "Ada" } },
        roles: ["admin", "billing"],
        odd: ["a,b", "c"],
        active: false,
        seen: new Date("2026-11-01T09:30:00Z"),
        none: null,
        emails: [{ value: "a@x.io" }],
      }),
    ).toEqual({
      id: "7",
      "profile.email": "a@x.io",
      "profile.name.first": "Ada",
      roles: "admin; billing",
      odd: '["a,b","c"]',
      active: "false",
      seen: "2026-11-01T09:30:00.000Z",
      none: "",
      emails: '[{"value":"a@x.io"}]',
    });
    expect(cellOf(undefined)).toBe("");
  });

  it("gathers the columns of every record, in the order they first appear", async () => {
    const target = join(dir, "a.csv");
    const written = await writeRecords(
      of([{ email: "a@x.io" }, { email: "b@x.io", firstName: "Bo" }, { active: true, email: "c@x.io" }]),
      target,
    );
    expect(written).toMatchObject({ records: 3, columns: ["email", "firstName", "active"] });
    expect(readFileSync(target, "utf8")).toBe("email,firstName,active\na@x.io,,\nb@x.io,Bo,\nc@x.io,,true\n");
    expect(written.bytes).toBe(readFileSync(target).length);
  });
});

describe("records with the service's names", () => {
  it("reads what is there, as it is written, and active as the status", () => {
    expect(recordsMapping(["EMAIL", "first_name", "last-name", "active", "department"])).toMatchObject({
      email: "EMAIL",
      firstName: "first_name",
      lastName: "last-name",
      status: { column: "active", values: { t: { status: "active" }, f: { status: "deleted" } } },
    });
    expect(recordsMapping(["mail", "name"])).toBeNull();
  });

  it("takes a SCIM user's primary address, else its first work one", () => {
    const user = (emails: unknown) => scimUser({ id: "1", userName: "ada", emails }).email;
    expect(
      user([
        { value: "h@x.io", type: "home" },
        { value: "w@x.io", type: "work", primary: true },
      ]),
    ).toBe("w@x.io");
    expect(
      user([
        { value: "h@x.io", type: "home" },
        { value: "w@x.io", type: "work" },
      ]),
    ).toBe("w@x.io");
    expect(user([{ value: "h@x.io", type: "home" }])).toBe("h@x.io");
    expect(user(undefined)).toBeUndefined();
  });
});

it("finds a Link header's next page", () => {
  const header = '<https://api.x.io/users?page=3>; rel="next", <https://api.x.io/users?page=1>; rel="first"';
  expect(linkNext(header, "https://api.x.io/users?page=2")).toBe("https://api.x.io/users?page=3");
  expect(linkNext('</users?after=9>; rel="prev next"', "https://api.x.io/users")).toBe(
    "https://api.x.io/users?after=9",
  );
  expect(linkNext('<https://api.x.io/users?page=1>; rel="first"', "https://api.x.io")).toBeNull();
  expect(linkNext(null, "https://api.x.io")).toBeNull();
});

describe("record sources in a job file", () => {
  const job = (source: string) =>
    `jobs:\n  - name: a\n    source: ${source}\n    service: { url: "https://api.example.com", apiKey: k-123456, appAccount: 1 }\n`;
  const read = (source: string, env: NodeJS.ProcessEnv = {}) =>
    readJobText(job(source), join(dir, "a.yaml"), { env })[0];

  it("reads each, its secrets redacted from then on", () => {
    expect(
      read('{ sql: { url: "${DB}", query: "SELECT email FROM people" } }', {
        DB: "postgres://app:pw-771199@db/app",
      })?.source,
    ).toEqual({
      kind: "sql",
      url: "postgres://app:pw-771199@db/app",
      password: null,
      query: "SELECT email FROM people",
      tls: null,
    });
    expect(redactText("connect postgres://app:pw-771199@db/app failed: pw-771199")).not.toContain(
      "pw-771199",
    );
    expect(
      read('{ scim: { url: "https://app.x.io/scim/v2", token: "${T}" } }', { T: "scim-7788991" })?.source,
    ).toEqual({
      kind: "scim",
      url: "https://app.x.io/scim/v2",
      token: "scim-7788991",
      filter: null,
      pageSize: 100,
    });
    expect(redactText("Bearer scim-7788991")).not.toContain("scim-7788991");
    expect(
      read("{ http: { url: https://api.x.io/users, records: data, next: { offset: skip, limit: 50 } } }")
        ?.source,
    ).toEqual({
      kind: "json-api",
      url: "https://api.x.io/users",
      headers: {},
      records: "data",
      next: { kind: "offset", param: "skip", limit: 50, limitParam: "limit" },
    });
    expect(read('{ s3: "s3://exports/people/", settle: 10 }')?.source).toEqual({
      kind: "s3",
      url: "s3://exports/people/",
      settleSeconds: 10,
    });
  });

  it("says a source's mistake at its place", () => {
    const problems = (source: string) => {
      try {
        read(source);
      } catch (error) {
        if (error instanceof JobFileError)
          return error.problems.map((p) => `${p.line}:${p.column}: ${p.message}`);
        throw error;
      }
      return [];
    };
    expect(problems('{ sql: { url: "mysql://db/app" } }')[0]).toMatch(
      /^3:\d+: error: jobs\[0\]\.source\.sql/,
    );
    expect(problems("{ http: { url: https://api.x.io, next: link } }")[0]).toMatch(
      /^3:\d+: error: jobs\[0\]\.source\.http/,
    );
    expect(problems('{ s3: "s3://b/k", command: [ls] }')[0]).toMatch(/^3:\d+: error: jobs\[0\]\.source/);
  });
});
