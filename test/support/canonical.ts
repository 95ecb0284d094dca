// A data document up to the equivalences docs/csv-and-workbooks.md states, for comparing round trips.

const OPTIONAL_TEXT = ["id", "firstName", "lastName", "externalStatus", "lastUsedDate"];

/**
 * The document up to the equivalences docs/csv-and-workbooks.md states: key order; an empty optional text
 * is the same as none (a CSV cell cannot tell them apart); a license with `users: []` is
 * the same as one without users.
 */
export function canonical(document: unknown): unknown {
  const doc = document as { users?: Record<string, unknown>[]; licenses?: Record<string, unknown>[] };
  const sorted = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    users: (doc.users ?? []).map((u) =>
      sorted(
        Object.fromEntries(Object.entries(u).filter(([k, v]) => !(OPTIONAL_TEXT.includes(k) && v === ""))),
      ),
    ),
    licenses: (doc.licenses ?? []).map((l) => {
      const { users, ...rest } = l as { users?: Record<string, unknown>[] };
      return sorted(users && users.length > 0 ? { ...rest, users: users.map(sorted) } : rest);
    }),
  };
}
