// The CSV layout: one row per user–license pair. Canonical columns, the spreadsheet dialect
// (`Licenses` as a list, statuses in any case), and how a header row maps onto them.

import { looseName, suggest } from "../_internal/suggest.js";
import { USER_DETAILS } from "../model/normalize.js";

/** What a column holds. `licenses` is the spreadsheet dialect's comma-separated list of names. */
export type ColumnKey =
  | "email"
  | "id"
  | "firstName"
  | "lastName"
  | "status"
  | "externalStatus"
  | "roles"
  | "lastUsedDate"
  | "licenseName"
  | "licenseStatus"
  | "pricePerUser"
  | "unassignedAmount"
  | "licenses";

/** The user columns (besides email) that repeat on every row of a user and must agree. */
export const USER_COLUMNS = USER_DETAILS;

/** The license columns that repeat on every row of a license and must agree. */
export const LICENSE_COLUMNS = ["pricePerUser", "unassignedAmount"] as const;

/** The canonical header, in order (what `convert` writes). */
export const CANONICAL_COLUMNS = [
  "email",
  ...USER_COLUMNS,
  "licenseName",
  "licenseStatus",
  ...LICENSE_COLUMNS,
] as const satisfies readonly ColumnKey[];

// header names a spreadsheet uses for the same columns
const ALIASES: Readonly<Record<string, ColumnKey>> = {
  [looseName("License")]: "licenseName",
  [looseName("License name")]: "licenseName",
  [looseName("Licenses")]: "licenses",
  [looseName("Price per user")]: "pricePerUser",
  [looseName("Unassigned")]: "unassignedAmount",
};

const KNOWN: readonly ColumnKey[] = [...CANONICAL_COLUMNS, "licenses"];
const BY_LOOSE_NAME = new Map<string, ColumnKey>(KNOWN.map((key) => [looseName(key), key]));

/** What a header cell means. */
export type HeaderMatch = { key: ColumnKey } | { key: null; suggestion: string | undefined };

/** Maps a header cell to a column: case, spaces, `_` and `-` do not matter. */
export function matchHeader(name: string): HeaderMatch {
  const loose = looseName(name);
  const key = BY_LOOSE_NAME.get(loose) ?? ALIASES[loose];
  if (key) return { key };
  return { key: null, suggestion: loose === "" ? undefined : suggest(name, KNOWN) };
}
