// How records whose fields already have the service's names are read without a mapping of the
// job's own: a mapping made from the columns the records have — email, id, firstName,
// lastName, status or active (true or false, t or f, 1 or 0, as databases write a boolean),
// externalStatus, roles, lastUsedDate — named as they are written, case, _ and - aside
// (first_name is firstName). A column of none of these names is left out, as an export's are.

import type { MappingDocument } from "syncfile/internal/mapping/MappingDocument.js";

/** The service's fields a record may carry as they are. */
const FIELDS = ["email", "id", "firstName", "lastName", "externalStatus", "roles", "lastUsedDate"] as const;

/** What a status, or a boolean of being active, says. */
const ACTIVE = { status: "active", externalStatus: "active" } as const;
const INACTIVE = { status: "deleted", externalStatus: "inactive" } as const;
const STATUS_VALUES = {
  active: "active",
  deleted: "deleted",
  true: ACTIVE,
  false: INACTIVE,
  t: ACTIVE,
  f: INACTIVE,
  "1": ACTIVE,
  "0": INACTIVE,
} as const;

/** The mapping of records whose columns are `header`; null when none of them is an email. */
export function recordsMapping(header: readonly string[]): MappingDocument | null {
  const named = new Map(header.map((column) => [key(column), column]));
  const email = named.get("email");
  if (email === undefined) return null;
  const document: MappingDocument = {
    name: "records",
    title: "records whose fields have the service's names",
    email,
  };
  const fields = document as unknown as Record<string, unknown>;
  for (const field of FIELDS.slice(1)) {
    const column = named.get(key(field));
    if (column !== undefined) fields[field] = column;
  }
  const status = named.get("status") ?? named.get("active");
  if (status !== undefined) document.status = { column: status, values: STATUS_VALUES };
  return document;
}

/** A name as the mapping compares it: case, spaces, _ and - aside. */
function key(name: string): string {
  return name.toLowerCase().replace(/[\s_-]/g, "");
}
