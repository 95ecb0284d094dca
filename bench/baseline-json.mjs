// The in-memory baseline: read the whole file into a string, JSON.parse it, validate the
// document with ajv and the same schemas and formats syncfile uses.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const load = (name) =>
  JSON.parse(readFileSync(new URL(`../schemas/${name}.schema.json`, import.meta.url), "utf8"));
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv, ["email", "date", "date-time"]);
ajv.addSchema([load("license-user"), load("license"), load("user"), load("custom-integration")]);
const validate = ajv.getSchema("https://syncfile.dev/schemas/custom-integration.schema.json");

const doc = JSON.parse(readFileSync(process.argv[2], "utf8"));
const valid = validate(doc);
process.stdout.write(
  `${JSON.stringify({ valid, errors: validate.errors?.length ?? 0, users: doc.users.length })}\n`,
);
