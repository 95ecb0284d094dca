// Properties the service does not know: a warning each, with a did-you-mean hint.

import { knownProperties } from "../schema/schemas.js";
import { suggest } from "../text/suggest.js";
import type { Check } from "./Check.js";

const CODES = {
  user: "user.property.unknown",
  license: "license.property.unknown",
  licenseUser: "license.user.property.unknown",
} as const;

const KNOWN = {
  user: new Set<string>(knownProperties.user),
  license: new Set<string>(knownProperties.license),
  licenseUser: new Set<string>(knownProperties.licenseUser),
};

/** Warns about every property a record's schema does not list. */
export function unknownProperties(): Check {
  return {
    name: "unknown-properties",
    record(record, context) {
      const value = record.value;
      if (typeof value !== "object" || value === null || Array.isArray(value)) return;
      const known = KNOWN[record.kind];
      for (const key in value) {
        if (known.has(key)) continue;
        const suggestion = suggest(key, knownProperties[record.kind]);
        context.report(CODES[record.kind], record, {
          path: [key],
          at: "key",
          params: { key: JSON.stringify(key) },
          ...(suggestion ? { hint: `did you mean "${suggestion}"?` } : {}),
        });
      }
    },
  };
}
