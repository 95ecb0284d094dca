// The JSON Schemas of what each operation answers on success (the shapes of
// src/http/operations.ts): fastify serialises the answers with them, and the OpenAPI document
// shows them, so a client generated from it reads what the server sends.

import { CHANGE_KINDS } from "syncfile/internal/diff/Change.js";

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

export const FILE_INFORMATION = object({
  file: object({
    id: integer,
    type: { type: "string", enum: ["customIntegrationData", "expenseReport", "attachment", "plugin"] },
    fileName: { ...text, description: "the name it was uploaded under" },
    creationTime: { ...dateTime, description: "when it was registered" },
    uploadedBy: {
      ...nullable(integer),
      description:
        "the API key that registered it: its place (from 1) in the server's list; null for a file registered before syncfile kept it",
    },
  }),
});

const COUNTS = {
  ...object(Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, count]))),
  description: "how many changes of each kind, as syncfile diff counts them",
};

const SYNCED_BY = {
  ...nullable(integer),
  description:
    "the API key that made the sync: its place (from 1) in the server's list, as a file's uploadedBy; null for a sync made before syncfile kept it",
};

const CHANGES = object({
  previousSync: {
    ...nullable(integer),
    description:
      "the sync whose state it was compared with; null for the account's first sync (all it holds is added)",
  },
  counts: COUNTS,
  deletes: { ...count, description: "users taken away: active before, and removed or deactivated" },
});

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
  changes: { ...CHANGES, description: "what the sync changed in the account (syncfile's own)" },
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
    { ...SUMMARY_PROPERTIES, finishedAt: nullable(dateTime), syncedBy: SYNCED_BY },
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

export const SYNC_LIST = object(
  {
    idAppAccount: integer,
    limit: integer,
    after: { ...text, description: "when the page was asked for by cursor" },
    next: { ...nullable(text), description: "pass it as after for the next page; null on the last page" },
    maxDeletes: {
      ...count,
      description:
        "this server's guard (serve --max-deletes): a sync taking away more users is refused (409) unless sent with syncfile-allow-deletes: true; 0: off",
    },
    syncs: {
      type: "array",
      items: object({
        idSync: integer,
        idFile: integer,
        format: { type: "string", enum: ["json", "csv"] },
        state: {
          type: "string",
          enum: ["running", "applied", "invalid", "refused", "rejected", "failed", "abandoned"],
          description:
            "applied: it made the account's state (now, when current); invalid: its file was; refused: by the guard (--max-deletes); rejected: another sync was running; failed, abandoned: it broke off, or its server stopped",
        },
        current: { type: "boolean", description: "it made the account's state now" },
        startedAt: dateTime,
        finishedAt: nullable(dateTime),
        users: { ...nullable(count), description: "its file's users, once applied" },
        activeUsers: nullable(count),
        changes: {
          ...nullable(CHANGES),
          description: "what it changed (refused: would have); null: never compared",
        },
        changesKept: { type: "boolean", description: "its changes can be listed" },
        syncedBy: SYNCED_BY,
      }),
    },
  },
  ["after"],
);

export const SYNC_CHANGES = object(
  {
    idAppAccount: integer,
    idSync: integer,
    syncedBy: SYNCED_BY,
    previousSync: nullable(integer),
    counts: COUNTS,
    limit: integer,
    after: { ...text, description: "when the page was asked for by cursor" },
    next: { ...nullable(text), description: "pass it as after for the next page; null on the last page" },
    changes: {
      type: "array",
      description: "each as a line of `syncfile diff --format json`; none for an account's first sync",
      items: {
        type: "object",
        required: ["kind"],
        properties: { kind: { type: "string", enum: [...CHANGE_KINDS] } },
        additionalProperties: true,
      },
    },
  },
  ["after"],
);
