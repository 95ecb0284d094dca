// The document holds at least one valid user. Runs after every other check of a record.

import type { Place } from "../model/DataRecord.js";
import type { Check } from "./Check.js";

/** Reports a document whose users all have errors. */
export function validUsers(): Check {
  let users = 0;
  let valid = 0;
  let first: Place | null = null;
  return {
    name: "valid-users",
    kinds: ["user"],
    record(record, context) {
      if (record.kind !== "user") return;
      users++;
      if (context.recordErrors === 0) valid++;
      if (users === 1) first = { ...record.place([]), pointer: "/users" };
    },
    end(context) {
      if (first && valid === 0)
        context.report("document.users.noneValid", null, { params: { count: users }, place: first });
    },
  };
}
