// What validate accepts, the sync stores, as written: generated documents carrying the values
// that stores trip over (any code point, NUL, lone surrogates, control characters, backslashes
// and tabs, dates from year 0000 to 9999, prices up to 2^53 - 1) are validated in the library,
// then synced; a valid one syncs (200) and its users read back as they were written, an
// invalid one is refused (400) with the same findings. On both backends (the HTTP suite).

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateText } from "../../src/index.js";
import type { SyncfileServer } from "../../src/server/index.js";
import { call, removeDataDirs, startServer, upload } from "../support/server.js";

let server: SyncfileServer;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server?.close();
  await removeDataDirs();
});

/** Text as it comes out of real exports and broken tools. */
const edgeText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.string({ unit: "binary-ascii", maxLength: 8 }),
  fc.constantFrom("\u0000", "a\u0000b", "\ud800", "x\udfff", "😀", "\\N", "\\", "\t\r\n", " ", "\u2028"),
);

const edgeDate = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
  .map(
    ([y, m, d]) =>
      `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`,
  );

/** Text and dates a store takes as they are: so that some documents are valid, whatever the seed. */
const plainText = fc.string({ unit: "grapheme", maxLength: 8 });
const plainDate = edgeDate.filter((d) => !d.startsWith("0000"));

const user = (i: number, text: fc.Arbitrary<string>, date: fc.Arbitrary<string>) =>
  fc
    .record(
      {
        id: text,
        firstName: text,
        lastName: text,
        externalStatus: text,
        roles: fc.array(text, { maxLength: 2 }),
        lastUsedDate: fc.oneof(
          date,
          date.map((d) => `${d}T12:00:00Z`),
        ),
      },
      { requiredKeys: [] },
    )
    .map((fields) => ({ email: `user${i}@example.com`, status: "active", ...fields }));

const documentOf = (text: fc.Arbitrary<string>, date: fc.Arbitrary<string>) =>
  fc.record({
    users: fc.tuple(user(0, text, date), user(1, text, date), user(2, text, date)),
    licenses: fc
      .array(
        fc.record({
          name: text.filter((n) => n.length > 0),
          pricePerUser: fc.oneof(fc.constant(Number.MAX_SAFE_INTEGER), fc.nat()),
          unassignedAmount: fc.oneof(fc.constant(Number.MAX_SAFE_INTEGER), fc.nat()),
        }),
        { maxLength: 2 },
      )
      .map((licenses) =>
        licenses.map((l, i) => ({ ...l, name: `${i}${l.name}`, users: [{ email: "user0@example.com" }] })),
      ),
  });

const documentArb = fc.oneof(documentOf(edgeText, edgeDate), documentOf(plainText, plainDate));

/** A user as the service lists it back: what the file said, empty text as none, the date as a date. */
function expected(u: Record<string, unknown>) {
  const { status: _, ...fields } = u;
  const shown = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== ""));
  const date = shown.lastUsedDate as string | undefined;
  return { ...shown, ...(date ? { lastUsedDate: date.slice(0, 10) } : {}) };
}

describe("what validate accepts, the sync stores", () => {
  it("as written, whatever the text, date or price; what it refuses, the sync refuses the same way", async () => {
    let account = 7000;
    let synced = 0;
    await fc.assert(
      fc.asyncProperty(documentArb, async (document) => {
        const text = JSON.stringify(document);
        const report = validateText(text);
        const id = await upload(server.url, "edge.json", text);
        const sync = await call(server.url, "PUT", "/v1.0/services/sync/custom", {
          json: { idFile: id, idAppAccount: ++account },
        });
        if (!report.valid) {
          expect(sync.status).toBe(400);
          const refused = (sync.body.report as { findings: { code: string }[] }).findings.map((f) => f.code);
          expect(refused).toEqual(report.findings.map((f) => f.code));
          return;
        }
        expect(sync.status, sync.text).toBe(200);
        synced++;
        const users = await call(server.url, "GET", `/v1.0/appAccounts/${account}/users?limit=10`);
        expect(users.status).toBe(200);
        const listed = (users.body.users as Record<string, unknown>[]).map(({ licenses: _, ...u }) => u);
        expect(listed).toEqual(document.users.map(expected));
      }),
      { numRuns: 25 },
    );
    expect(synced).toBeGreaterThan(0); // the property looked at valid documents too
  });
});
