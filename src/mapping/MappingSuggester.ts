// A starting mapping for an export no profile knows, from its header and its rows: each field's
// column found by name (and its alternates: mail, userPrincipalName, Last login…) and the email
// column by content too (the one whose cells look like addresses); the distinct values of the
// status column, the ones whose meaning is plain mapped and the others listed for the admin;
// the form of the dates, and the texts that mean none. Fed row by row: any size of file.

import { DateForms } from "./dates.js";
import type { MappingDocument, StatusMeaning } from "./MappingDocument.js";

type Field =
  | "email"
  | "id"
  | "firstName"
  | "lastName"
  | "fullName"
  | "status"
  | "lastUsedDate"
  | "roles"
  | "licenses";

// loose names (lower case, no spaces, _ or -; a [bracketed] note left out) of each field's
// columns, the likeliest first; a name ending in * is a start
const NAMES: Readonly<Record<Field, readonly string[]>> = {
  email: ["email", "emailaddress", "mail", "workemail", "primaryemail", "userprincipalname", "upn", "login"],
  id: [
    "id",
    "userid",
    "uid",
    "objectid",
    "externalid",
    "accountid",
    "employeeid",
    "employee#",
    "employeenumber",
  ],
  firstName: ["firstname", "givenname", "first", "forename"],
  lastName: ["lastname", "surname", "familyname", "last"],
  fullName: ["name", "fullname", "displayname", "username", "employee", "user"],
  status: [
    "status",
    "userstatus",
    "accountstatus",
    "state",
    "accountenabled",
    "enabled",
    "active",
    "blockcredential",
    "suspended",
    "employmentstatus",
  ],
  lastUsedDate: [
    "lastlogin",
    "lastsignin",
    "lastlogon",
    "lastseen*",
    "lastactive*",
    "lastactivity",
    "lastused*",
    "lastaccess*",
    "lastsignindate",
  ],
  roles: ["roles", "role", "groups", "orgrole", "usertype"],
  licenses: ["licenses", "license", "plan", "plans", "sku", "skus", "products", "subscription"],
};

const ACTIVE = new Set(["active", "enabled", "true", "yes", "activated", "employed", "current", "1"]);
const DELETED = new Set([
  "suspended",
  "deleted",
  "inactive",
  "disabled",
  "deactivated",
  "false",
  "no",
  "blocked",
  "terminated",
  "archived",
  "deprovisioned",
  "removed",
  "left",
  "0",
]);
/** Status columns where true means the user cannot sign in. */
const INVERTED = /block|suspend|disabled|locked/i;

/** The date forms tried, after YYYY-MM-DD and ISO date-times. */
const FORMS = ["YYYY/MM/DD", "M/D/YYYY", "D/M/YYYY", "D.M.YYYY", "D MMM YYYY", "MMM D, YYYY", "D-MMM-YYYY"];

const EMAIL_LIKE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_VALUES = 100;
const SAMPLE_ROWS = 5;
/** The fields whose columns' values a suggestion reads. */
const VALUED: readonly Field[] = ["status", "lastUsedDate", "roles", "licenses"];
/**
 * How many of a valued field's columns keep their values: the one `suggest` takes is the first
 * not taken by a field before it, and 8 fields come before licenses.
 */
const VALUED_COLUMNS = 9;

/**
 * What a status value means when its words say it plainly (`Active`, `Suspended`, `True`…),
 * `column` being the column it is in (`Block credential`: true means blocked); null otherwise.
 */
export function plainStatus(value: string, column: string): "active" | "deleted" | null {
  const lower = value.trim().toLowerCase();
  const meaning = ACTIVE.has(lower) ? "active" : DELETED.has(lower) ? "deleted" : null;
  if (meaning !== null && INVERTED.test(column) && ["true", "false", "yes", "no", "1", "0"].includes(lower)) {
    return meaning === "active" ? "deleted" : "active";
  }
  return meaning;
}

/** What suggest found, for the admin: the document, and a note a line. */
export interface Suggestion {
  document: MappingDocument;
  notes: string[];
}

/** What a MappingSuggester keeps. */
export interface SuggesterOptions {
  /**
   * Each column's values and the first rows, as the page shows them (the default); false: only
   * what `suggest` reads, the values of the few columns that may be a status, a date, roles or
   * licenses. An export of 60,000 columns kept 100 values of each: 1 GB.
   */
  everyColumn?: boolean;
}

/** Header, then rows; then `suggest`. */
export class MappingSuggester {
  readonly #everyColumn: boolean;
  #names: string[] = [];
  #loose: string[] = [];
  #emails: number[] = [];
  #rows = 0;
  /** Distinct values (up to MAX_VALUES) of each column, and their counts. */
  readonly #values = new Map<number, Map<string, number>>();
  /** The first rows, as they are (none unless every column is kept). */
  readonly sample: string[][] = [];

  constructor(options: SuggesterOptions = {}) {
    this.#everyColumn = options.everyColumn ?? true;
  }

  header(names: readonly string[]): void {
    this.#names = names.map((n) => n.trim());
    this.#loose = this.#names.map(looseColumn);
    this.#emails = this.#names.map(() => 0);
    const kept = this.#everyColumn
      ? this.#names.keys()
      : new Set(VALUED.flatMap((field) => this.#matches(field).slice(0, VALUED_COLUMNS)));
    for (const i of kept) this.#values.set(i, new Map());
  }

  /** The export's header names, trimmed. */
  get names(): readonly string[] {
    return this.#names;
  }

  /** The distinct values seen in column `i` (the first MAX_VALUES of them, if it keeps them), with their counts. */
  valuesOf(i: number): [string, number][] {
    return [...(this.#values.get(i) ?? new Map<string, number>()).entries()];
  }

  row(cells: readonly string[]): void {
    if (this.#everyColumn && this.sample.length < SAMPLE_ROWS) this.sample.push([...cells]);
    this.#rows++;
    for (let i = 0; i < Math.min(cells.length, this.#names.length); i++) {
      const value = (cells[i] as string).trim();
      if (value === "") continue;
      if (EMAIL_LIKE.test(value)) this.#emails[i] = (this.#emails[i] as number) + 1;
      const values = this.#values.get(i);
      if (values && (values.has(value) || values.size < MAX_VALUES))
        values.set(value, (values.get(value) ?? 0) + 1);
    }
  }

  /** The mapping document `name` suggested for what was read, and the notes on it. */
  suggest(name: string): Suggestion {
    const notes: string[] = [];
    const used = new Set<number>();
    const take = (field: Field): number | null => {
      const found = this.#matches(field).find((i) => !used.has(i));
      if (found === undefined) return null;
      used.add(found);
      return found;
    };
    const document: MappingDocument = {
      $schema: "https://syncfile.dev/schemas/mapping.schema.json",
      name,
      title: `Mapping of ${name}`,
      email: "",
    };

    // the email: the column most of whose cells are addresses, else the one named so
    const byContent = this.#emails.reduce((best, n, i) => (n > (this.#emails[best] ?? 0) ? i : best), 0);
    const named = this.#matches("email").filter((i) => (this.#emails[i] ?? 0) > 0);
    const email =
      named[0] ?? ((this.#emails[byContent] ?? 0) > 0 ? byContent : (this.#matches("email")[0] ?? null));
    if (email === null) {
      notes.push("no column holds email addresses: set email to the column that does");
    } else {
      used.add(email);
      document.email = this.#names[email] as string;
      notes.push(
        `email: ${JSON.stringify(this.#names[email])} (${this.#emails[email]} of ${this.#rows} rows look like addresses)`,
      );
    }
    for (const field of ["id", "firstName", "lastName", "fullName"] as const) {
      const i = take(field);
      if (i !== null) document[field] = this.#names[i] as string;
    }

    const status = take("status");
    if (status === null) notes.push("no status column found: every user will be active unless you map one");
    else {
      const table = this.#status(status, notes);
      if (table) document.status = table;
    }

    const date = take("lastUsedDate");
    if (date !== null) document.lastUsedDate = this.#date(date, notes);
    for (const field of ["roles", "licenses"] as const) {
      const i = take(field);
      if (i !== null) document[field] = this.#list(i, field, notes);
    }
    const ignored = this.#names.filter((n, i) => !used.has(i) && n !== "");
    if (ignored.length > 0) notes.push(`not read: ${ignored.map((n) => JSON.stringify(n)).join(", ")}`);
    return { document, notes };
  }

  /** The columns a field may be, the likeliest first. */
  #matches(field: Field): number[] {
    const found: number[] = [];
    const taken = new Set<number>();
    for (const wanted of NAMES[field]) {
      const start = wanted.endsWith("*") ? wanted.slice(0, -1) : null;
      this.#loose.forEach((name, i) => {
        const match = start === null ? name === wanted : name.startsWith(start);
        if (match && !taken.has(i)) {
          taken.add(i);
          found.push(i);
        }
      });
    }
    return found;
  }

  /** A status table: each value seen, mapped where its meaning is plain; the others noted (null: none is plain). */
  #status(i: number, notes: string[]): MappingDocument["status"] | null {
    const column = this.#names[i] as string;
    const inverted = INVERTED.test(column);
    const values: Record<string, StatusMeaning> = {};
    const unknown: string[] = [];
    const seen = [...(this.#values.get(i) ?? new Map<string, number>()).entries()];
    for (const [value] of seen) {
      const meaning = plainStatus(value, column);
      if (meaning === null) unknown.push(value);
      else values[value] = meaning;
    }
    const list = seen.map(
      ([v, n]) =>
        `${values[v] === undefined ? "?" : "✓"} ${JSON.stringify(v)} ×${n}${values[v] ? ` → ${values[v]}` : ""}`,
    );
    notes.push(
      `status: ${JSON.stringify(column)}${inverted ? " (true means blocked)" : ""}, its values:`,
      ...list.map((l) => `  ${l}`),
    );
    if (unknown.length > 0) {
      notes.push(
        `  add what each value marked ? means to status.values ("active" or "deleted"): until then it is an error at its rows`,
      );
    }
    return Object.keys(values).length > 0 ? { column, values } : null;
  }

  /** The date column with the first form that reads every date seen; texts without digits as no date. */
  #date(i: number, notes: string[]): NonNullable<MappingDocument["lastUsedDate"]> {
    const column = this.#names[i] as string;
    const seen = [...(this.#values.get(i)?.keys() ?? [])];
    const never = seen.filter((v) => !/\d/.test(v));
    const dates = seen.filter((v) => /\d/.test(v));
    const iso = new DateForms([]);
    let forms: string[] = [];
    if (!dates.every((d) => iso.read(d) !== null)) {
      const form = FORMS.find((f) => {
        const reader = new DateForms([f]);
        return dates.every((d) => reader.read(d) !== null);
      });
      if (form) forms = [form];
      else
        notes.push(
          `lastUsedDate: no form reads every date of ${JSON.stringify(column)}, e.g. ${JSON.stringify(dates[0])}: write its form`,
        );
    }
    notes.push(
      `lastUsedDate: ${JSON.stringify(column)}${forms.length > 0 ? ` in the form ${forms[0]}` : ""}${never.length > 0 ? `; no date: ${never.map((v) => JSON.stringify(v)).join(", ")}` : ""}`,
    );
    if (forms.length === 0 && never.length === 0) return column;
    return { column, ...(forms.length > 0 ? { forms } : {}), ...(never.length > 0 ? { never } : {}) };
  }

  /** A list column, with `+` as its separator when its cells use it (Microsoft 365's licenses). */
  #list(i: number, field: "roles" | "licenses", notes: string[]): NonNullable<MappingDocument["roles"]> {
    const column = this.#names[i] as string;
    const seen = [...(this.#values.get(i)?.keys() ?? [])];
    const plus = seen.some((v) => v.includes("+")) && !seen.some((v) => /[,;]/.test(v));
    notes.push(`${field}: ${JSON.stringify(column)}${plus ? ", items separated by +" : ""}`);
    return plus ? { column, separator: "+" } : column;
  }
}

/** A header name as the suggester compares it: lower case, no spaces, `_` or `-`, no [bracketed] note. */
function looseColumn(name: string): string {
  return name
    .replace(/\[[^\]]*\]|\([^)]*\)/g, "")
    .toLowerCase()
    .replace(/[\s_-]+/g, "");
}
