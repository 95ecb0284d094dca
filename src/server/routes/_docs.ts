// What the OpenAPI document says of each operation beyond its input schemas: a summary, its
// area, its rate limit, what it answers and the error body every refusal has, with examples.

import { EXTENSIONS, OPERATIONS, type Operation, RATE_WINDOW_MS } from "syncfile/internal/http/operations.js";
import {
  APP_ACCOUNT,
  APP_ACCOUNT_USERS,
  EXECUTIONS,
  FILE_INFORMATION,
  REGISTERED,
  SYNC_CHANGES,
  SYNC_LIST,
  SYNCED,
  UPLOAD_URL,
} from "./_responses.js";

type Schema = Record<string, unknown>;

/** Every error answer: the interface's body; `report` when a file to sync is invalid. */
export const ERROR_BODY: Schema = {
  type: "object",
  required: ["statusCode", "error", "message"],
  properties: {
    statusCode: { type: "integer" },
    error: { type: "string" },
    message: { type: "string", description: "what is wrong, and how to fix it" },
    report: {
      type: "object",
      additionalProperties: true,
      description:
        "a sync of an invalid file: the validation report (the same as `syncfile validate --format json`)",
    },
  },
  additionalProperties: true,
  examples: [
    {
      statusCode: 400,
      error: "Bad Request",
      message: "idAppAccount must be a whole number of at least 1, got nothing",
    },
  ],
};

const SYNC_ANSWER =
  "success: true and the sync's summary, with what it changed in the account; an invalid file is a 400 with its report, a running sync a 409";

const SYNC_CONFLICT = [
  409,
  "another sync is running: try again in a few seconds; or the sync would take away more users than the server's --max-deletes (its body's guard lists them; nothing was applied): send it again with the header syncfile-allow-deletes: true to go ahead",
] as const;

interface OperationDoc {
  summary: string;
  tag: "files" | "syncs" | "access reviews" | "app accounts";
  /** The success status, what it holds, and its schema (none: no body). */
  status: number;
  answer: string;
  body?: Schema;
  example?: unknown;
  /** Error statuses the operation answers besides 400, 401 and 429 (with what they mean here). */
  errors?: readonly (number | readonly [number, string])[];
}

const DOCS: Readonly<Record<Operation, OperationDoc>> = {
  fileUploadUrl: {
    summary: "A URL to upload a file to (step 1 of 3)",
    tag: "files",
    status: 200,
    body: UPLOAD_URL,
    answer:
      "the signed storage URL to PUT the file to, with the Content-Type given, and the filePath to register",
    example: {
      uploadFileParameters: {
        url: "http://127.0.0.1:8080/storage/1767225600000/users.json?X-Expires=…",
        filePath: "1767225600000/users.json",
      },
    },
  },
  registerFile: {
    summary: "Register an uploaded file (step 3 of 3)",
    tag: "files",
    status: 200,
    body: REGISTERED,
    answer: "the new file's id",
    example: { id: 7 },
  },
  uploadSmallFile: {
    summary: "Upload a file of up to 3 MiB in one request",
    tag: "files",
    status: 200,
    body: REGISTERED,
    answer:
      "the new file's id: the file is stored and registered at once (.csv .xls .xlsx .pdf .doc .docx .png .jpg .jpeg .xml .json .zip)",
    example: { id: 8 },
    errors: [
      [
        413,
        "the file is larger than 3 MiB (3 145 728 bytes): upload it with GET /v1.0/files/url, PUT and POST /v1.0/files",
      ],
      [415, "not a type of file this takes (by its name's extension)"],
    ],
  },
  fileInformation: {
    summary: "A file's information",
    tag: "files",
    status: 200,
    body: FILE_INFORMATION,
    answer: "the file's id, type, name, when it was registered and which API key registered it",
    example: {
      file: {
        id: 7,
        type: "customIntegrationData",
        fileName: "users.json",
        creationTime: "2026-01-01T00:00:00.000Z",
        uploadedBy: 1,
      },
    },
    errors: [
      [
        404,
        "no such file, or not of the type asked for (expenseReport when no type is given, as the service's document says)",
      ],
    ],
  },
  downloadFile: {
    summary: "Download a file",
    tag: "files",
    status: 302,
    answer: "a redirect to a signed storage URL valid for a minute",
    errors: [404],
  },
  syncCustom: {
    summary: "Sync a JSON custom integration data file into an app account",
    tag: "syncs",
    status: 200,
    body: SYNCED,
    answer: SYNC_ANSWER,
    errors: [404, SYNC_CONFLICT],
  },
  syncGluu: {
    summary: "Sync a CSV custom integration data file into an app account",
    tag: "syncs",
    status: 200,
    body: SYNCED,
    answer: SYNC_ANSWER,
    errors: [404, SYNC_CONFLICT],
  },
  syncCustomCsv: {
    summary:
      "Sync a CSV custom integration data file into an app account: an alias of PUT /v1.0/services/sync/gluu, counted in its rate limit",
    tag: "syncs",
    status: 200,
    body: SYNCED,
    answer: SYNC_ANSWER,
    errors: [404, SYNC_CONFLICT],
  },
  listExecutions: {
    summary: "Access-review campaign executions, by state, with their report archives",
    tag: "access reviews",
    status: 200,
    body: EXECUTIONS,
    answer:
      "the executions in progress, completed and archived; a completed one's reportFileId downloads its archive",
  },
  appAccount: {
    summary: "What the last sync made of an app account",
    tag: "app accounts",
    status: 200,
    body: APP_ACCOUNT,
    answer: "the account's users and licenses as synced",
    errors: [404],
  },
  appAccountUsers: {
    summary: "An app account's active users, page by page",
    tag: "app accounts",
    status: 200,
    body: APP_ACCOUNT_USERS,
    answer:
      "a page of users with their licenses, the total, and next: the cursor to pass as after for the next page (fast at any depth, unlike offset)",
    errors: [
      404,
      [409, "the account was synced again since the cursor was given: start again without after"],
    ],
  },
  appAccountSyncs: {
    summary: "An app account's syncs, newest first",
    tag: "app accounts",
    status: 200,
    body: SYNC_LIST,
    answer:
      "each sync: when, which file, how it ended, and what it changed (counts, and the users it took away); next: the cursor to pass as after for the next page",
    errors: [404],
  },
  syncChanges: {
    summary: "What a sync changed in an app account, page by page",
    tag: "app accounts",
    status: 200,
    body: SYNC_CHANGES,
    answer:
      "the sync's changes against the state before it, in the order and the form of syncfile diff --format json (kind= filters), and next: the cursor to pass as after",
    errors: [
      [404, "no such sync of the account, or a sync never compared (an invalid file, a rejected sync)"],
      [410, "its changes are no longer kept: an account keeps those of its last 20 compared syncs"],
    ],
  },
};

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "a parameter or the body is not right; the message says which and how to fix it",
  401: "no API key, or not one of the service's: send Authorization: Bearer <key>",
  404: "no such file or app account",
  409: "another sync is running: try again in a few seconds",
  429: "the rate limit: Retry-After says when to try again",
};

/** The OpenAPI parts of `operation`'s route schema. */
export function operationDocs(operation: Operation): Schema {
  const doc = DOCS[operation];
  const { perMinute } = OPERATIONS[operation];
  const success: Schema = doc.body
    ? { ...doc.body, description: doc.answer, ...(doc.example ? { examples: [doc.example] } : {}) }
    : { description: doc.answer, type: "null" };
  const response: Record<string, Schema> = { [doc.status]: success };
  for (const error of [400, 401, ...(doc.errors ?? []), 429]) {
    const [status, text] = typeof error === "number" ? [error, STATUS_TEXT[error]] : error;
    response[status] = { ...ERROR_BODY, description: text };
  }
  const extension = EXTENSIONS.has(operation);
  return {
    operationId: operation,
    summary: doc.summary,
    ...(extension ? { "x-syncfile-extension": true } : {}),
    description: `${extension ? "syncfile's own: not in the service's interface document. " : ""}${doc.summary}. Rate limit: ${perMinute} calls a minute per API key (a sliding window; RateLimit-* headers on every answer).`,
    tags: [doc.tag],
    security: [{ apiKey: [] }],
    "x-rate-limit": { perMinute, windowSeconds: RATE_WINDOW_MS / 1000 },
    response,
  };
}
