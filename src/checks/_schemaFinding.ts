// Maps an ajv error on one record to a catalog code, the path it concerns and its params.

import type { ErrorObject } from "ajv/dist/2020.js";
import type { DataRecord } from "../model/DataRecord.js";
import { type Code, isCode } from "../report/catalog.js";
import { describeType, showValue } from "../report/describe.js";
import { suggest } from "../text/suggest.js";
import type { FindingSpec } from "./Check.js";

const PREFIX = { user: "user", license: "license", licenseUser: "license.user" } as const;
const PROBLEM: Readonly<Record<string, string>> = {
  format: "format",
  anyOf: "format",
  enum: "enum",
  minLength: "empty",
  minimum: "negative",
  maximum: "range",
  pattern: "range", // the schemas bound a value with a pattern only for its range (lastUsedDate's year)
};

/** The finding for one ajv error, or null for errors that another one already covers. */
export function schemaFinding(
  record: DataRecord,
  error: ErrorObject,
): { code: Code; spec: FindingSpec } | null {
  // the branches of an anyOf are summed up by the anyOf error itself
  if (error.schemaPath.includes("/anyOf/")) return null;
  const path = error.instancePath === "" ? [] : error.instancePath.slice(1).split("/").map(pathSegment);
  const prefix = PREFIX[record.kind];
  let code: string;
  let spec: FindingSpec;
  if (path.length === 0) {
    if (error.keyword === "required") {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      return known(`${prefix}.${missing}.required`, { field: missing });
    }
    code = `${prefix}.${error.keyword}`;
    spec = valueSpec(record.value, []);
  } else {
    const value = valueAt(record.value, path);
    spec = valueSpec(value, path);
    const field = path[0] as string;
    if (path.length === 2 && field === "roles") code = "user.roles.item";
    else if (
      error.keyword === "type" &&
      (error.params as { type?: unknown }).type === "integer" &&
      typeof value === "number" &&
      !Number.isInteger(value)
    ) {
      code = `${prefix}.${field}.fraction`;
    } else code = `${prefix}.${field}.${PROBLEM[error.keyword] ?? error.keyword}`;
    if (error.keyword === "enum" && typeof value === "string") {
      const suggestion = suggest(value, error.params.allowedValues as string[]);
      if (suggestion) spec.hint = `did you mean "${suggestion}"? Values are lower case.`;
    }
  }
  return known(code, spec);
}

function known(code: string, spec: FindingSpec): { code: Code; spec: FindingSpec } {
  // a schema error the catalog has no code for is a bug of ours, not of the file
  if (!isCode(code)) throw new Error(`no catalog code for schema error ${code}`);
  return { code, spec };
}

function valueSpec(
  value: unknown,
  path: (string | number)[],
): FindingSpec & { params: Record<string, string> } {
  return { path, value, params: { actual: describeType(value), value: showValue(value) } };
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let v = root;
  for (const segment of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string | number, unknown>)[segment];
  }
  return v;
}

function pathSegment(segment: string): string | number {
  return /^\d+$/.test(segment) ? Number(segment) : segment.replace(/~1/g, "/").replace(/~0/g, "~");
}
