// The document holds at least one valid user. Runs after every other check of a record.

import type { Place } from "../model/DataRecord.js";
import type { UserEmails } from "../model/UserEmails.js";
import type { Check } from "./Check.js";

/**
 * Reports a document whose users all have errors (`emails`: whose end tells of the users found
 * at the end to repeat an email, which were counted valid).
 */
export function validUsers(emails: UserEmails | null = null): Check {
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
      if (first && valid - (emails?.duplicatesOfValid ?? 0) === 0)
        context.report("document.users.noneValid", null, { params: { count: users }, place: first });
    },
  };
}
