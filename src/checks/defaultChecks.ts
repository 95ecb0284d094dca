// The checks every validation runs, in the order they run on each record.

import { UserEmails } from "../model/UserEmails.js";
import type { Check } from "./Check.js";
import { lastUsedDate } from "./lastUsedDate.js";
import { type LicenseUserOrder, licenseUsers } from "./licenseUsers.js";
import { numericId } from "./numericId.js";
import { schemaCheck } from "./schemaCheck.js";
import { storableText } from "./storableText.js";
import { uniqueEmails } from "./uniqueEmails.js";
import { uniqueLicenseNames } from "./uniqueLicenseNames.js";
import { unknownProperties } from "./unknownProperties.js";
import { validUsers } from "./validUsers.js";

/**
 * A fresh set of the standard checks (they keep state for one pass). `emails`: the registry
 * of users' emails they share, when the caller disposes of it (its temporary files).
 * `order`: the order license users come in, when it is not license by license.
 */
export function defaultChecks(emails = new UserEmails(), order?: LicenseUserOrder): Check[] {
  return [
    schemaCheck(),
    numericId(),
    lastUsedDate(),
    storableText(),
    unknownProperties(),
    // the license users' check ends first: the duplicate-email check's end settles what both deferred
    licenseUsers(emails, order),
    uniqueEmails(emails),
    uniqueLicenseNames(),
    validUsers(emails),
  ];
}
