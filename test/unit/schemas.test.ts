// The schemas are valid JSON Schema 2020-12: checked here once, against the meta-schema, since
// the validators skip that check at every start (src/schema/validators.ts).

import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { schemas } from "../../src/schema/schemas.js";
import { addFormats, getValidators } from "../../src/schema/validators.js";

describe("the schemas", () => {
  it.each(Object.entries(schemas))("%s is valid against the 2020-12 meta-schema", (_name, schema) => {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
    addFormats(ajv, ["email", "date", "date-time"]);
    expect(ajv.validateSchema(schema), ajv.errorsText(ajv.errors)).toBe(true);
  });

  it("would catch a schema that breaks the meta-schema: a type misspelt, required not a list", () => {
    const ajv = new Ajv2020();
    expect(ajv.validateSchema({ type: "object", properties: { email: { type: "strnig" } } })).toBe(false);
    expect(ajv.validateSchema({ type: "object", required: "email" })).toBe(false);
  });

  it("compile into the validators the checks use", () => {
    const validators = getValidators();
    expect(validators.user({ email: "ada@example.com" })).toBe(true);
    expect(validators.user({ email: "not an email" })).toBe(false);
  });
});
