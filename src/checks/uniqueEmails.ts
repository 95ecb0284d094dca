// No two users share an email (compared case-insensitively). Past the users the registry
// keeps at hand (UserEmails' deferPast), a repeat is found at the end, with the license users
// that are no user's: this check ends after the license-user check has deferred its own.

import type { UserEmails } from "../model/UserEmails.js";
import { showValue } from "../report/describe.js";
import type { Check } from "./Check.js";
import { reportUnknownLicenseUser } from "./licenseUsers.js";

/** Reports every user whose email an earlier user already has. */
export function uniqueEmails(emails: UserEmails): Check {
  return {
    name: "unique-emails",
    kinds: ["user"],
    record(record, context) {
      if (record.kind !== "user" || record.emailUnique) return;
      const email = (record.value as { email?: unknown } | null)?.email;
      if (typeof email !== "string") return;
      const first = emails.add(email, record.index, context.recordErrors === 0);
      if (first < 0) return;
      context.report("user.email.duplicate", record, {
        path: ["email"],
        value: email,
        params: { value: showValue(email), first: `/users/${first}` },
      });
    },
    end(context) {
      emails.settle({
        duplicate(index, first, email) {
          context.report("user.email.duplicate", null, {
            place: { pointer: `/users/${index}/email` },
            value: email,
            params: { value: showValue(email), first: `/users/${first}` },
          });
        },
        unknown: (email, place) => reportUnknownLicenseUser(context, email, null, place),
      });
    },
  };
}
