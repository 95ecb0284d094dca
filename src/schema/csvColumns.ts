// The columns of the CSV layout (one row per user–license pair): what the reader matches a
// header against, what the writer writes, and what the catalog's hints name.

import { USER_DETAILS } from "./userDetails.js";

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
  | "licenses"
  | "name";

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
