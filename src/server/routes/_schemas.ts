// The JSON Schemas of the routes' parameters and bodies, which fastify validates (and the
// OpenAPI document will show), each carrying the sentence a refusal says: `x-message` is
// followed by ", got <the value>", `x-refusal` is said as it is, `x-missing` when the value is
// absent (default: x-refusal, else x-message with ", got nothing").

/** The extension keywords: annotations to ajv, read by the error handler. */
export const MESSAGE_KEYWORDS = ["x-message", "x-refusal", "x-missing"] as const;

type Schema = Record<string, unknown>;

// ids have at most 15 digits: always a safe integer
const ID_PATTERN = "^[1-9]\\d{0,14}$";

/** An id in a path or a query: digits, at least 1. */
export const idText = (name: string): Schema => ({
  type: "string",
  pattern: ID_PATTERN,
  "x-message": `${name} must be a whole number of at least 1`,
});

/** The largest value of the database's int columns. */
export const INT32_MAX = 2_147_483_647;
// 1 to 2147483647 in digits: fewer than ten digits, or ten that stay at or under it place by place
const UP_TO_INT32 = [
  "[1-9]\\d{0,8}",
  "1\\d{9}",
  "20\\d{8}",
  "21[0-3]\\d{7}",
  "214[0-6]\\d{6}",
  "2147[0-3]\\d{5}",
  "21474[0-7]\\d{4}",
  "214748[0-2]\\d{3}",
  "2147483[0-5]\\d{2}",
  "21474836[0-3]\\d",
  "214748364[0-7]",
].join("|");

/**
 * A position in a query that the database keeps as a 32-bit int (a change's place in its sync):
 * 1 to 2147483647, so that a larger one is refused here rather than overflowing a statement.
 */
export const positionText = (name: string): Schema => ({
  type: "string",
  pattern: `^(?:${UP_TO_INT32})$`,
  "x-message": `${name} must be a whole number from 1 to ${INT32_MAX}`,
});

/** An id in a JSON body: a number or a string of digits, at least 1. */
export const idValue = (name: string): Schema => ({
  anyOf: [
    { type: "integer", minimum: 1, maximum: 999_999_999_999_999 },
    { type: "string", pattern: ID_PATTERN },
  ],
  "x-message": `${name} must be a whole number of at least 1`,
});

/** `limit` in a query: 1 to 1000. */
export const limit1000: Schema = {
  type: "string",
  pattern: "^(?:[1-9]\\d{0,2}|1000)$",
  "x-message": "limit must be a whole number from 1 to 1000",
};

/** `offset` in a query: 0 or more. */
export const offset: Schema = {
  type: "string",
  pattern: "^\\d{1,15}$",
  "x-message": "offset must be a whole number of at least 0",
};

/** `after` in a query: the `next` of the page before (the sync it is of, and a position). */
export const cursor: Schema = {
  type: "string",
  pattern: "^[1-9]\\d{0,14}-\\d{1,9}$",
  "x-message": "after must be the next of the page before, such as 12-99",
};

/** A text that must be there and not blank. */
export const requiredText = (name: string, hint: string): Schema => ({
  type: "string",
  pattern: "\\S",
  "x-refusal": `${name} is required: ${hint}`,
});

/** A JSON object body, `example` showing its form. */
export const objectBody = (example: string, properties: Record<string, Schema>): Schema => ({
  type: "object",
  required: Object.keys(properties),
  properties,
  "x-refusal": `the body must be a JSON object: ${example}`,
});

/** A query or path parameters object. */
export const parameters = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: "object",
  properties,
  required,
});
