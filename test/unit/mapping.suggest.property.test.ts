// mapping suggest on exports generated with real header spellings, in any column order, with
// other people's names and addresses, hire and termination dates and a US "State" beside the
// user's own: it finds the email, name, status and last-used columns, and never takes a date
// that is not a last use for one.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MappingSuggester } from "../../src/mapping/MappingSuggester.js";

const EMAIL = [
  "Email",
  "E-mail",
  "Work Email",
  "Email Address",
  "Work e-mail address",
  "Primary Email",
  "mail",
  "Business Email",
  "emailAddress",
  "Email - Primary Work",
  "Work Contact: Work Email",
];
const WHOLE = [
  "Name",
  "Full Name",
  "Display Name",
  "Employee",
  "Employee Name",
  "Associate",
  "Person",
  "Legal name",
  "Team member",
  "Worker",
  "fullName",
  "Full Name (Last, First)",
];
const SPLIT: [string, string][] = [
  ["First Name", "Last Name"],
  ["Given name", "Surname"],
  ["firstName", "lastName"],
  ["First", "Last"],
  ["Legal First Name", "Legal Last Name"],
  ["Forename", "Family name"],
];
/** Status columns and the words each holds. */
const STATUS: [string, readonly string[]][] = [
  ["Status", ["Active", "Terminated", "Leave of absence", "Suspended"]],
  ["Employee Status", ["Employed", "Terminated", "Separated", "Sabbatical"]],
  ["Account state", ["Active", "Disabled", "Pending", "Archived"]],
  ["Worker state", ["Employed", "Offboarded", "Pre-hire", "On leave"]],
  ["Employment Status", ["Active", "Inactive", "Leave", "Terminated"]],
  ["User Status", ["active", "deactivated", "invited"]],
  ["Lifecycle status", ["Employed", "Terminated", "Hired", "Garden leave"]],
  ["Is Enabled", ["Yes", "No"]],
  ["Active", ["TRUE", "FALSE"]],
  ["accountEnabled", ["True", "False"]],
  // a column whose name says nothing: known by its words alone
  ["Employment", ["Employed", "Terminated", "Sabbatical"]],
];
const LAST_USE = [
  "Last login",
  "Last sign-on",
  "Last sign-in time",
  "Most recent login",
  "Latest activity",
  "Last seen",
  "Last Login Date",
  "lastLoginTime",
  "Last active",
  "Last activity date",
  "Last accessed",
  "Last Sign-In (UTC)",
];
const NOT_A_USE = [
  "Hire Date",
  "Start Date",
  "Termination Date",
  "Date of hire",
  "Original Hire Date",
  "Term Date",
  "Date of Birth",
  "Created",
  "Last Status Change",
  "Activation date",
  "Join date",
  "First login",
  "Last Day of Work",
  "Contract end date",
];
/** Date forms, each with how it writes a day. */
const FORMS: [string, (y: number, m: number, d: number) => string][] = [
  ["YYYY-MM-DD", (y, m, d) => `${y}-${pad(m)}-${pad(d)}`],
  ["M/D/YYYY", (y, m, d) => `${m}/${d}/${y}`],
  ["D.M.YYYY", (y, m, d) => `${d}.${m}.${y}`],
  ["D MMM YYYY", (y, m, d) => `${d} ${MONTHS[m - 1]} ${y}`],
  ["ISO time", (y, m, d) => `${y}-${pad(m)}-${pad(d)}T08:15:00Z`],
];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");
const GIVEN = ["Ada", "Grace", "José", "Zoë", "Hanako", "Ingrid", "Priya", "Mia", "Jean-Luc", "Seán"];
const FAMILY = ["Lovelace", "Hopper", "Ñúñez", "Okafor", "Tanaka", "Bergström", "O'Brien", "van der Berg"];

const person = fc.record({ given: fc.constantFrom(...GIVEN), family: fc.constantFrom(...FAMILY) });
const day = fc.record({
  y: fc.integer({ min: 2015, max: 2025 }),
  m: fc.integer({ min: 1, max: 12 }),
  d: fc.integer({ min: 1, max: 28 }),
});

const exports = fc
  .record({
    email: fc.constantFrom(...EMAIL),
    name: fc.oneof(fc.constantFrom(...WHOLE), fc.constantFrom(...SPLIT)),
    commaNames: fc.boolean(),
    status: fc.constantFrom(...STATUS),
    lastUse: fc.constantFrom(...LAST_USE),
    others: fc.shuffledSubarray(NOT_A_USE, { minLength: 1, maxLength: 3 }),
    form: fc.constantFrom(...FORMS),
    noise: fc.shuffledSubarray(
      ["Department", "Job Title", "State", "Employee ID", "Manager", "Personal Email"],
      {
        minLength: 0,
        maxLength: 6,
      },
    ),
    users: fc.array(
      fc.record({
        who: person,
        manager: person,
        status: fc.nat(),
        lastUse: fc.option(day, { nil: null, freq: 4 }),
        dates: fc.array(day, { minLength: 3, maxLength: 3 }),
      }),
      { minLength: 3, maxLength: 15 },
    ),
    order: fc.infiniteStream(fc.nat()),
  })
  .map((e) => {
    const [formName, write] = e.form;
    const [statusName, words] = e.status;
    const columns: { name: string; cell: (u: (typeof e.users)[number], i: number) => string }[] = [
      { name: e.email, cell: (u, i) => `${u.who.given}.${i}@example.com` },
      { name: statusName, cell: (u, i) => words[i === 0 ? 0 : u.status % words.length] as string },
      { name: e.lastUse, cell: (u) => (u.lastUse ? write(u.lastUse.y, u.lastUse.m, u.lastUse.d) : "") },
      ...e.others.map((name, k) => ({
        name,
        cell: (u: (typeof e.users)[number]) => {
          const date = u.dates[k] as { y: number; m: number; d: number };
          return write(date.y, date.m, date.d);
        },
      })),
    ];
    const whole = (u: (typeof e.users)[number]) =>
      e.commaNames ? `${u.who.family}, ${u.who.given}` : `${u.who.given} ${u.who.family}`;
    if (typeof e.name === "string") columns.push({ name: e.name, cell: whole });
    else {
      columns.push({ name: e.name[0], cell: (u) => u.who.given });
      columns.push({ name: e.name[1], cell: (u) => u.who.family });
    }
    const noise: Record<string, (u: (typeof e.users)[number], i: number) => string> = {
      Department: (_, i) => ["Sales", "Engineering", "People"][i % 3] as string,
      "Job Title": (_, i) => ["Engineer", "Account Executive", "Recruiter"][i % 3] as string,
      State: (_, i) => ["CA", "NY", "TX"][i % 3] as string,
      "Employee ID": (_, i) => String(10_000 + i),
      Manager: (u) => `${u.manager.given} ${u.manager.family}`,
      "Personal Email": (u, i) => `${u.manager.given}${i}@example.org`,
    };
    for (const name of e.noise) columns.push({ name, cell: noise[name] as (typeof columns)[number]["cell"] });
    // the columns in a random order
    const keys = columns.map((c, i) => ({ c, key: e.order.next().value as number, i }));
    keys.sort((a, b) => a.key - b.key || a.i - b.i);
    const shuffled = keys.map((k) => k.c);
    return {
      spec: e,
      formName,
      header: shuffled.map((c) => c.name),
      rows: e.users.map((u, i) => shuffled.map((c) => c.cell(u, i))),
    };
  });

const columnOf = (spec: unknown): unknown =>
  spec !== null && typeof spec === "object" && !Array.isArray(spec)
    ? (spec as { column: unknown }).column
    : spec;

describe("mapping suggest on generated exports with real header spellings", () => {
  it("finds the email, name, status and last-used columns, and no other date is a last use", () => {
    fc.assert(
      fc.property(exports, ({ spec, header, rows }) => {
        const suggester = new MappingSuggester({ everyColumn: false });
        suggester.header(header);
        for (const row of rows) suggester.row(row);
        const { document, usable } = suggester.suggest("generated");
        expect(usable).toBe(true);
        expect(document.email).toBe(spec.email);
        if (typeof spec.name === "string") {
          expect(columnOf(document.fullName)).toBe(spec.name);
          const order = (document.fullName as { order?: string }).order;
          expect(order ?? "first last").toBe(spec.commaNames ? "last, first" : "first last");
        } else {
          expect([document.firstName, document.lastName]).toEqual(spec.name);
        }
        expect(columnOf(document.status)).toBe(spec.status[0]);
        const date = columnOf(document.lastUsedDate);
        expect(spec.others).not.toContain(date);
        // a column of last uses left all empty is still taken by its name; one with dates, always
        if (spec.users.some((u) => u.lastUse !== null)) expect(date).toBe(spec.lastUse);
      }),
      { numRuns: 300 },
    );
  });
});
