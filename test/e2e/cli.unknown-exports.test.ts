// Exports of vendors no profile knows (fixtures/exports/unprofiled, each following the vendor's
// documented columns: SOURCES.md there), read as a new user reads them: `mapping suggest`, then
// `validate --mapping` with the suggestion as it is, then `convert --mapping` once the admin has
// decided the values left as "?". Every user's email, names, status and last-used date asserted.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { fixture } from "../support/paths.js";

const work = mkdtempSync(join(tmpdir(), "syncfile-unknown-exports-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A user as the export means it: "?" a status word the admin decides. */
type Expected = [
  email: string,
  firstName: string,
  lastName: string,
  status: "active" | "deleted" | "?",
  lastUsed?: string,
];

interface Case {
  file: string;
  /** The columns suggest must choose (null: none). */
  status: string | null;
  lastUsedDate: string | null;
  users: Expected[];
}

const CASES: Case[] = [
  {
    file: "adp-workforce-now-employees.csv",
    status: "Position Status",
    lastUsedDate: null,
    users: [
      ["ada.lovelace@example.com", "Ada", "Lovelace", "active"],
      ["jose.garcia@example.com", "José", "García Márquez", "?"],
      ["grace.hopper@example.com", "Grace", "Hopper", "deleted"],
      ["zoe.okafor@example.com", "Zoë", "Okafor", "active"],
      ["hanako.tanaka@example.com", "花子", "田中", "deleted"],
    ],
  },
  {
    file: "workday-worker-report.csv",
    status: "Active Status",
    lastUsedDate: null,
    users: [
      ["ada.lovelace@example.org", "Ada", "Lovelace", "active"],
      ["grace.hopper@example.org", "Grace", "Hopper", "deleted"],
      ["jose.ramirez@example.org", "José", "Ramírez", "active"],
      ["mia.schafer@example.org", "Mia", "Schäfer", "deleted"],
      ["zoe.okafor@example.org", "Zoë", "Okafor", "active"],
    ],
  },
  {
    file: "hibob-people.csv",
    status: "Lifecycle status",
    lastUsedDate: null,
    users: [
      ["ada.lovelace@example.com", "Ada", "Lovelace", "active"],
      ["zoe.muller@example.com", "Zoë", "Müller", "?"],
      ["grace.hopper@example.com", "Grace", "Hopper", "deleted"],
      ["jose.nunez@example.com", "José", "Ñúñez", "?"],
      ["priya.raman@example.com", "Priya", "Raman", "?"],
      ["hanako.tanaka@example.com", "花子", "田中", "active"],
    ],
  },
  {
    file: "personio-employees.csv",
    status: "Status",
    lastUsedDate: null,
    users: [
      ["ada.lovelace@example.org", "Ada", "Lovelace", "active"],
      ["joerg.weiss@example.org", "Jörg", "Weiß", "?"],
      ["grace.hopper@example.org", "Grace", "Hopper", "deleted"],
      ["zoe.okafor@example.org", "Zoë", "Okafor", "?"],
      ["jose.nunez@example.org", "José", "Ñúñez", "active"],
    ],
  },
  {
    file: "dropbox-member-data-report.csv",
    status: "Status",
    lastUsedDate: null,
    users: [
      ["ada.lovelace@example.com", "Ada", "Lovelace", "active"],
      ["zoe.okafor@example.com", "Zoë", "Okafor", "?"],
      ["grace.hopper@example.com", "Grace", "Hopper", "deleted"],
      ["jose.nunez@example.com", "José", "Ñúñez", "deleted"],
      ["hanako.tanaka@example.com", "花子", "田中", "active"],
    ],
  },
  {
    file: "zoom-users.csv",
    status: "User Status",
    lastUsedDate: "Last Login(UTC)",
    users: [
      ["ada.lovelace@example.com", "Ada", "Lovelace", "active", "2024-07-05"],
      ["zoe.okafor@example.com", "Zoë", "Okafor", "?"],
      ["grace.hopper@example.com", "Grace", "Hopper", "deleted", "2023-11-30"],
      ["jose.nunez@example.com", "José", "Ñúñez", "active", "2024-06-12"],
      ["hanako.tanaka@example.com", "花子", "田中", "active", "2024-07-01"],
    ],
  },
  {
    file: "salesforce-users-report.csv",
    status: "Active",
    lastUsedDate: "Last Login",
    users: [
      ["ada.lovelace@example.com", "Ada", "Lovelace", "active", "2024-07-05"],
      ["grace.hopper@example.com", "Grace", "Hopper", "deleted", "2023-11-30"],
      ["jose.nunez@example.com", "José", "Ñúñez", "active"],
      ["zoe.okafor@example.com", "Zoë", "Okafor", "active", "2024-06-12"],
    ],
  },
  {
    file: "asana-organization-members.csv",
    status: null,
    lastUsedDate: "Last activity date",
    users: [
      ["ada.lovelace@example.com", "Ada", "Lovelace", "active", "2024-07-05"],
      ["grace.hopper@example.com", "Grace", "Hopper", "active", "2023-11-30"],
      ["zoe.okafor@example.com", "Zoë", "Okafor", "active"],
      ["jose.nunez@example.org", "José", "Ñúñez", "active", "2024-06-12"],
      ["ingrid.bergstrom@example.com", "Ingrid", "Bergström", "active", "2024-07-01"],
    ],
  },
  {
    file: "trimble-admin-console-users.csv",
    status: "Status",
    lastUsedDate: "Last Sign-In (UTC)",
    users: [
      ["ada.lovelace@example.com", "Ada", "Lovelace", "active", "2024-07-05"],
      ["jose.nunez@example.com", "José", "Ñúñez", "active", "2024-06-12"],
      ["zoe.okafor@example.com", "pending", "", "?"],
      ["grace.hopper@example.com", "Grace", "Hopper", "active", "2023-11-30"],
      ["hanako.tanaka@example.com", "花子", "田中", "active", "2024-07-01"],
    ],
  },
  {
    file: "broadsign-users.csv",
    status: "Active",
    lastUsedDate: null,
    users: [
      ["ada.lovelace@example.com", "Ada", "Lovelace", "active"],
      ["grace.hopper@example.com", "Grace", "Hopper", "deleted"],
      ["jose.nunez@example.com", "José", "Ñúñez", "active"],
      ["zoe.okafor@example.com", "Zoë", "Okafor", "active"],
      ["mia.schafer@example.com", "Mia", "Schäfer", "deleted"],
    ],
  },
  {
    file: "hubspot-users.csv",
    status: null,
    lastUsedDate: "Last Login Date",
    users: [
      ["ada.lovelace@example.com", "Ada", "Lovelace", "active", "2024-07-05"],
      ["jose.nunez@example.com", "José", "Ñúñez", "active", "2024-06-12"],
      ["zoe.okafor@example.com", "Zoë", "Okafor", "active"],
      ["hanako.tanaka@example.com", "花子", "田中", "active", "2024-07-01"],
    ],
  },
  {
    file: "hr-report-employment.csv",
    status: "Employment",
    lastUsedDate: "Most recent login",
    users: [
      ["ada.lovelace@example.com", "Ada", "Lovelace", "active", "2024-07-05"],
      ["grace.hopper@example.com", "Grace", "Hopper", "deleted", "2024-06-27"],
      ["jose.nunez@example.com", "José", "Ñúñez", "deleted", "2024-01-30"],
      ["zoe.okafor@example.com", "Zoë", "Okafor", "?", "2024-05-02"],
      ["mia.schafer@example.com", "Mia", "Schäfer", "?"],
    ],
  },
];

/** The column a mapping field reads (its name, or its object's column). */
const columnOf = (spec: unknown): unknown =>
  spec !== null && typeof spec === "object" && !Array.isArray(spec)
    ? (spec as { column: unknown }).column
    : spec;

describe("an export no profile knows, read through mapping suggest", () => {
  it.each(CASES)("$file: suggest → validate → convert gives every user as the export means", async (c) => {
    const file = fixture(`exports/unprofiled/${c.file}`);
    const suggested = await runCli(["mapping", "suggest", file]);
    expect(suggested.code, suggested.stderr).toBe(0);
    const mapping = JSON.parse(suggested.stdout);
    expect(columnOf(mapping.status) ?? null).toBe(c.status);
    expect(columnOf(mapping.lastUsedDate) ?? null).toBe(c.lastUsedDate);
    // never a hire, start, termination, creation or activation date for the last use
    expect(String(columnOf(mapping.lastUsedDate) ?? "")).not.toMatch(
      /hire|start|termin|join|creat|activation|first/i,
    );
    // what it chose, and why, is said field by field
    expect(suggested.stderr).toMatch(/^email: ".+" \(\d+ of \d+ rows look like addresses\)$/m);
    if (c.status) expect(suggested.stderr).toContain(`status: ${JSON.stringify(c.status)} (by its`);

    // as suggested: each status word left "?" is an error at its row, and nothing else is
    const path = join(work, `${c.file}.mapping.json`);
    writeFileSync(path, suggested.stdout);
    const checked = await runCli(["validate", file, "--mapping", path, "--format", "json"]);
    const findings = JSON.parse(checked.stdout).findings as { code: string; row: number; severity: string }[];
    const undecided = c.users.flatMap((u, i) => (u[3] === "?" ? [i + 1] : []));
    expect(findings.filter((f) => f.severity === "error").map((f) => [f.code, f.row])).toEqual(
      undecided.map((row) => ["mapping.value", row]),
    );
    expect(checked.code).toBe(undecided.length > 0 ? 1 : 0);

    // decided (here: every "?" active), the file converts, each user as the export means it
    if (mapping.status) {
      for (const [value, meaning] of Object.entries(mapping.status.values)) {
        if (meaning === "?") mapping.status.values[value] = "active";
      }
    }
    writeFileSync(path, JSON.stringify(mapping));
    const out = join(work, `${c.file}.json`);
    const converted = await runCli(["convert", file, out, "--mapping", path]);
    expect(converted.code, converted.stderr).toBe(0);
    const users = JSON.parse(readFileSync(out, "utf8")).users as Record<string, string>[];
    expect(
      // no status column: no status written, which the service reads as active
      users.map((u) => [u.email, u.firstName ?? "", u.lastName ?? "", u.status ?? "active", u.lastUsedDate]),
    ).toEqual(
      c.users.map(([email, first, last, status, lastUsed]) => [
        email,
        first,
        last,
        status === "?" ? "active" : status,
        lastUsed,
      ]),
    );
  });

  it("names the columns that may hold a status when a mapping reads none", async () => {
    const file = fixture("exports/unprofiled/hibob-people.csv");
    const mapping = join(work, "no-status.json");
    writeFileSync(mapping, JSON.stringify({ name: "hibob", email: "Email", fullName: "Display name" }));
    const checked = await runCli(["validate", file, "--mapping", mapping, "--format", "json"]);
    const [none] = JSON.parse(checked.stdout).findings.filter(
      (f: { code: string }) => f.code === "mapping.status.none",
    );
    expect(none.hint).toBe(
      'column "Lifecycle status" may hold the users\' status: map it to status in a mapping of your own (syncfile mapping suggest FILE writes one)',
    );
  });

  it("reads an export's short rows when it suggests, as the mapping will read them", async () => {
    const suggested = await runCli(["mapping", "suggest", fixture("exports/short-rows.csv")]);
    expect(suggested.stderr).toContain('email: "Work email" (4 of 4 rows look like addresses)');
    expect(JSON.parse(suggested.stdout).status).toEqual({
      column: "Account state",
      values: { Enabled: "active", Disabled: "deleted" },
    });
  });

  it("writes a name the column gives as Last, First with its order, and splits it so", async () => {
    const file = fixture("exports/unprofiled/adp-workforce-now-employees.csv");
    const suggested = await runCli(["mapping", "suggest", file]);
    expect(JSON.parse(suggested.stdout).fullName).toEqual({ column: "Payroll Name", order: "last, first" });
    expect(suggested.stderr).toContain('fullName: "Payroll Name" (by its name; written "Last, First")');
  });
});
