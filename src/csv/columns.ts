// The CSV layout: one row per user–license pair. Canonical columns, the spreadsheet dialect
// (`Licenses` as a list, statuses in any case), and how a header row maps onto them.

import { CANONICAL_COLUMNS, type ColumnKey } from "../schema/csvColumns.js";
import { looseName, suggest } from "../text/suggest.js";

export { CANONICAL_COLUMNS, type ColumnKey, LICENSE_COLUMNS, USER_COLUMNS } from "../schema/csvColumns.js";

// header names a spreadsheet uses for the same columns
const ALIASES: Readonly<Record<string, ColumnKey>> = {
  [looseName("License")]: "licenseName",
  [looseName("License name")]: "licenseName",
  [looseName("Licenses")]: "licenses",
  [looseName("Full name")]: "name",
  [looseName("Display name")]: "name",
  [looseName("Price per user")]: "pricePerUser",
  [looseName("Unassigned")]: "unassignedAmount",
};

const KNOWN: readonly ColumnKey[] = [...CANONICAL_COLUMNS, "licenses", "name"];
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
