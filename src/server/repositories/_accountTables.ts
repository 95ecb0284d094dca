// The account tables a sync loads, each column defined once: its name, the SQL type of its
// unnest() array, and how a sync-ready record gives its value. The row a sync keeps for each
// record and the INSERT … SELECT … FROM unnest(…) that loads a batch of rows are both made
// from that one list, so they cannot disagree on the order of the columns.

import type { NormalizedLicense, NormalizedLicenseUser, NormalizedUser } from "../../model/normalize.js";

/** A value of a row, as an unnest() array holds it. */
export type Cell = string | number | null;

/** One column of an account table. */
export interface Column<R> {
  readonly name: string;
  /** The type of its unnest() array. */
  readonly type: "int" | "bigint" | "text";
  /** The column's own type when it is not the array's (jsonb, date): the text is cast to it. */
  readonly cast?: "jsonb" | "date";
  /** Its value for `record`, the `index`-th of its list (of license `licenseIndex`, for a license user). */
  readonly value: (record: R, index: number, licenseIndex: number) => Cell;
}

/**
 * A table a sync loads under its sync id. `C`: the columns that have one value for the whole
 * sync (given with each batch, after the sync id).
 */
export class AccountTable<R, C extends string = never> {
  /** Inserts a batch: $1 the sync id, then the constants, then one array per column. */
  readonly insert: string;

  constructor(
    readonly name: string,
    readonly columns: readonly Column<R>[],
    readonly constants: readonly C[] = [],
  ) {
    const fixed = ["sync_id", ...constants];
    const names = columns.map((c) => c.name);
    const selected = columns.map((c) => (c.cast ? `r.${c.name}::${c.cast}` : `r.${c.name}`));
    const arrays = columns.map((c, i) => `$${fixed.length + 1 + i}::${c.type}[]`);
    this.insert = `INSERT INTO ${name} (${[...fixed, ...names].join(", ")})
       SELECT ${[...fixed.map((_, i) => `$${i + 1}`), ...selected].join(", ")}
       FROM unnest(${arrays.join(", ")}) AS r(${names.join(", ")})`;
  }

  /** The row of `record`: its value in each column, in order. */
  row(record: R, index: number, licenseIndex = -1): Cell[] {
    const row: Cell[] = [];
    for (const column of this.columns) row.push(column.value(record, index, licenseIndex));
    return row;
  }

  /** The parameters of `insert` for `rows`: the sync id, the constants, each column as an array. */
  parameters(syncId: number, constants: Readonly<Record<C, Cell>>, rows: readonly Cell[][]): unknown[] {
    const arrays = this.columns.map((_, c) => rows.map((row) => row[c] ?? null));
    return [syncId, ...this.constants.map((name) => constants[name]), ...arrays];
  }
}

/** The users of a sync, in the file's order. */
export const ACCOUNT_USERS = new AccountTable<NormalizedUser>("account_users", [
  { name: "idx", type: "int", value: (_, index) => index },
  { name: "email", type: "text", value: (u) => u.email },
  { name: "external_id", type: "text", value: (u) => u.id ?? null },
  { name: "first_name", type: "text", value: (u) => u.firstName ?? null },
  { name: "last_name", type: "text", value: (u) => u.lastName ?? null },
  { name: "status", type: "text", value: (u) => u.status },
  { name: "external_status", type: "text", value: (u) => u.externalStatus ?? null },
  { name: "roles", type: "text", cast: "jsonb", value: (u) => (u.roles ? JSON.stringify(u.roles) : null) },
  { name: "last_used_date", type: "text", cast: "date", value: (u) => u.lastUsedDate ?? null },
]);

/** The licenses of a sync, their prices in the server's display currency. */
export const ACCOUNT_LICENSES = new AccountTable<NormalizedLicense, "currency">(
  "account_licenses",
  [
    { name: "idx", type: "int", value: (_, index) => index },
    { name: "name", type: "text", value: (l) => l.name },
    { name: "price_per_user", type: "bigint", value: (l) => l.pricePerUser ?? null },
    { name: "unassigned_amount", type: "bigint", value: (l) => l.unassignedAmount ?? null },
  ],
  ["currency"],
);

/** The users of each license of a sync, numbered within their license. */
export const ACCOUNT_LICENSE_USERS = new AccountTable<NormalizedLicenseUser>("account_license_users", [
  { name: "license_idx", type: "int", value: (_, _index, licenseIndex) => licenseIndex },
  { name: "idx", type: "int", value: (_, index) => index },
  { name: "email", type: "text", value: (h) => h.email },
  { name: "license_status", type: "text", value: (h) => h.licenseStatus },
]);

/** Every table a sync fills. */
export const ACCOUNT_TABLES = [ACCOUNT_USERS, ACCOUNT_LICENSES, ACCOUNT_LICENSE_USERS] as const;

/** An account user as the queries read it (its date as text). */
export interface UserRow {
  email: string;
  external_id: string | null;
  first_name: string | null;
  last_name: string | null;
  external_status: string | null;
  roles: string[] | null;
  last_used_date: string | null;
}

/** The user's email and the fields it has, as the interface names them. */
export function userFields(u: UserRow) {
  return {
    email: u.email,
    ...(u.external_id !== null ? { id: u.external_id } : {}),
    ...(u.first_name !== null ? { firstName: u.first_name } : {}),
    ...(u.last_name !== null ? { lastName: u.last_name } : {}),
    ...(u.external_status !== null ? { externalStatus: u.external_status } : {}),
    ...(u.roles !== null ? { roles: u.roles } : {}),
    ...(u.last_used_date !== null ? { lastUsedDate: u.last_used_date } : {}),
  };
}
