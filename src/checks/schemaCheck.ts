// Each record against its compiled JSON Schema (user, license, license user).

import { getValidators } from "../schema/validators.js";
import { schemaFinding } from "./_schemaFinding.js";
import type { Check } from "./Check.js";

/** Validates every record against its schema and reports each violation under its own code. */
export function schemaCheck(): Check {
  const validators = getValidators();
  return {
    name: "schema",
    record(record, context) {
      const validate = validators[record.kind];
      if (validate(record.value)) return;
      for (const error of validate.errors ?? []) {
        const finding = schemaFinding(record, error);
        if (finding) context.report(finding.code, record, finding.spec);
      }
    },
  };
}
