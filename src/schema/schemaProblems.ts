// A document checked against one of the JSON Schemas (its compiled validator): each place
// that does not fit, said as the schema's `x-message` for it (status.values.Active must be
// "active" or "deleted"…), an unknown property as not a field of it, a missing one as needed.
// The mapping document and the job file say their mistakes so, each at its line and column.

import { escapePointer, pointerSegments } from "../text/pointer.js";
import type { ErrorObject, ValidateFunction } from "./validators.js";

/** A place in a document that does not fit: its JSON Pointer and what is wrong. */
export interface SchemaProblem {
  pointer: string;
  message: string;
  /** A field the schema does not know: the pointer ends with its name. */
  unknown?: true;
}

/** How a kind of document is named in its problems. */
export interface DocumentWords {
  /** The whole document, where a problem is of it all: "the mapping". */
  whole: string;
  /** What a property the schema does not know at `pointer` is ("is not a field of a mapping here"). */
  unknown(pointer: string, known: readonly string[]): string;
}

type SchemaNode = Record<string, unknown>;

/**
 * Every place in `document` that does not fit `schema` (which `validate` is compiled from), one
 * sentence each, in document order, a place inside another that is wrong said alone.
 */
export function schemaProblems(
  schema: object,
  validate: ValidateFunction,
  document: unknown,
  words: DocumentWords,
): SchemaProblem[] {
  if (validate(document)) return [];
  const byPlace = new Map<string, SchemaProblem>();
  // ajv lists what failed inside an anyOf before the anyOf itself: the last sentence of a place is its own
  for (const error of validate.errors ?? []) {
    const said = sentence(schema as SchemaNode, error, words);
    if (said) byPlace.set(said.pointer, said);
  }
  // a place inside another that is wrong is said alone (the inner one is the precise one): each
  // place marks the places above it, a pass over its own pointer, not a search of the others
  const outer = new Set<string>();
  for (const pointer of byPlace.keys()) {
    for (let end = pointer.lastIndexOf("/"); end >= 0; end = pointer.lastIndexOf("/", end - 1)) {
      const above = pointer.slice(0, end);
      if (outer.has(above)) break; // and what is above it, already
      outer.add(above);
      if (end === 0) break;
    }
  }
  return [...byPlace]
    .filter(([pointer]) => !outer.has(pointer))
    .map(([pointer, said]) => ({ ...said, message: `${place(pointer, words.whole)} ${said.message}` }));
}

/** The properties a document may have at `pointer`, as the schemas that apply there list them. */
export function knownFields(schema: object, pointer: string): string[] {
  const names = new Set<string>();
  for (const node of schemasAt(schema as SchemaNode, pointerSegments(pointer))) {
    for (const name of Object.keys((node.properties as object | undefined) ?? {})) {
      if (name !== "$schema") names.add(name);
    }
  }
  return [...names];
}

/** An error's place and sentence: the nearest x-message above its keyword, or a sentence of its own. */
function sentence(schema: SchemaNode, error: ErrorObject, words: DocumentWords): SchemaProblem | null {
  if (error.keyword === "additionalProperties") {
    const name = (error.params as { additionalProperty: string }).additionalProperty;
    const pointer = `${error.instancePath}/${escapePointer(name)}`;
    return {
      pointer,
      message: words.unknown(error.instancePath, knownFields(schema, error.instancePath)),
      unknown: true,
    };
  }
  if (error.keyword === "required") {
    const name = (error.params as { missingProperty: string }).missingProperty;
    return { pointer: error.instancePath, message: `needs ${name}` };
  }
  const message = xMessage(schema, error.schemaPath, error.instancePath);
  return message === null ? null : { pointer: error.instancePath, message };
}

/**
 * The x-message nearest above the keyword that failed. ajv's schemaPath starts at the schema it
 * compiled as a function of its own (a $ref's target, a property's schema), so it is followed
 * from each schema that applies at the instance's place or at one of its parents, the innermost
 * place first, until it leads somewhere; then up from there to the first x-message.
 */
function xMessage(schema: SchemaNode, schemaPath: string, instancePath: string): string | null {
  const relative = pointerSegments(schemaPath.replace(/^#/, ""));
  relative.pop(); // the keyword
  const place = pointerSegments(instancePath);
  for (let depth = place.length; depth >= 0; depth--) {
    for (const start of schemasAt(schema, place.slice(0, depth))) {
      const trail: SchemaNode[] = [start];
      for (const part of relative) {
        const next = (trail[trail.length - 1] as SchemaNode)[part];
        if (next === null || typeof next !== "object") break;
        trail.push(next as SchemaNode);
      }
      if (trail.length !== relative.length + 1) continue; // not where this path starts
      for (let k = trail.length - 1; k >= 0; k--) {
        const message = (trail[k] as SchemaNode)["x-message"];
        if (typeof message === "string") return message;
      }
    }
  }
  return null;
}

/** Every schema that applies at `place` (its $ref targets and anyOf branches too), the outer first. */
function schemasAt(schema: SchemaNode, place: readonly string[]): SchemaNode[] {
  let found = expand(schema, schema);
  for (const part of place) {
    const next: SchemaNode[] = [];
    for (const node of found) {
      const properties = node.properties as Record<string, SchemaNode> | undefined;
      const step =
        properties?.[part] ??
        (/^\d+$/.test(part) ? (node.items as SchemaNode | undefined) : undefined) ??
        (typeof node.additionalProperties === "object"
          ? (node.additionalProperties as SchemaNode)
          : undefined);
      if (step) next.push(...expand(schema, step));
    }
    found = next;
  }
  return found;
}

/** A schema, then what its $ref and anyOf branches are, recursively. */
function expand(schema: SchemaNode, node: SchemaNode): SchemaNode[] {
  const out = [node];
  if (typeof node.$ref === "string") {
    const target = pointerSegments(node.$ref.replace(/^#/, "")).reduce<unknown>(
      (at, part) => (at as SchemaNode | undefined)?.[part],
      schema,
    );
    if (target && typeof target === "object") out.push(...expand(schema, target as SchemaNode));
  }
  for (const branch of (node.anyOf as SchemaNode[] | undefined) ?? []) out.push(...expand(schema, branch));
  return out;
}

/** A JSON Pointer as JavaScript reads it: /status/values/Active → status.values.Active. */
export function place(pointer: string, whole: string): string {
  const parts = pointerSegments(pointer);
  const path = parts.map((p) =>
    /^\d+$/.test(p) ? `[${p}]` : /^[A-Za-z_$][\w$]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`,
  );
  const text = path.join("");
  return text === "" ? whole : text.startsWith(".") ? text.slice(1) : text;
}
