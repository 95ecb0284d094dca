// One ajv instance with the data file's schemas, compiled once per process, on first use
// (a process that only reads, or only forwards bytes to a worker, never pays for it).

import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import { schemas } from "./schemas.js";

/** ajv-formats' plugin (CommonJS: its default export arrives as the module object or the function). */
export const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ??
  addFormatsPlugin) as typeof addFormatsPlugin.default;

/** The compiled validators by record kind, and for a whole (small) document. */
export interface Validators {
  user: ValidateFunction;
  license: ValidateFunction;
  licenseUser: ValidateFunction;
  document: ValidateFunction;
  csvRow: ValidateFunction;
}

let compiled: Validators | null = null;

/** The validators, compiled on the first call. */
export function getValidators(): Validators {
  if (compiled) return compiled;
  // strictRequired is an ajv lint (required names in anyOf branches), not a JSON Schema rule;
  // the schemas are ours and checked against the meta-schema by a test, not at every start
  // (that compiled the meta-schema too: half the time this takes)
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    validateSchema: false,
  });
  addFormats(ajv, ["email", "date", "date-time"]);
  ajv.addSchema([schemas.licenseUser, schemas.license, schemas.user, schemas.document, schemas.csvRow]);
  const get = (id: string): ValidateFunction => {
    const validate = ajv.getSchema(id);
    if (!validate) throw new Error(`schema ${id} is not loaded`);
    return validate;
  };
  compiled = {
    user: get(schemas.user.$id),
    license: get(schemas.license.$id),
    licenseUser: get(schemas.licenseUser.$id),
    document: get(schemas.document.$id),
    csvRow: get(schemas.csvRow.$id),
  };
  return compiled;
}

export type { ErrorObject };
