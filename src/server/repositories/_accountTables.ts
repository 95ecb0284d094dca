// The account tables a sync loads, each column defined once: its name, and how a sync-ready
// record gives its value. The row a sync COPYs for each record (_copy.ts) and the columns the
// COPY names are both made from that one list, so they cannot disagree on their order.

import type {
  NormalizedLicense,
  NormalizedLicenseUser,
  NormalizedUser,
} from "syncfile/internal/model/normalize.js";

/** A value of a row, as COPY writes it. */
export type Cell = string | number | null;

/** One column of an account table. */
export interface Column<R> {
  readonly name: string;
  /** Its value for `record`, the `index`-th of its list (of license `licenseIndex`, for a license user). */
  readonly value: (record: R, index: number, licenseIndex: number) => Cell;
}

/**
 * A table a sync loads under its sync id. `C`: the columns that have one value for the whole
 * sync (written after the sync id in each row).
 */
export class AccountTable<R, C extends string = never> {
  constructor(
    readonly name: string,
    readonly columns: readonly Column<R>[],
    readonly constants: readonly C[] = [],
  ) {}

  /** Fills `row` (one cell a column) with `record`'s value in each column, in order. */
  fill(row: Cell[], record: R, index: number, licenseIndex = -1): void {
    const { columns } = this;
    for (let i = 0; i < columns.length; i++)
      row[i] = (columns[i] as Column<R>).value(record, index, licenseIndex);
  }
}

/** The users of a sync, in the file's order. */
export const ACCOUNT_USERS = new AccountTable<NormalizedUser>("account_users", [
  { name: "idx", value: (_, index) => index },
  { name: "email", value: (u) => u.email },
  { name: "external_id", value: (u) => u.id ?? null },
  { name: "first_name", value: (u) => u.firstName ?? null },
  { name: "last_name", value: (u) => u.lastName ?? null },
  { name: "status", value: (u) => u.status },
  { name: "external_status", value: (u) => u.externalStatus ?? null },
  { name: "roles", value: (u) => (u.roles ? JSON.stringify(u.roles) : null) },
  { name: "last_used_date", value: (u) => u.lastUsedDate ?? null },
]);

/** The licenses of a sync, their prices in the server's display currency. */
export const ACCOUNT_LICENSES = new AccountTable<NormalizedLicense, "currency">(
  "account_licenses",
  [
    { name: "idx", value: (_, index) => index },
    { name: "name", value: (l) => l.name },
    { name: "price_per_user", value: (l) => l.pricePerUser ?? null },
    { name: "unassigned_amount", value: (l) => l.unassignedAmount ?? null },
  ],
  ["currency"],
);

/** The users of each license of a sync, numbered within their license. */
export const ACCOUNT_LICENSE_USERS = new AccountTable<NormalizedLicenseUser>("account_license_users", [
  { name: "license_idx", value: (_, _index, licenseIndex) => licenseIndex },
  { name: "idx", value: (_, index) => index },
  { name: "email", value: (h) => h.email },
  { name: "license_status", value: (h) => h.licenseStatus },
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
