// Regression (issue 48, item 3): two different addresses whose fingerprints collide were taken
// for one. Two addresses made to collide under the old unkeyed fingerprint (collidingEmails)
// must stay two users, on the JSON and the CSV path, in a conversion, and in a diff.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Change, diffFiles } from "../../src/diff/diffFiles.js";
import { convertFile, type Report, validateText } from "../../src/index.js";
import { collidingEmails, oldFingerprint } from "../support/collidingEmails.js";

const work = mkdtempSync(join(tmpdir(), "syncfile-emails-collision-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let a = "";
let b = "";
beforeAll(() => {
  [a, b] = collidingEmails();
}, 60_000);

const codes = (report: Report) => report.findings.map((f) => f.code);

describe("two addresses with the same old fingerprint", () => {
  it("are two addresses that collided", () => {
    expect(a).not.toBe(b);
    expect(oldFingerprint(a)).toEqual(oldFingerprint(b));
  });

  it("are two users of a JSON file, not a duplicate", () => {
    const report = validateText(JSON.stringify({ users: [{ email: a }, { email: b }] }));
    expect(codes(report)).not.toContain("user.email.duplicate");
    expect(report.valid).toBe(true);
  });

  it("make a JSON license user that is not a user unknown", () => {
    const doc = { users: [{ email: a }], licenses: [{ name: "Pro", users: [{ email: b }] }] };
    expect(codes(validateText(JSON.stringify(doc)))).toEqual(["license.user.email.unknown"]);
    // licenses before users: the license users wait for the end
    const before = { licenses: [{ name: "Pro", users: [{ email: b }] }], users: [{ email: a }] };
    expect(codes(validateText(JSON.stringify(before)))).toEqual(["license.user.email.unknown"]);
  });

  it("are two users of one license in a JSON file, not one listed twice", () => {
    const doc = {
      users: [{ email: a }, { email: b }],
      licenses: [{ name: "Pro", users: [{ email: a }, { email: b }] }],
    };
    expect(validateText(JSON.stringify(doc)).findings).toEqual([]);
  });

  it("are two users of a CSV file, each with its own licenses", async () => {
    const csv = `email,firstName,licenseName\n${a},Ann,Pro\n${b},Bob,Team\n`;
    const report = validateText(csv, { format: "csv" });
    expect(report.findings).toEqual([]);
    expect(report.stats.users).toBe(2);
    const input = join(work, "two.csv");
    const output = join(work, "two.json");
    writeFileSync(input, csv);
    expect((await convertFile(input, output)).valid).toBe(true);
    const doc = JSON.parse(readFileSync(output, "utf8"));
    expect(doc.users.map((u: { email: string }) => u.email)).toEqual([a, b]);
    expect(doc.licenses).toEqual([
      { name: "Pro", users: [{ email: a }] },
      { name: "Team", users: [{ email: b }] },
    ]);
  });

  it("are two rows of an export with a row a user, not a duplicate", () => {
    const report = validateText(`Email,First name\n${a},Ann\n${b},Bob\n`, { format: "csv" });
    expect(report.findings).toEqual([]);
    expect(report.stats.users).toBe(2);
  });

  it("are two users in a diff", async () => {
    const oldPath = join(work, "old.json");
    const newPath = join(work, "new.json");
    writeFileSync(oldPath, JSON.stringify({ users: [{ email: a }] }));
    writeFileSync(newPath, JSON.stringify({ users: [{ email: a }, { email: b }] }));
    const told: Change[] = [];
    const result = await diffFiles(oldPath, newPath, (change) => told.push(change));
    expect(result.new.valid).toBe(true);
    expect(told.map((c) => [c.kind, "email" in c ? c.email : undefined])).toEqual([["user.added", b]]);
  });
});
