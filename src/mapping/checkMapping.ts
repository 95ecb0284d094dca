// A mapping document checked against schemas/mapping.schema.json (its compiled validator): each
// place that does not fit, said as the schema's `x-message` for it (status.values.Active must
// be "active" or "deleted"…). readMapping.ts puts them at their line and column.

import { schemas } from "../schema/schemas.js";
import { type ErrorObject, getValidators } from "../schema/validators.js";
import { escapePointer, pointerSegments } from "../text/pointer.js";
import type { MappingDocument } from "./MappingDocument.js";

/** A place in a mapping document that does not fit: its JSON Pointer and what is wrong. */
export interface MappingProblem {
  pointer: string;
  message: string;
}

const mappingSchema = schemas.mapping;
const FIELDS = Object.keys(mappingSchema.properties).filter((k) => k !== "$schema");

/** Every place in `document` that does not fit the schema, one sentence each, in document order. */
export function mappingProblems(document: unknown): MappingProblem[] {
  const validate = getValidators().mapping;
  if (validate(document)) return [];
  const byPlace = new Map<string, string>();
  // ajv lists what failed inside an anyOf before the anyOf itself: the last sentence of a place is its own
  for (const error of validate.errors ?? []) {
    const said = sentence(error);
    if (said) byPlace.set(said.pointer, said.message);
  }
  // a place inside another that is wrong is said alone (the inner one is the precise one)
  const places = [...byPlace.keys()];
  return places
    .filter((p) => !places.some((q) => q !== p && q.startsWith(`${p}/`)))
    .map((pointer) => ({ pointer, message: `${place(pointer)} ${byPlace.get(pointer)}` }));
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

/** An error's place and sentence: the nearest x-message above its keyword, or a sentence of its own. */
function sentence(error: ErrorObject): MappingProblem | null {
  if (error.keyword === "additionalProperties") {
    const name = (error.params as { additionalProperty: string }).additionalProperty;
    const pointer = `${error.instancePath}/${escapePointer(name)}`;
    const known = error.instancePath === "" ? `; a mapping has ${FIELDS.join(", ")}` : "";
    return { pointer, message: `is not a field of a mapping here${known}` };
  }
  if (error.keyword === "required") {
    const name = (error.params as { missingProperty: string }).missingProperty;
    return { pointer: error.instancePath, message: `needs ${name}` };
  }
  const message = xMessage(error.schemaPath);
  return message === null ? null : { pointer: error.instancePath, message };
}

/** The x-message of the schema the keyword at `schemaPath` belongs to, or of the nearest above it. */
function xMessage(schemaPath: string): string | null {
  const parts = pointerSegments(schemaPath.replace(/^#/, ""));
  parts.pop(); // the keyword
  for (let n = parts.length; n >= 0; n--) {
    let node: unknown = mappingSchema;
    for (const part of parts.slice(0, n)) node = (node as Record<string, unknown> | undefined)?.[part];
    const message = (node as Record<string, unknown> | undefined)?.["x-message"];
    if (typeof message === "string") return message;
  }
  return null;
}

/** A JSON Pointer as JavaScript reads it: /status/values/Active → status.values.Active. */
function place(pointer: string): string {
  const parts = pointerSegments(pointer);
  const path = parts.map((p) =>
    /^\d+$/.test(p) ? `[${p}]` : /^[A-Za-z_$][\w$]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`,
  );
  const text = path.join("");
  return text === "" ? "the mapping" : text.startsWith(".") ? text.slice(1) : text;
}
