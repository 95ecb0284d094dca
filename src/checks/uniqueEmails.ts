// No two users share an email (compared case-insensitively).

import type { UserEmails } from "../model/UserEmails.js";
import { showValue } from "../report/describe.js";
import type { Check } from "./Check.js";

/** Reports every user whose email an earlier user already has. */
export function uniqueEmails(emails: UserEmails): Check {
  return {
    name: "unique-emails",
    kinds: ["user"],
    record(record, context) {
      if (record.kind !== "user" || record.emailUnique) return;
      const email = (record.value as { email?: unknown } | null)?.email;
      if (typeof email !== "string") return;
      const first = emails.add(email, record.index);
      if (first < 0) return;
      context.report("user.email.duplicate", record, {
        path: ["email"],
        value: email,
        params: { value: showValue(email), first: `/users/${first}` },
      });
    },
  };
}
