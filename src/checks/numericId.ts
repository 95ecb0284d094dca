// A user id written as a JSON number: accepted (with every digit kept), with a warning.

import type { Check } from "./Check.js";

/** Warns about user ids that are numbers rather than strings. */
export function numericId(): Check {
  return {
    name: "numeric-id",
    kinds: ["user"],
    record(record, context) {
      if (record.kind !== "user" || !record.numericId) return;
      const id = (record.value as { id: string }).id;
      context.report("user.id.number", record, { path: ["id"], value: id, params: { value: id } });
    },
  };
}
