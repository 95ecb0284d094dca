// Emails are equal when their addresses are (issue 48, item 3): an AddressSet's answers agree
// with a Map of the addresses in lower case, even when every fingerprint collides (a degenerate
// hash), in memory and past its budgets (compact runs, addresses on disk).

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { UserEmails } from "../../src/model/UserEmails.js";
import { AddressSet } from "../../src/spill/AddressSet.js";
import { type Fingerprinter, fingerprint, lastFingerprint } from "../../src/spill/fingerprint.js";

const own = mkdtempSync(join(tmpdir(), "syncfile-address-set-"));
beforeAll(() => {
  vi.stubEnv("TMPDIR", own);
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(own, { recursive: true, force: true });
});

/** The project's case folding of an email: ASCII folded, other letters by toLowerCase. */
const folded = (s: string) => s.toLowerCase();

/**
 * Emails over a small alphabet, in any case, some non-ASCII: many equal after folding; some
 * long, so that the addresses of a few go to disk.
 */
const emailArb = fc
  .tuple(
    fc.stringMatching(/^[aAbBéÉİ]{0,3}$/),
    fc.constantFrom("@x.com", "@X.COM", "@y.org", `@${"z".repeat(1500)}.com`),
  )
  .map(([local, domain]) => local + domain);

/** A fingerprint that collides for every two emails of one length (its case folded). */
const degenerate: Fingerprinter = (text, foldCase) => {
  lastFingerprint.h1 = (foldCase ? text.toLowerCase() : text).length;
  lastFingerprint.h2 = 7;
};

/** Operations on a set of emails: add (with a payload), has, or get. */
const opsArb = fc.array(fc.tuple(fc.constantFrom("add", "has", "get"), emailArb), { maxLength: 120 });

describe("AddressSet", () => {
  it("answers as a Map of the addresses in lower case, whatever the fingerprints, in memory and on disk", () => {
    fc.assert(
      fc.property(
        opsArb,
        fc.constantFrom<Fingerprinter>(fingerprint, degenerate),
        fc.constantFrom(1, 3, 1000),
        fc.constantFrom(16, 64, 1 << 20),
        (ops, hash, memoryKeys, addressBytes) => {
          const set = new AddressSet(memoryKeys, 0, { hash, addressBytes });
          const model = new Map<string, number>();
          try {
            ops.forEach(([op, email], i) => {
              const key = folded(email);
              if (op === "add") {
                expect(set.add(email, i)).toBe(model.get(key) ?? -1);
                if (!model.has(key)) model.set(key, i);
              } else if (op === "get") expect(set.get(email)).toBe(model.get(key) ?? -1);
              // has() is decided by the addresses while they are in memory, which they all are
              // with the largest budgets
              else if (memoryKeys === 1000 && addressBytes === 1 << 20)
                expect(set.has(email)).toBe(model.has(key));
              else if (model.has(key)) expect(set.has(email)).toBe(true);
            });
          } finally {
            set.dispose();
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(readdirSync(own)).toEqual([]);
  });

  it("tells two users apart whose fingerprints collide, past the memory budgets", () => {
    // every email of one length collides; the first ones' addresses are on disk by the end
    const emails = new UserEmails(4, 0, { hash: degenerate, addressBytes: 64 });
    const users = Array.from({ length: 300 }, (_, i) => `u${String(i).padStart(4, "0")}@x.com`);
    users.forEach((email, i) => {
      expect(emails.add(email, i)).toBe(-1);
    });
    users.forEach((email, i) => {
      expect(emails.add(email.toUpperCase(), 1000 + i)).toBe(i);
      expect(emails.has(email)).toBe(true);
    });
    emails.dispose();
    expect(readdirSync(own)).toEqual([]);
  });
});

describe("equal emails", () => {
  it("are the emails whose addresses are equal in lower case, for pairs that collide too", () => {
    fc.assert(
      fc.property(
        emailArb,
        emailArb,
        fc.constantFrom<Fingerprinter>(fingerprint, degenerate),
        (a, b, hash) => {
          const emails = new UserEmails(undefined, undefined, { hash });
          try {
            emails.add(a, 0);
            const same = folded(a) === folded(b);
            expect(emails.has(b)).toBe(same);
            expect(emails.add(b, 1)).toBe(same ? 0 : -1);
          } finally {
            emails.dispose();
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
