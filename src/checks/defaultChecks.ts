// The checks every validation runs, in the order they run on each record.

import { UserEmails } from "../model/UserEmails.js";
import type { Check } from "./Check.js";
import { lastUsedDate } from "./lastUsedDate.js";
import { licenseUsers } from "./licenseUsers.js";
import { numericId } from "./numericId.js";
import { schemaCheck } from "./schemaCheck.js";
import { uniqueEmails } from "./uniqueEmails.js";
import { uniqueLicenseNames } from "./uniqueLicenseNames.js";
import { unknownProperties } from "./unknownProperties.js";
import { validUsers } from "./validUsers.js";

/**
 * A fresh set of the standard checks (they keep state for one pass). `emails`: the registry
 * of users' emails they share, when the caller disposes of it (its temporary files).
 */
export function defaultChecks(emails = new UserEmails()): Check[] {
  return [
    schemaCheck(),
    numericId(),
    lastUsedDate(),
    unknownProperties(),
    uniqueEmails(emails),
    licenseUsers(emails),
    uniqueLicenseNames(),
    validUsers(),
  ];
}
