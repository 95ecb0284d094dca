// Short, human descriptions of JSON values for messages: `"abc"`, `42`, `an array`.

const MAX_VALUE = 200;
const MAX_SHOWN = 60;

/** "a string", "a number", "null", "an array", "an object", "a boolean". */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}

/** A value as it would appear in JSON, shortened for a message. */
export function showValue(value: unknown): string {
  if (typeof value === "string") {
    const s = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
    return JSON.stringify(s);
  }
  if (value === null || typeof value === "number" || typeof value === "boolean") return String(value);
  return describeType(value);
}

/** The value kept in a finding: primitives only, strings cut to 200 characters. */
export function findingValue(value: unknown): unknown {
  if (typeof value === "string") return value.length > MAX_VALUE ? `${value.slice(0, MAX_VALUE)}…` : value;
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  return undefined;
}
