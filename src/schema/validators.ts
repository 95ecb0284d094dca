// One ajv instance with the data file's schemas, compiled once at module load.

import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import { schemas } from "./schemas.js";

// ajv-formats is CommonJS: its default export arrives as the module object or the function
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ??
  addFormatsPlugin) as typeof addFormatsPlugin.default;

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv, ["email", "date", "date-time"]);
ajv.addSchema([schemas.licenseUser, schemas.license, schemas.user, schemas.document]);

function compiled(id: string): ValidateFunction {
  const validate = ajv.getSchema(id);
  if (!validate) throw new Error(`schema ${id} is not loaded`);
  return validate;
}

/** Validators by record kind, and for a whole (small) document. */
export const validators = {
  user: compiled(schemas.user.$id),
  license: compiled(schemas.license.$id),
  licenseUser: compiled(schemas.licenseUser.$id),
  document: compiled(schemas.document.$id),
} as const;

export type { ErrorObject };
