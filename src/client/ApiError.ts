// The error of a call the service answered with a failure: what was asked, what came back.

import { STATUS_CODES } from "node:http";
import type { Report } from "syncfile/internal/report/Report.js";

/**
 * A call answered with a status that is not a success. The message reads
 * `[PUT] /v1.0/services/sync/custom: 409 Conflict — another sync is running`.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  /** The request's method. */
  readonly method: string;
  /** The request's path, without its query (a signed URL's signature stays out of messages). */
  readonly path: string;
  readonly status: number;
  /** The body as JSON when it was JSON, else its text. */
  readonly body: unknown;
  /** The validation report the service sent with a 400 for an invalid file; null otherwise. */
  readonly report: Report | null;
  /** What the service's Retry-After asked for, in ms; null when it sent none. */
  readonly retryAfterMs: number | null;

  constructor(
    method: string,
    path: string,
    status: number,
    body: unknown,
    retryAfterMs: number | null = null,
    /** What was wrong, when the status was a success but the body was not what was asked for. */
    detail?: string,
  ) {
    super(
      `[${method}] ${path}: ${status} ${STATUS_CODES[status] ?? "Unknown status"} — ${detail ?? explain(body)}`,
    );
    this.method = method;
    this.path = path;
    this.status = status;
    this.body = body;
    this.report = reportOf(body);
    this.retryAfterMs = retryAfterMs;
  }
}

function explain(body: unknown): string {
  if (
    typeof body === "object" &&
    body !== null &&
    typeof (body as { message?: unknown }).message === "string"
  )
    return (body as { message: string }).message;
  const text = typeof body === "string" ? body.replace(/\s+/g, " ").trim() : JSON.stringify(body);
  if (!text) return "no message";
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function reportOf(body: unknown): Report | null {
  const report = (body as { report?: unknown } | null)?.report;
  if (typeof report !== "object" || report === null) return null;
  return Array.isArray((report as { findings?: unknown }).findings) ? (report as Report) : null;
}

/** Whether a 409's body is the guard's refusal (syncfile serve --max-deletes), not a sync running. */
export function refusedByGuard(body: unknown): boolean {
  return typeof body === "object" && body !== null && "guard" in body;
}
