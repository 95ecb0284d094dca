// A diff told against the plainest reading of its rules: both files' sync-ready records in
// memory, users matched by email in lower case, license users by license name and email, each
// field compared. And the byte comparison that spares a diff the records both files have the
// same: it leaves out exactly the lines that are on both sides with the same key and bytes.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { normalizeFile } from "../../src/convert/convert.js";
import { differingLines } from "../../src/diff/compare.js";
import { type Change, diffFiles } from "../../src/diff/diffFiles.js";
import type { NormalizedLicense, NormalizedLicenseUser, NormalizedUser } from "../../src/model/normalize.js";
import { serialize } from "../support/jsonAst.js";
import { modelAst, validModelArb } from "../support/validDocument.js";

const work = mkdtempSync(join(tmpdir(), "syncfile-diff-reference-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Records {
  users: NormalizedUser[];
  licenses: NormalizedLicense[];
  holders: { license: string; holder: NormalizedLicenseUser }[];
}

/** A file's sync-ready records, all in memory. */
async function recordsOf(path: string): Promise<Records> {
  const users: NormalizedUser[] = [];
  const licenses: NormalizedLicense[] = [];
  const held: [number, NormalizedLicenseUser][] = [];
  const report = await normalizeFile(path, {
    user: (value) => users.push(value as NormalizedUser),
    license: (index, value) => {
      licenses[index] = value as NormalizedLicense;
    },
    licenseUser: (index, value) => held.push([index, value as NormalizedLicenseUser]),
    end: () => {},
  });
  expect(report.valid).toBe(true);
  const holders = held.map(([index, holder]) => ({
    license: (licenses[index] as NormalizedLicense).name,
    holder,
  }));
  return { users, licenses, holders };
}

const byKey = <T>(items: T[], key: (item: T) => string) => new Map(items.map((item) => [key(item), item]));
const keysOf = (a: Map<string, unknown>, b: Map<string, unknown>) =>
  [...new Set([...a.keys(), ...b.keys()])].sort();
const USER_FIELDS = ["id", "firstName", "lastName", "externalStatus", "roles", "lastUsedDate"] as const;

/** The changes from `old` to `now`, as the rules say, in diff's order for a single partition. */
function reference(old: Records, now: Records): Change[] {
  const changes: Change[] = [];
  const oldUsers = byKey(old.users, (u) => u.email.toLowerCase());
  const newUsers = byKey(now.users, (u) => u.email.toLowerCase());
  for (const key of keysOf(oldUsers, newUsers)) {
    const was = oldUsers.get(key);
    const is = newUsers.get(key);
    if (!was && is) changes.push({ kind: "user.added", email: is.email, user: is });
    if (was && !is) changes.push({ kind: "user.removed", email: was.email, user: was });
    if (!was || !is) continue;
    if (was.status === "active" && is.status === "deleted")
      changes.push({ kind: "user.deactivated", email: is.email });
    if (was.status === "deleted" && is.status === "active")
      changes.push({ kind: "user.reactivated", email: is.email });
    const fields = USER_FIELDS.filter((f) => JSON.stringify(was[f]) !== JSON.stringify(is[f])).map(
      (field) => ({
        field,
        from: was[field] ?? null,
        to: is[field] ?? null,
      }),
    );
    if (fields.length > 0) changes.push({ kind: "user.changed", email: is.email, fields });
  }
  const oldLicenses = byKey(old.licenses, (l) => l.name);
  const newLicenses = byKey(now.licenses, (l) => l.name);
  for (const name of keysOf(oldLicenses, newLicenses)) {
    const was = oldLicenses.get(name);
    const is = newLicenses.get(name);
    if (!was && is) changes.push({ kind: "license.added", license: name, value: is });
    if (was && !is) changes.push({ kind: "license.removed", license: name, value: was });
    if (!was || !is) continue;
    const fields = (["pricePerUser", "unassignedAmount"] as const)
      .filter((f) => was[f] !== is[f])
      .map((field) => ({ field, from: was[field] ?? null, to: is[field] ?? null }));
    if (fields.length > 0) changes.push({ kind: "license.changed", license: name, fields });
  }
  const holderKey = (h: Records["holders"][number]) => `${h.license}\u0000${h.holder.email.toLowerCase()}`;
  const oldHolders = byKey(old.holders, holderKey);
  const newHolders = byKey(now.holders, holderKey);
  for (const key of keysOf(oldHolders, newHolders)) {
    const was = oldHolders.get(key);
    const is = newHolders.get(key);
    if (!was && is) changes.push({ kind: "assignment.granted", license: is.license, email: is.holder.email });
    if (was && !is)
      changes.push({ kind: "assignment.revoked", license: was.license, email: was.holder.email });
    if (was && is && was.holder.licenseStatus !== is.holder.licenseStatus) {
      const [from, to] = [was.holder.licenseStatus, is.holder.licenseStatus];
      changes.push({ kind: "assignment.changed", license: is.license, email: is.holder.email, from, to });
    }
  }
  return changes;
}

describe("syncfile diff against its rules", () => {
  it("tells the changes the rules give, for any two valid files", async () => {
    let k = 0;
    await fc.assert(
      fc.asyncProperty(validModelArb, validModelArb, fc.boolean(), async (before, after, sameLicenses) => {
        // half the time NEW keeps OLD's licenses, in their order: what a day's export does
        const next = sameLicenses
          ? {
              ...after,
              licenses: before.licenses.map((l, i) => ({ ...l, users: after.licenses[i]?.users ?? [] })),
            }
          : after;
        const oldPath = join(work, `old-${k}.json`);
        const newPath = join(work, `new-${k++}.json`);
        writeFileSync(oldPath, serialize(modelAst(before)));
        writeFileSync(newPath, serialize(modelAst(next)));
        const told: Change[] = [];
        await diffFiles(oldPath, newPath, (change) => told.push(change));
        expect(told).toEqual(reference(await recordsOf(oldPath), await recordsOf(newPath)));
      }),
      { numRuns: 150 },
    );
  });
});

describe("differingLines", () => {
  const encode = (lines: string[]) => new TextEncoder().encode(lines.map((line) => `${line}\n`).join(""));
  // keys from a few, so that sides share them; values with a tab and non-ASCII now and then
  const line = fc
    .tuple(fc.constantFrom("a", "b", "Ab", "ä", "a\tb", "c"), fc.constantFrom("1", "2", "x\ty", "é", ""))
    .map(([key, value]) => `${key}\t${value}`);
  const side = fc.uniqueArray(line, { selector: (l) => l.slice(0, l.indexOf("\t")), maxLength: 6 });

  it("leaves out the lines on both sides with the same key and bytes, and only those", () => {
    fc.assert(
      fc.property(side, side, (old, now) => {
        const same = old.filter((l) => now.includes(l));
        const differing = differingLines(encode(old), encode(now), 1);
        expect(differing.old).toEqual(old.filter((l) => !same.includes(l)));
        expect(differing.now).toEqual(now.filter((l) => !same.includes(l)));
      }),
      { numRuns: 500 },
    );
  });

  it("reads a key up to its second tab when asked, and a line without one as all key", () => {
    const old = encode(["0\tann@x.io\tactive", "1\tbob@x.io\tactive", "2\tcy@x.io"]);
    const now = encode(["0\tann@x.io\tinactive", "1\tbob@x.io\tactive", "2\tcy@x.io"]);
    expect(differingLines(old, now, 2)).toEqual({
      old: ["0\tann@x.io\tactive"],
      now: ["0\tann@x.io\tinactive"],
    });
  });
});
