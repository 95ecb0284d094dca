// The order of a user's properties in what syncfile writes: the JSON writer's and the CSV
// layout's columns (csvColumns.ts) both follow it.

/** A user's properties besides its email, in the order syncfile writes them (JSON and CSV). */
export const USER_DETAILS = [
  "id",
  "firstName",
  "lastName",
  "status",
  "externalStatus",
  "roles",
  "lastUsedDate",
] as const;
