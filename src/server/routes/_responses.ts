// The JSON Schemas of what each operation answers on success (the shapes of
// src/http/operations.ts): fastify serialises the answers with them, and the OpenAPI document
// shows them, so a client generated from it reads what the server sends.

type Schema = Record<string, unknown>;

const integer = { type: "integer" };
const text = { type: "string" };
const count = { type: "integer", minimum: 0 };
const dateTime = { type: "string", format: "date-time" };
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: "null" }] });

/** An object with exactly these properties, all required but `optional`. */
const object = (properties: Record<string, Schema>, optional: readonly string[] = []): Schema => ({
  type: "object",
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  properties,
  additionalProperties: false,
});

export const UPLOAD_URL = object({
  uploadFileParameters: object({
    url: {
      type: "string",
      format: "uri",
      description: "where to PUT the bytes, with the Content-Type given",
    },
    filePath: { type: "string", description: "what to register with POST /v1.0/files" },
  }),
});

export const REGISTERED = object({ id: { ...integer, description: "the file's id" } });

const SUMMARY_PROPERTIES: Record<string, Schema> = {
  idSync: integer,
  idFile: integer,
  idAppAccount: integer,
  format: { type: "string", enum: ["json", "csv"] },
  users: count,
  activeUsers: count,
  licenses: count,
  licenseUsers: count,
  warnings: count,
  displayCurrency: text,
  durationMs: count,
};

export const SYNCED = object({
  success: { type: "boolean", const: true, description: "as the service's reference answers" },
  ...SUMMARY_PROPERTIES,
});

const EXECUTION = object({
  id: integer,
  campaignId: integer,
  campaignName: text,
  state: { type: "string", enum: ["inProgress", "completed", "endedEarly", "archived"] },
  startTime: dateTime,
  completionTime: nullable(dateTime),
  reportFileId: { ...nullable(integer), description: "the report archive; null while it is being made" },
});

export const EXECUTIONS = object({
  completedExecutions: { type: "array", items: EXECUTION },
  archivedExecutions: { type: "array", items: EXECUTION },
  inProgressExecutions: { type: "array", items: EXECUTION },
});

const byStatus = (statuses: readonly string[]) => object(Object.fromEntries(statuses.map((s) => [s, count])));

export const APP_ACCOUNT = object({
  idAppAccount: integer,
  lastSync: object(
    { ...SUMMARY_PROPERTIES, finishedAt: nullable(dateTime) },
    Object.keys(SUMMARY_PROPERTIES), // the summary of a sync made by an older server may lack some
  ),
  displayCurrency: text,
  users: byStatus(["active", "deleted"]),
  licenses: {
    type: "array",
    items: object({
      name: text,
      pricePerUser: { ...nullable(integer), description: "in the display currency's minor unit" },
      currency: text,
      unassignedAmount: nullable(integer),
      users: byStatus(["active", "inactive", "deleted"]),
    }),
  },
});

const USER = object(
  {
    email: text,
    id: text,
    firstName: text,
    lastName: text,
    externalStatus: text,
    roles: { type: "array", items: text },
    lastUsedDate: { type: "string", format: "date" },
    licenses: { type: "array", items: object({ name: text, licenseStatus: text }) },
  },
  ["id", "firstName", "lastName", "externalStatus", "roles", "lastUsedDate"],
);

export const APP_ACCOUNT_USERS = object(
  {
    idAppAccount: integer,
    total: { ...count, description: "the account's active users" },
    limit: integer,
    offset: { ...count, description: "when the page was asked for by offset" },
    after: { ...text, description: "when the page was asked for by cursor" },
    next: { ...nullable(text), description: "pass it as after for the next page; null on the last page" },
    users: { type: "array", items: USER },
  },
  ["offset", "after"],
);
