// The compiled validators of the data file's schemas. They are compiled ahead of time
// (scripts/compile-schemas.mjs writes _compiled.ts): a process that validates loads neither
// ajv's compiler nor compiles at its start, in the thread that checks.

import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import * as compiled from "./_compiled.js";

/** The compiled validators by record kind, and for a whole (small) document. */
export interface Validators {
  user: ValidateFunction;
  license: ValidateFunction;
  licenseUser: ValidateFunction;
  document: ValidateFunction;
  csvRow: ValidateFunction;
  /** A mapping document (schemas/mapping.schema.json), every error. */
  mapping: ValidateFunction;
  /** A job file (schemas/job.schema.json), every error. */
  job: ValidateFunction;
}

const validators = compiled as unknown as Validators;

/** The validators. */
export function getValidators(): Validators {
  return validators;
}

export type { ErrorObject, ValidateFunction };
