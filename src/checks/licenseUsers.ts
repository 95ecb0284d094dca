// Every (otherwise valid) license user is one of the users, and appears once in its license. When the
// licenses come before the users in the file, the references wait (spilled to disk
// past 100 000) until every user has been read.
// Whether a license user is listed twice in its license is decided by the keyed fingerprint
// of its email (fingerprint.ts: a false "listed twice" has a chance of about n² / 2^65 in a
// license of n users, which no file can raise), not by the address read back: writing every
// license user's address to be read back took 7 % of a JSON validation whose users all hold
// licenses (issue 54), and 6 % of a CSV parsing thread's time, for a pair that only a
// fingerprint collision would tell apart.

import type { LicenseUserRecord, Place } from "../model/DataRecord.js";
import type { UserEmails } from "../model/UserEmails.js";
import { showValue } from "../report/describe.js";
import { FingerprintSet } from "../spill/FingerprintSet.js";
import { fingerprint, lastFingerprint } from "../spill/fingerprint.js";
import { SpillList } from "../spill/SpillList.js";
import type { Check, CheckContext } from "./Check.js";

/**
 * The users of one license kept in the hash table before they go to a compact run (about 18 MB),
 * unless users are deferred (UserEmails' listedPast: then 128 k, the rest compared at the end).
 */
const IN_LICENSE_MEMORY_KEYS = 1024 * 1024;
/**
 * The interleaved part's table is sized from the start for the license users a thread checks
 * as their rows come (AS_ROWS_COME): 1 M slots, 4 MB, whose pages cost memory only once used.
 */
const INTERLEAVED_EXPECTED_KEYS = 512 * 1024;
/** It never holds more (so never makes a compact run). */
const INTERLEAVED_MEMORY_KEYS = 1024 * 1024;

/**
 * The order license users come in: license by license (a JSON file's; and every reader's
 * once `interleaved` turns false), or while `interleaved`, licenses in any order (a CSV
 * file's license users checked as their rows come). Whoever gives them decides, and may
 * end the interleaved part: the rest then come license by license.
 */
export interface LicenseUserOrder {
  interleaved: boolean;
}

interface Deferred {
  email: string;
  place: Place;
}

/** Reports license users that are not among the users, and users listed twice in one license. */
export function licenseUsers(emails: UserEmails, order: LicenseUserOrder = { interleaved: false }): Check {
  // a license user listed twice: by its email's fingerprint, with its index (see the header)
  const inLicense = new FingerprintSet(IN_LICENSE_MEMORY_KEYS);
  // the users of the interleaved part, each email's fingerprint with its license mixed in
  const interleaved = order.interleaved
    ? new FingerprintSet(INTERLEAVED_MEMORY_KEYS, INTERLEAVED_EXPECTED_KEYS)
    : null;
  const deferred = new SpillList<Deferred>();
  // a license's users past emails.listedPast, once users are deferred: decided at the end
  const listed = emails.deferredKeys();
  let license = -1;

  return {
    name: "license-users",
    kinds: ["licenseUser"],
    record(record, context) {
      if (record.kind !== "licenseUser") return;
      const email = (record.value as { email?: unknown } | null)?.email;
      if (typeof email !== "string") return;
      let first: number;
      fingerprint(email, true);
      if (order.interleaved) {
        license = record.licenseIndex;
        first = (interleaved as FingerprintSet).add(inLicenseH1(license), lastFingerprint.h2, record.index);
      } else {
        if (record.licenseIndex !== license) {
          license = record.licenseIndex;
          inLicense.clear();
        }
        // after an interleaved part, the license's users there came before
        first = interleaved ? interleaved.get(inLicenseH1(license), lastFingerprint.h2) : -1;
        if (first < 0 && inLicense.size < emails.listedPast) {
          first = inLicense.add(lastFingerprint.h1, lastFingerprint.h2, record.index);
        } else if (first < 0) {
          first = inLicense.get(lastFingerprint.h1, lastFingerprint.h2);
          const { h2 } = lastFingerprint;
          if (first < 0) listed.key(inLicenseH1(license), h2, record.index, email, license, record.index);
        }
      }
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
        if (!emails.has(email, license, record.index)) reportUnknownLicenseUser(context, email, record);
      } else deferred.push({ email, place: record.place(["email"]) });
    },
    end(context) {
      for (const { email, place } of deferred) {
        if (!emails.has(email, -1, -1, place)) reportUnknownLicenseUser(context, email, null, place);
      }
      // listed twice, found at the end: reported by pointer (its place in the text is not kept)
      listed.settle({
        repeat({ email, license, index }, _, first) {
          emails.excuse(license, index);
          context.report("license.user.duplicate", null, {
            place: { pointer: `/licenses/${license}/users/${index}/email` },
            value: email,
            params: { value: showValue(email), first: `/licenses/${license}/users/${first}` },
          });
        },
        missing() {},
      });
    },
    dispose() {
      deferred.dispose();
      listed.dispose();
      inLicense.dispose();
      interleaved?.dispose();
    },
  };
}

/** Reports a license user whose email is no user's: `record`'s, or at `place`. */
export function reportUnknownLicenseUser(
  context: CheckContext,
  email: string,
  record: LicenseUserRecord | null,
  place?: Place,
): void {
  context.report("license.user.email.unknown", record, {
    path: ["email"],
    value: email,
    params: { value: showValue(email) },
    ...(place ? { place } : {}),
  });
}

/** The first half of the last fingerprint (fingerprint.ts) with `license` mixed in. */
function inLicenseH1(license: number): number {
  return lastFingerprint.h1 ^ Math.imul(license + 1, 0x9e3779b1);
}
