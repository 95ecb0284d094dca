// The JSON Schemas of the data file, as shipped in schemas/ (bundled into the build).

import csvRowSchema from "../../schemas/csv-row.schema.json" with { type: "json" };
import documentSchema from "../../schemas/custom-integration.schema.json" with { type: "json" };
import jobSchema from "../../schemas/job.schema.json" with { type: "json" };
import licenseSchema from "../../schemas/license.schema.json" with { type: "json" };
import licenseUserSchema from "../../schemas/license-user.schema.json" with { type: "json" };
import mappingSchema from "../../schemas/mapping.schema.json" with { type: "json" };
import userSchema from "../../schemas/user.schema.json" with { type: "json" };

/**
 * The schemas: document, user, license, license user, CSV row, and the mapping of an export
 * (JSON Schema 2020-12, each with `$id`), and the job file.
 */
export const schemas = {
  document: documentSchema,
  user: userSchema,
  license: licenseSchema,
  licenseUser: licenseUserSchema,
  csvRow: csvRowSchema,
  mapping: mappingSchema,
  job: jobSchema,
} as const;

/** The properties each record may have; anything else is an unknown property (a warning). */
export const knownProperties = {
  user: Object.keys(userSchema.properties),
  license: Object.keys(licenseSchema.properties),
  licenseUser: Object.keys(licenseUserSchema.properties),
} as const;
