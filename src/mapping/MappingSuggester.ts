// A starting mapping for an export no profile knows, from its header and its rows. Each field's
// column is found by its name (a wide vocabulary, compared without case, spaces, punctuation or
// camelCase) or, failing that, by what the first rows hold: addresses, whole names (the comma
// form too), dates, the words of a status. A last use is only ever a date column named for one:
// a hire, start or termination date is never taken for it. A status word whose meaning is plain
// is mapped; any other is written "?", an error at its rows until the admin decides. Every
// choice goes to the notes with its reason. Fed row by row: any size of file, bounded memory.

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

/** What a field's columns are called: loose names exactly, and loose names containing a part. */
interface Vocabulary {
  exact: readonly string[];
  contains?: readonly string[];
  /** A name containing one of these is another thing (a manager's name, a marital status). */
  not?: readonly string[];
}

/** Whose they are when they are not the user's own: a column of another person. */
const SOMEONE_ELSE = ["manager", "supervisor", "approver", "reportsto", "emergency", "spouse", "sponsor"];

// loose names (lower case, letters, digits and # only; a [bracketed] or (parenthesised) note
// left out), the likeliest first
const NAMES: Readonly<Record<Field, Vocabulary>> = {
  email: {
    exact: [
      "email",
      "emailaddress",
      "mail",
      "workemail",
      "workemailaddress",
      "primaryemail",
      "businessemail",
      "companyemail",
      "userprincipalname",
      "upn",
      "login",
    ],
    contains: ["email", "mail"],
    not: [...SOMEONE_ELSE, "personal", "private", "home", "secondary", "alternate", "recovery"],
  },
  id: {
    exact: [
      "id",
      "userid",
      "uid",
      "objectid",
      "externalid",
      "accountid",
      "employeeid",
      "employee#",
      "employeenumber",
      "employeeno",
      "workerid",
      "associateid",
      "personid",
      "staffid",
      "personnelnumber",
    ],
  },
  firstName: {
    exact: ["firstname", "givenname", "first", "forename", "preferredfirstname", "legalfirstname"],
    contains: ["firstname", "givenname", "forename"],
    not: SOMEONE_ELSE,
  },
  lastName: {
    exact: ["lastname", "surname", "familyname", "last", "legallastname", "preferredlastname"],
    contains: ["lastname", "surname", "familyname"],
    not: SOMEONE_ELSE,
  },
  fullName: {
    exact: [
      "name",
      "fullname",
      "displayname",
      "legalname",
      "employee",
      "employeename",
      "associate",
      "associatename",
      "person",
      "personname",
      "teammember",
      "member",
      "membername",
      "worker",
      "workername",
      "staff",
      "staffmember",
      "preferredname",
      "user",
      "username",
    ],
    contains: ["fullname", "displayname", "legalname", "employeename", "workername", "name"],
    not: [
      ...SOMEONE_ELSE,
      "first",
      "given",
      "last",
      "surname",
      "family",
      "user",
      "login",
      "account",
      "company",
      "department",
      "dept",
      "group",
      "role",
      "org",
      "business",
      "job",
      "title",
      "position",
      "location",
      "site",
      "office",
      "cost",
      "product",
      "app",
      "plan",
      "license",
      "domain",
      "host",
      "device",
      "computer",
      "file",
    ],
  },
  status: {
    exact: [
      "status",
      "userstatus",
      "accountstatus",
      "employeestatus",
      "employmentstatus",
      "workerstatus",
      "state",
      "accountstate",
      "userstate",
      "workerstate",
      "employmentstate",
      "accountenabled",
      "enabled",
      "isenabled",
      "active",
      "isactive",
      "blockcredential",
      "blocked",
      "isblocked",
      "signinblocked",
      "suspended",
      "issuspended",
      "disabled",
      "isdisabled",
      "locked",
      "accountlocked",
    ],
    contains: ["status", "accountstate", "userstate", "workerstate", "employeestate", "employmentstate"],
    not: [
      ...SOMEONE_ELSE,
      "marital",
      "tax",
      "visa",
      "immigration",
      "payment",
      "billing",
      "approval",
      "request",
      "license",
      "mfa",
      "2fa",
      "verification",
      "date",
      "change",
    ],
  },
  lastUsedDate: {
    exact: [],
    contains: ["login", "logon", "signin", "signon", "seen", "activ", "access", "used", "usage"],
  },
  roles: {
    exact: ["roles", "role", "userrole", "accountrole", "orgrole", "groups", "usertype", "accesslevel"],
    contains: ["role"],
    not: [...SOMEONE_ELSE, "date", "change"],
  },
  licenses: {
    exact: [
      "licenses",
      "license",
      "licence",
      "licences",
      "plan",
      "plans",
      "sku",
      "skus",
      "products",
      "subscription",
      "subscriptions",
      "seat",
      "seattype",
      "licensetype",
      "edition",
    ],
  },
};

/** Words in a date column's name that make it anything but a last use. */
const NOT_A_USE = [
  "hire",
  "start",
  "termin",
  "birth",
  "dob",
  "chang",
  "modif",
  "updat",
  "creat",
  "join",
  "expir",
  "anniver",
  "effective",
  "separat",
  "offboard",
  "onboard",
  "since",
  "exit",
  "leave",
  "review",
  "renew",
  "contract",
  "enddate",
  "seniority",
  "first",
  "invit",
  "activat",
  "deactiv",
  "provision",
  "password",
];

const ACTIVE = new Set([
  "active",
  "enabled",
  "true",
  "yes",
  "y",
  "activated",
  "employed",
  "current",
  "working",
  "1",
]);
const DELETED = new Set([
  "suspended",
  "deleted",
  "inactive",
  "not active",
  "disabled",
  "deactivated",
  "false",
  "no",
  "n",
  "blocked",
  "terminated",
  "archived",
  "deprovisioned",
  "removed",
  "left",
  "separated",
  "offboarded",
  "resigned",
  "dismissed",
  "retired",
  "former",
  "former employee",
  "no longer employed",
  "0",
]);
/** Words of a status whose meaning is not plain: the admin decides (leave of absence keeps access?). */
const IN_BETWEEN = new Set([
  "leave",
  "on leave",
  "leave of absence",
  "loa",
  "parental leave",
  "maternity leave",
  "paternity leave",
  "medical leave",
  "sabbatical",
  "on sabbatical",
  "furlough",
  "furloughed",
  "hired",
  "pre-hire",
  "prehire",
  "pre hire",
  "new hire",
  "invited",
  "pending",
  "not started",
  "staged",
  "provisioned",
  "locked",
  "locked out",
  "expired",
  "password expired",
  "on hold",
  "paused",
  "onboarding",
  "offboarding",
  "notice period",
  "probation",
  "transferred",
  "deceased",
]);
/** Values a Yes/No column holds: a status only when its name says of what. */
const YES_NO = new Set(["true", "false", "yes", "no", "1", "0", "y", "n"]);
/** Status columns where true means the user cannot sign in. */
const INVERTED = /block|suspend|disabled|locked/i;

/** The date forms tried, after YYYY-MM-DD and ISO date-times. */
const FORMS = ["YYYY/MM/DD", "M/D/YYYY", "D/M/YYYY", "D.M.YYYY", "D MMM YYYY", "MMM D, YYYY", "D-MMM-YYYY"];
/** A reader a form: YYYY-MM-DD alone first, then each of FORMS (each reads YYYY-MM-DD too). */
const READERS = [new DateForms([]), ...FORMS.map((f) => new DateForms([f]))];
const EVERY_FORM = (1 << READERS.length) - 1;

const EMAIL_LIKE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A whole name: two or more words of letters (O'Brien, Jean-Luc, St. John), no digits or @. */
const WHOLE_NAME = /^\p{L}[\p{L}\p{M}'’.-]*(?:\s+\p{L}[\p{L}\p{M}'’.-]*)+$/u;
/** The same, written last name first: Lovelace, Ada; van der Berg, Jan. */
const COMMA_NAME = /^\p{L}[\p{L}\p{M}'’. -]*,\s*\p{L}[\p{L}\p{M}'’. -]*$/u;

/** Distinct values kept of a column a suggestion reads (the page: of every column). */
const MAX_VALUES = 100;
/** Distinct values kept of any other column: a status has few. */
const FEW_VALUES = 24;
/** Texts without digits kept of a column of dates (Never, -, N/A): more, and it is not one. */
const FEW_TEXTS = 8;
/** The rows whose cells are looked at for what they are (addresses aside: every row). */
const LOOKED_AT = 1000;
const SAMPLE_ROWS = 5;
/** The share of a column's cells that must be of a kind for the column to be taken by its values. */
const MOSTLY = 0.6;

/**
 * What a status value means when its words say it plainly (`Active`, `Terminated`, `True`…),
 * `column` being the column it is in (`Block credential`: true means blocked); null otherwise.
 */
export function plainStatus(value: string, column: string): "active" | "deleted" | null {
  const lower = value.trim().toLowerCase();
  const meaning = ACTIVE.has(lower) ? "active" : DELETED.has(lower) ? "deleted" : null;
  if (meaning !== null && INVERTED.test(column) && YES_NO.has(lower)) {
    return meaning === "active" ? "deleted" : "active";
  }
  return meaning;
}

/** Whether `value` is a word a status column holds, plain or not (Yes/No aside). */
function statusWord(value: string): boolean {
  const lower = value.trim().toLowerCase();
  return !YES_NO.has(lower) && (ACTIVE.has(lower) || DELETED.has(lower) || IN_BETWEEN.has(lower));
}

/** A column suggest chose for a field, and why (by its name, by its values…). */
export interface Choice {
  field: string;
  column: string;
  why: string;
}

/** What suggest found, for the admin: the document, a note a line, and each choice with its reason. */
export interface Suggestion {
  document: MappingDocument;
  notes: string[];
  choices: Choice[];
  /** False when no column holds email addresses: the document cannot be used. */
  usable: boolean;
}

/** What a MappingSuggester keeps. */
export interface SuggesterOptions {
  /**
   * Each column's values and the first rows, as the page shows them (the default); false: only
   * what `suggest` reads. An export of 60,000 columns kept 100 values of each: 1 GB.
   */
  everyColumn?: boolean;
}

/** What the rows showed of one column. */
class ColumnLook {
  /** Cells with a value, in the rows looked at. */
  filled = 0;
  /** Cells that look like an address: in every row. */
  emails = 0;
  wholeNames = 0;
  commaNames = 0;
  /** Cells with digits, and the date forms (bits of READERS) that read every one of them. */
  dated = 0;
  forms = EVERY_FORM;
  /** Its texts without digits (Never, -), while few; null: too many for a column of dates. */
  texts: Set<string> | null = new Set();
  /** Distinct values and their counts, while at most `keep` of them; null once there were more. */
  values: Map<string, number> | null = new Map();

  constructor(readonly keep: number) {}

  /** A cell's value (trimmed, not empty); `lookedAt`: within the rows looked at. */
  see(value: string, lookedAt: boolean): void {
    if (EMAIL_LIKE.test(value)) this.emails++;
    const values = this.values;
    if (values !== null) {
      const count = values.get(value);
      if (count !== undefined) values.set(value, count + 1);
      else if (values.size < this.keep) values.set(value, 1);
      else if (this.keep === FEW_VALUES) this.values = null; // not a status: its values go
    }
    if (!lookedAt) return;
    this.filled++;
    if (WHOLE_NAME.test(value)) this.wholeNames++;
    else if (COMMA_NAME.test(value)) this.commaNames++;
    if (/\d/.test(value)) {
      this.dated++;
      for (let bit = 0; bit < READERS.length && this.forms !== 0; bit++) {
        if (this.forms & (1 << bit) && (READERS[bit] as DateForms).read(value) === null)
          this.forms &= ~(1 << bit);
      }
    } else if (this.texts !== null) {
      this.texts.add(value);
      if (this.texts.size > FEW_TEXTS) this.texts = null;
    }
  }

  /** Its values are dates (those with digits, in one form), and the rest few texts. */
  get dates(): boolean {
    return this.forms !== 0 && this.texts !== null && (this.dated > 0 || this.filled === 0);
  }

  /** Its values are whole names, most of them; "last, first" when most are written so. */
  get names(): "first last" | "last, first" | null {
    if (this.filled === 0) return null;
    if (this.commaNames >= this.filled * MOSTLY) return "last, first";
    return this.wholeNames + this.commaNames >= this.filled * MOSTLY ? "first last" : null;
  }
}

/** Header, then rows; then `suggest`. */
export class MappingSuggester {
  readonly #everyColumn: boolean;
  #names: string[] = [];
  #loose: string[] = [];
  #looks: ColumnLook[] = [];
  #rows = 0;
  /** The first rows, as they are (none unless every column is kept). */
  readonly sample: string[][] = [];

  constructor(options: SuggesterOptions = {}) {
    this.#everyColumn = options.everyColumn ?? true;
  }

  header(names: readonly string[]): void {
    this.#names = names.map((n) => n.trim());
    this.#loose = this.#names.map(looseColumn);
    // a column a field may be by its name keeps its values; any other, only while they are few
    const named = new Set(
      (["status", "lastUsedDate", "roles", "licenses"] as const).flatMap((field) => this.#named(field)),
    );
    this.#looks = this.#names.map(
      (_, i) => new ColumnLook(this.#everyColumn || named.has(i) ? MAX_VALUES : FEW_VALUES),
    );
  }

  /** The export's header names, trimmed. */
  get names(): readonly string[] {
    return this.#names;
  }

  /** The distinct values seen in column `i` (the first 100 of them, if it keeps them), with their counts. */
  valuesOf(i: number): [string, number][] {
    return [...(this.#looks[i]?.values ?? new Map<string, number>()).entries()];
  }

  row(cells: readonly string[]): void {
    if (this.#everyColumn && this.sample.length < SAMPLE_ROWS) this.sample.push([...cells]);
    const lookedAt = this.#rows < LOOKED_AT;
    this.#rows++;
    for (let i = 0; i < Math.min(cells.length, this.#looks.length); i++) {
      const value = (cells[i] as string).trim();
      if (value !== "") (this.#looks[i] as ColumnLook).see(value, lookedAt);
    }
  }

  /** The mapping document `name` suggested for what was read, and the notes on it. */
  suggest(name: string): Suggestion {
    const notes: string[] = [];
    const choices: Choice[] = [];
    const used = new Set<number>();
    const document: MappingDocument = {
      $schema: "https://syncfile.dev/schemas/mapping.schema.json",
      name,
      title: `Mapping of ${name}`,
      email: "",
    };
    const column = (i: number) => this.#names[i] as string;
    const quoted = (i: number) => JSON.stringify(column(i));
    const take = (i: number, field: string, why: string) => {
      used.add(i);
      choices.push({ field, column: column(i), why });
      return column(i);
    };
    const free = (i: number) => !used.has(i);

    const email = this.#email();
    if (email === null) {
      notes.push("no column holds email addresses: set email to the column that does");
    } else {
      const look = this.#looks[email] as ColumnLook;
      const why = `${look.emails} of ${this.#rows} rows look like addresses`;
      document.email = take(email, "email", why);
      notes.push(`email: ${quoted(email)} (${why})`);
    }

    for (const field of ["id", "firstName", "lastName"] as const) {
      const i = this.#named(field).find(free);
      if (i === undefined) continue;
      document[field] = take(i, field, "by its name");
      notes.push(`${field}: ${quoted(i)} (by its name)`);
    }
    if (document.firstName === undefined || document.lastName === undefined) {
      const whole = this.#wholeName(free);
      if (whole !== null) {
        const written = whole.order ?? (this.#looks[whole.i] as ColumnLook).names;
        const why = `${whole.why}${written === "last, first" ? '; written "Last, First"' : ""}`;
        const nameColumn = take(whole.i, "fullName", why);
        document.fullName =
          written === "last, first" ? { column: nameColumn, order: "last, first" } : nameColumn;
        notes.push(`fullName: ${quoted(whole.i)} (${why})`);
      }
    }

    const status = this.#status(free);
    const table = status === null ? null : this.#statusTable(status.i, status.why, notes);
    if (status === null || table === null) {
      notes.push("no status column found: every user will be active unless you map one");
    } else {
      take(status.i, "status", status.why);
      document.status = table;
    }

    const date = this.#lastUse(free, notes);
    if (date !== null) {
      document.lastUsedDate = this.#date(
        take(date, "lastUsedDate", "by its name and its dates"),
        date,
        notes,
      );
    }

    for (const field of ["roles", "licenses"] as const) {
      const i = this.#named(field).find(free);
      if (i !== undefined) document[field] = this.#list(take(i, field, "by its name"), i, field, notes);
    }
    const ignored = this.#names.filter((n, i) => free(i) && n !== "");
    if (ignored.length > 0) notes.push(`not read: ${ignored.map((n) => JSON.stringify(n)).join(", ")}`);
    return { document, notes, choices, usable: email !== null };
  }

  /** The columns a field may be by its name. */
  #named(field: Field): number[] {
    return namedFor(field, this.#loose);
  }

  /** The email column: the named one holding the most addresses, else the column holding most. */
  #email(): number | null {
    const emailsOf = (i: number) => (this.#looks[i] as ColumnLook).emails;
    const named = this.#named("email");
    const withAddresses = named.filter((i) => emailsOf(i) > 0);
    if (withAddresses.length > 0) {
      // an exact name (Work email) before one only containing it, unless the other holds more
      return withAddresses.reduce((best, i) => (emailsOf(i) > emailsOf(best) ? i : best));
    }
    let most = -1;
    this.#looks.forEach((look, i) => {
      if (look.emails > 0 && (most < 0 || look.emails > emailsOf(most))) most = i;
    });
    if (most >= 0) return most;
    // an empty file: the column named so
    return this.#rows === 0 ? (named[0] ?? null) : null;
  }

  /** The whole-name column: named so and holding names (or nothing yet), else the one holding names. */
  #wholeName(free: (i: number) => boolean): { i: number; why: string; order?: "first last" } | null {
    const looks = this.#looks;
    const named = this.#named("fullName").filter(free);
    const holdsNames = (i: number) => (looks[i] as ColumnLook).names !== null;
    const byName = named.find((i) => holdsNames(i) || (looks[i] as ColumnLook).filled === 0);
    if (byName !== undefined) return { i: byName, why: "by its name" };
    const byValues = looks.findIndex((look, i) => free(i) && look.names !== null);
    if (byValues >= 0) {
      const look = looks[byValues] as ColumnLook;
      return {
        i: byValues,
        why: `by its values: ${look.wholeNames + look.commaNames} of ${look.filled} are whole names`,
      };
    }
    // a column named so whose values are single words (a login, a nickname): not a name to split
    return null;
  }

  /**
   * The status column: named so with the words of a status (or Yes/No where its name says of
   * what), else any column of status words, else one named "… status" whatever it holds.
   */
  #status(free: (i: number) => boolean): { i: number; why: string } | null {
    const named = this.#named("status").filter(free);
    const share = (i: number) => this.#statusShare(i);
    const yesNo = (i: number) => {
      const values = this.#looks[i]?.values;
      return (
        values != null && values.size > 0 && [...values.keys()].every((v) => YES_NO.has(v.toLowerCase()))
      );
    };
    const both = named.find((i) => share(i) >= MOSTLY || yesNo(i));
    if (both !== undefined) return { i: both, why: "by its name and its values" };
    const byValues = this.#looks.findIndex((_, i) => free(i) && share(i) >= MOSTLY);
    if (byValues >= 0) return { i: byValues, why: "by its values: they are the words of a status" };
    const statusNamed = named.find(
      (i) => this.#loose[i]?.includes("status") && this.#looks[i]?.values != null,
    );
    if (statusNamed !== undefined) return { i: statusNamed, why: "by its name" };
    return null;
  }

  /** The share of column i's cells that are status words, with one at least of plain meaning; 0 if it has many values. */
  #statusShare(i: number): number {
    const values = this.#looks[i]?.values;
    if (!values || values.size === 0) return 0;
    let words = 0;
    let cells = 0;
    let plain = false;
    for (const [value, count] of values) {
      cells += count;
      if (statusWord(value)) {
        words += count;
        plain ||= plainStatus(value, "") !== null;
      }
    }
    return plain ? words / cells : 0;
  }

  /** The status table: every value seen, its meaning where plain, "?" where the admin decides. */
  #statusTable(i: number, why: string, notes: string[]): NonNullable<MappingDocument["status"]> | null {
    const column = this.#names[i] as string;
    const inverted = INVERTED.test(column);
    const values: Record<string, StatusMeaning> = {};
    const seen = this.valuesOf(i);
    if (seen.length === 0) return null; // an empty column: nothing to map
    for (const [value] of seen) values[value] = plainStatus(value, column) ?? "?";
    notes.push(
      `status: ${JSON.stringify(column)} (${why})${inverted ? ", true means blocked" : ""}; its values:`,
      ...seen.map(
        ([v, n]) =>
          `  ${values[v] === "?" ? "?" : "✓"} ${JSON.stringify(v)} ×${n}${values[v] === "?" ? "" : ` → ${values[v]}`}`,
      ),
    );
    if (Object.values(values).includes("?")) {
      notes.push(
        `  each value marked ? is "?" in status.values: write "active" or "deleted" for it; until then it is an error at its rows`,
      );
    }
    return { column, values };
  }

  /**
   * The last-used date column: a column of dates named for a use (login, sign-in, seen,
   * activity, access). Dates named for anything else (hire, start, termination, birth, a change)
   * are never taken, and said so; nor is a column of dates whose name says nothing.
   */
  #lastUse(free: (i: number) => boolean, notes: string[]): number | null {
    const looks = this.#looks;
    const isUse = (i: number) => !NOT_A_USE.some((word) => (this.#loose[i] as string).includes(word));
    const candidates = this.#named("lastUsedDate").filter((i) => free(i) && isUse(i));
    const chosen = candidates.find((i) => (looks[i] as ColumnLook).dates) ?? null;
    const why = (i: number) =>
      !isUse(i)
        ? "its name says it is not a last use"
        : candidates.includes(i)
          ? "another last use: list both columns to take the latest"
          : "its name says nothing of a use";
    const others = [...looks.keys()].filter(
      (i) => free(i) && i !== chosen && (looks[i] as ColumnLook).dated > 0 && (looks[i] as ColumnLook).dates,
    );
    if (others.length > 0) {
      notes.push(
        `dates not taken for lastUsedDate: ${others.map((i) => `${JSON.stringify(this.#names[i])} (${why(i)})`).join(", ")}`,
      );
    }
    if (chosen === null && others.length === 0 && candidates.length === 0) {
      notes.push(
        "no column of last-use dates found (Last login, Last sign-in, Last seen…): no user will have one",
      );
    }
    return chosen;
  }

  /** The date column with the first form that reads every date seen; texts without digits as no date. */
  #date(column: string, i: number, notes: string[]): NonNullable<MappingDocument["lastUsedDate"]> {
    const look = this.#looks[i] as ColumnLook;
    const bit = [...READERS.keys()].find((b) => look.forms & (1 << b)) ?? 0;
    const forms = bit === 0 ? [] : [FORMS[bit - 1] as string];
    const never = [...(look.texts ?? [])];
    // M/D/YYYY and D/M/YYYY both read 05/07/2024: the first is taken, and the doubt said
    const also = bit > 0 ? FORMS.filter((_, k) => k + 1 > bit && look.forms & (1 << (k + 1))) : [];
    notes.push(
      `lastUsedDate: ${JSON.stringify(column)} (by its name and its dates)${forms.length > 0 ? ` in the form ${forms[0]}` : ""}${also.length > 0 ? ` (${also.join(", ")} reads them too: check)` : ""}${never.length > 0 ? `; no date: ${never.map((v) => JSON.stringify(v)).join(", ")}` : ""}`,
    );
    if (forms.length === 0 && never.length === 0) return column;
    return { column, ...(forms.length > 0 ? { forms } : {}), ...(never.length > 0 ? { never } : {}) };
  }

  /** A list column, with `+` as its separator when its cells use it (Microsoft 365's licenses). */
  #list(
    column: string,
    i: number,
    field: "roles" | "licenses",
    notes: string[],
  ): NonNullable<MappingDocument["roles"]> {
    const seen = this.valuesOf(i).map(([v]) => v);
    const plus = seen.some((v) => v.includes("+")) && !seen.some((v) => /[,;]/.test(v));
    notes.push(`${field}: ${JSON.stringify(column)} (by its name)${plus ? ", items separated by +" : ""}`);
    return plus ? { column, separator: "+" } : column;
  }
}

/**
 * The columns of `loose` names a field may be by its name: exact names first, then names
 * containing a part of one (and none of what makes it another thing).
 */
function namedFor(field: Field, loose: readonly string[]): number[] {
  const words = NAMES[field];
  const found: number[] = [];
  const add = (i: number) => {
    if (!found.includes(i)) found.push(i);
  };
  for (const wanted of words.exact) {
    loose.forEach((name, i) => {
      if (name === wanted) add(i);
    });
  }
  for (const part of words.contains ?? []) {
    loose.forEach((name, i) => {
      if (name.includes(part) && !(words.not ?? []).some((other) => name.includes(other))) add(i);
    });
  }
  return found;
}

/** The columns of a header whose names say they hold a status (Employee Status, Is Enabled): for a warning. */
export function statusColumnsByName(names: readonly string[]): string[] {
  return namedFor("status", names.map(looseColumn)).map((i) => names[i] as string);
}

/**
 * A header name as the suggester compares it: a [bracketed] or (parenthesised) note left out,
 * then lower case, letters, digits and # alone (Last Sign-In Time, lastSignInTime: lastsignintime).
 */
function looseColumn(name: string): string {
  return name
    .replace(/\[[^\]]*\]|\([^)]*\)/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}#]+/gu, "");
}
