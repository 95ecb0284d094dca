// Every (otherwise valid) license user is one of the users, and appears once in its license. When the
// licenses come before the users in the file, the references wait (spilled to disk
// past 100 000) until every user has been read.

import { FingerprintSet } from "../_internal/FingerprintSet.js";
import { fingerprint, lastFingerprint } from "../_internal/fingerprint.js";
import { SpillList } from "../_internal/SpillList.js";
import type { LicenseUserRecord, Place } from "../model/DataRecord.js";
import type { UserEmails } from "../model/UserEmails.js";
import { showValue } from "../report/describe.js";
import type { Check, CheckContext } from "./Check.js";

/** The users of one license kept in the hash table before they go to a compact run (about 18 MB). */
const IN_LICENSE_MEMORY_KEYS = 1024 * 1024;

interface Deferred {
  email: string;
  place: Place;
}

/** Reports license users that are not among the users, and users listed twice in one license. */
export function licenseUsers(emails: UserEmails): Check {
  const inLicense = new FingerprintSet(IN_LICENSE_MEMORY_KEYS);
  const deferred = new SpillList<Deferred>();
  let license = -1;

  const unknown = (context: CheckContext, email: string, record: LicenseUserRecord | null, place?: Place) =>
    context.report("license.user.email.unknown", record, {
      path: ["email"],
      value: email,
      params: { value: showValue(email) },
      ...(place ? { place } : {}),
    });

  return {
    name: "license-users",
    record(record, context) {
      if (record.kind !== "licenseUser") return;
      const email = (record.value as { email?: unknown } | null)?.email;
      if (typeof email !== "string") return;
      if (record.licenseIndex !== license) {
        license = record.licenseIndex;
        inLicense.clear();
      }
      fingerprint(email, true);
      const { h1, h2 } = lastFingerprint;
      const first = inLicense.add(h1, h2, record.index);
      if (first >= 0) {
        context.report("license.user.duplicate", record, {
          path: ["email"],
          value: email,
          params: { value: showValue(email), first: `/licenses/${license}/users/${first}` },
        });
      }
      // a license user that is already invalid (a malformed email) is not also "unknown"
      if (context.recordErrors > 0 || record.userKnown) return;
      if (record.afterUsers) {
        if (!emails.hasFingerprint(h1, h2)) unknown(context, email, record);
      } else deferred.push({ email, place: record.place(["email"]) });
    },
    end(context) {
      for (const { email, place } of deferred) if (!emails.has(email)) unknown(context, email, null, place);
    },
    dispose() {
      deferred.dispose();
      inLicense.dispose();
    },
  };
}
