// Past the users a JSON validation keeps at hand (jsonEmails.deferPast; 512 k in use), the
// later users and the license users not among the first are compared at the end, by partitions
// on disk: the findings, their counts and the verdict must be the plain path's, whatever the
// layout (licenses before or after the users) and wherever the threshold falls; only where a
// finding decided at the end lies in the text (its line and column) is not kept.

import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { type Report, validateStream, validateText } from "../../src/index.js";
import { jsonEmails } from "../../src/pass/ValidationCore.js";
import { chunked, stream, utf8 } from "../support/chunks.js";

const defaultDeferPast = jsonEmails.deferPast;
const defaultTableKeys = jsonEmails.tableKeys;
const defaultListedPast = jsonEmails.listedPast;
afterEach(() => {
  jsonEmails.listedPast = defaultListedPast;
  jsonEmails.deferPast = defaultDeferPast;
  jsonEmails.tableKeys = defaultTableKeys;
});

const POOL = [
  "a@x.io",
  "A@x.io",
  "b@x.io",
  "ß@x.io",
  "SS@x.io",
  "é@x.io",
  "É@X.IO",
  "c@y.org",
  "not-an-email",
  "",
];
const emailArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...POOL) },
  { weight: 1, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.constant(7) },
);
const userArb = fc.record(
  {
    email: emailArb,
    id: fc.oneof(fc.constant("u1"), fc.constant(-1)),
    status: fc.constantFrom("active", "weird"),
  },
  { requiredKeys: ["email"] },
);
const licenseArb = fc.record({
  name: fc.constantFrom("Pro", "Team", "Free"),
  users: fc.array(fc.record({ email: emailArb }), { maxLength: 6 }),
});
const docArb = fc.record({
  users: fc.array(userArb, { maxLength: 9 }),
  licenses: fc.array(licenseArb, { maxLength: 3 }),
  licensesFirst: fc.boolean(),
});

type Doc = typeof docArb extends fc.Arbitrary<infer T> ? T : never;

function text({ users, licenses, licensesFirst }: Doc): string {
  const u = `"users": ${JSON.stringify(users, null, 1)}`;
  const l = `"licenses": ${JSON.stringify(licenses, null, 1)}`;
  return `{${licensesFirst ? `${l},\n${u}` : `${u},\n${l}`}}`;
}

/** The report without timing, its findings sorted, without where they lie in the text. */
function comparable(report: Report) {
  return {
    valid: report.valid,
    counts: report.counts,
    stats: { ...report.stats, durationMs: 0 },
    findings: report.findings
      .map(({ code, pointer, message, value, severity }) => ({ code, pointer, message, value, severity }))
      .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
  };
}

describe("users compared at the end (past deferPast)", () => {
  it("give the plain path's findings, counts and verdict, in any layout and for any threshold", async () => {
    await fc.assert(
      fc.asyncProperty(
        docArb,
        fc.nat(4),
        fc.nat(2),
        fc.nat(3),
        fc.integer({ min: 1, max: 64 }),
        async (doc, deferPast, tableKeys, listedPast, size) => {
          const source = text(doc);
          jsonEmails.deferPast = defaultDeferPast;
          const plain = validateText(source);
          jsonEmails.deferPast = deferPast;
          // a table of 1 or 2 keys: the 64 partitions of a few users are compared in parts
          jsonEmails.tableKeys = tableKeys === 0 ? defaultTableKeys : tableKeys;
          // and a license's users past the first 0–3 too, once users are
          jsonEmails.listedPast = listedPast;
          const deferred = await validateStream(stream(chunked(utf8(source), size)));
          expect(comparable(deferred)).toEqual(comparable(plain));
          // what is decided as records come keeps its place in the text
          for (const finding of deferred.findings) {
            const decidedAtEnd =
              (finding.code === "user.email.duplicate" || finding.code === "license.user.email.unknown") &&
              finding.line === undefined;
            if (!decidedAtEnd) continue;
            const index = Number(/^\/(?:users|licenses\/\d+\/users)\/(\d+)/.exec(finding.pointer ?? "")?.[1]);
            expect(finding.code === "user.email.duplicate" ? index >= deferPast : true).toBe(true);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("report a repeat and a stranger at the end by pointer and email, after the others, in file order", () => {
    jsonEmails.deferPast = 1;
    const report = validateText(
      JSON.stringify({
        users: [
          { email: "a@x.io" },
          { email: "b@x.io" },
          { email: "c@x.io" },
          { email: "B@X.io" },
          { email: "a@x.io" },
        ],
        licenses: [{ name: "Pro", users: [{ email: "c@x.io" }, { email: "d@x.io" }, { email: "a@x.io" }] }],
      }),
    );
    expect(
      report.findings.map(({ code, pointer, message, line }) => ({ code, pointer, message, line })),
    ).toEqual([
      // the first user is at hand: the repeat of its email is found as it comes, with its place
      {
        code: "user.email.duplicate",
        pointer: "/users/4/email",
        message: expect.stringContaining("/users/0"),
        line: 1,
      },
      {
        code: "user.email.duplicate",
        pointer: "/users/3/email",
        message: expect.stringContaining("/users/1"),
        line: undefined,
      },
      {
        code: "license.user.email.unknown",
        pointer: "/licenses/0/users/1/email",
        message: expect.stringContaining('"d@x.io"'),
        line: undefined,
      },
    ]);
    expect(report.counts.error).toBe(3);
  });

  it("count a user found at the end to repeat an email as not valid", () => {
    const source = JSON.stringify({
      users: [{ email: "a@x.io", status: "weird" }, { email: "A@x.io" }],
      licenses: [],
    });
    jsonEmails.deferPast = 0;
    const report = validateText(source);
    expect(report.findings.map((f) => f.code)).toContain("document.users.noneValid");
    jsonEmails.deferPast = defaultDeferPast;
    expect(comparable(report)).toEqual(comparable(validateText(source)));
  });
});
