// A mapping document checked against schemas/mapping.schema.json (its compiled validator): each
// place that does not fit, said as the schema's `x-message` for it (status.values.Active must
// be "active" or "deleted"…). readMapping.ts puts them at their line and column.

import { type SchemaProblem, schemaProblems } from "../schema/schemaProblems.js";
import { schemas } from "../schema/schemas.js";
import { getValidators } from "../schema/validators.js";
import type { MappingDocument } from "./MappingDocument.js";

/** A place in a mapping document that does not fit: its JSON Pointer and what is wrong. */
export type MappingProblem = SchemaProblem;

const mappingSchema = schemas.mapping;
const FIELDS = Object.keys(mappingSchema.properties).filter((k) => k !== "$schema");

/** How a mapping's problems name it. */
const WORDS = {
  whole: "the mapping",
  unknown: (pointer: string) =>
    `is not a field of a mapping here${pointer === "" ? `; a mapping has ${FIELDS.join(", ")}` : ""}`,
};

/** Every place in `document` that does not fit the schema, one sentence each, in document order. */
export function mappingProblems(document: unknown): MappingProblem[] {
  return schemaProblems(mappingSchema, getValidators().mapping, document, WORDS);
}

/** The first problem of `document` as one sentence, or null when it is a mapping. */
export function checkMapping(document: unknown): string | null {
  const [first] = mappingProblems(document);
  return first ? first.message : null;
}

/** Whether `document` is a mapping document. */
export function isMapping(document: unknown): document is MappingDocument {
  return getValidators().mapping(document) as boolean;
}
