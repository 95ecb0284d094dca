// Valid data files as syntax trees: every rule holds (unique emails and license names,
// license users among the users). Strings carry what breaks naive tools: commas, quotes,
// newlines, semicolons, a leading "=", non-ASCII. Some warnings are allowed on purpose.

import fc from "fast-check";
import { type Ast, arr, type Entry, num, obj, str } from "./jsonAst.js";

/** Free text as it appears in names and roles. */
export const nastyText = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.constantFrom(
    "O'Brien, Jr.",
    'say "hi"',
    "two\nlines",
    "a;b",
    "=SUM(A1:A2)",
    "+1",
    "-x",
    "@home",
    "\tTab",
    "Zoë Ñúñez",
    "李小龍",
    "😀",
  ),
);

/** Items of a list cell (roles), with what separates or is trimmed when a cell is read. */
const listItem = fc.oneof(
  nastyText,
  fc.constantFrom("Admin, Billing", "Pro; Viewer", " padded ", "", "[bracket]", "a,b;c", ","),
);

/** The model behind a valid document, before it is written as JSON. */
export interface ValidModel {
  users: { email: string; fields: Entry[] }[];
  licenses: { name: string; fields: Entry[]; users: { email: string; fields: Entry[] }[] }[];
  licensesFirst: boolean;
}

const dateArb = fc
  .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2030-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

const userFields = fc.record(
  {
    id: fc.string({ maxLength: 8 }).map(str),
    firstName: nastyText.map(str),
    lastName: nastyText.map(str),
    status: fc.constantFrom("active", "deleted").map(str),
    externalStatus: nastyText.map(str),
    roles: fc.array(listItem.map(str), { maxLength: 3 }).map(arr),
    lastUsedDate: dateArb.map(str),
  },
  { requiredKeys: [] },
);

/** A valid document model: n users with unique emails, licenses that reference them. */
export const validModelArb: fc.Arbitrary<ValidModel> = fc
  .integer({ min: 1, max: 6 })
  .chain((n) =>
    fc.record({
      users: fc.tuple(
        ...Array.from({ length: n }, (_, i) =>
          fc.tuple(
            fc.constantFrom(`user${i}@example.com`, `User${i}@Example.com`, `u.${i}+tag@sub.example.org`),
            userFields,
          ),
        ),
      ),
      licenses: fc.array(
        fc.record({
          suffix: fc.string({ maxLength: 6 }),
          price: fc.option(fc.nat(1_000_000), { nil: undefined }),
          unassigned: fc.option(fc.nat(50), { nil: undefined }),
          holders: fc.subarray(Array.from({ length: n }, (_, i) => i)),
          statuses: fc.array(
            fc.option(fc.constantFrom("active", "inactive", "deleted"), { nil: undefined }),
            {
              minLength: n,
              maxLength: n,
            },
          ),
        }),
        { maxLength: 3 },
      ),
      licensesFirst: fc.boolean(),
    }),
  )
  .map(({ users, licenses, licensesFirst }) => ({
    licensesFirst,
    users: users.map(([email, fields]) => ({
      email,
      fields: Object.entries(fields).map(([k, v]): Entry => [k, v as Ast]),
    })),
    licenses: licenses.map((l, li) => {
      const fields: Entry[] = [];
      if (l.price !== undefined) fields.push(["pricePerUser", num(l.price)]);
      if (l.unassigned !== undefined) fields.push(["unassignedAmount", num(l.unassigned)]);
      return {
        name: `Plan ${li}${l.suffix}`,
        fields,
        users: l.holders.map((i) => {
          const status = l.statuses[i];
          const email = users[i]?.[0] ?? "";
          return { email, fields: status ? ([["licenseStatus", str(status)]] as Entry[]) : [] };
        }),
      };
    }),
  }));

/** The model as a syntax tree. */
export function modelAst(model: ValidModel): Ast {
  const users = arr(model.users.map((u) => obj([["email", str(u.email)], ...u.fields])));
  const licenses = arr(
    model.licenses.map((l) =>
      obj([
        ["name", str(l.name)],
        ...l.fields,
        ["users", arr(l.users.map((u) => obj([["email", str(u.email)], ...u.fields])))],
      ]),
    ),
  );
  const entries: Entry[] = [
    ["users", users],
    ["licenses", licenses],
  ];
  return obj(model.licensesFirst ? entries.reverse() : entries);
}
