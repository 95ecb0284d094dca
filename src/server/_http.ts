// Errors as the interface returns them ({statusCode, error, message}), and the parsing of the
// parameters every route takes, each with a message that says what is wrong and how to fix it.

import { STATUS_CODES } from "node:http";

/** An error answered as `{statusCode, error, message}` (plus `report` for an invalid file). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** The response body. */
  body(): { statusCode: number; error: string; message: string } & Record<string, unknown> {
    return {
      statusCode: this.statusCode,
      error: STATUS_CODES[this.statusCode] ?? "Error",
      message: this.message,
      ...this.extra,
    };
  }
}

/** A 400 for `what`. */
export const badRequest = (message: string, extra: Record<string, unknown> = {}) =>
  new HttpError(400, message, extra);

/** An id: a whole number ≥ 1, written as digits (a JSON number or a string of digits in bodies). */
export function parseId(name: string, value: unknown): number {
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !/^[1-9]\d{0,15}$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw badRequest(`${name} must be a whole number of at least 1, got ${show(value)}`);
  }
  return Number(text);
}

/** `limit`: 1..max, `fallback` when absent. */
export function parseLimit(value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw badRequest(`limit must be a whole number from 1 to ${max}, got ${show(value)}`);
  }
  return Number(value);
}

/** An ISO 8601 date-time with a time zone (or a date, meaning its midnight UTC); null when absent. */
export function parseTimestamp(name: string, value: unknown): Date | null {
  if (value === undefined) return null;
  const ok =
    typeof value === "string" &&
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(value) &&
    !Number.isNaN(Date.parse(value));
  if (!ok) {
    throw badRequest(
      `${name} must be an ISO 8601 date-time with a time zone, such as 2026-01-31T00:00:00Z, got ${show(value)}`,
    );
  }
  const [y, m, d] = (value as string).slice(0, 10).split("-").map(Number) as [number, number, number];
  const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth)
    throw badRequest(`${name} is not a calendar date: ${show(value)}`);
  return new Date(value as string);
}

/** A required non-empty string parameter. */
export function requireString(name: string, value: unknown, hint: string): string {
  if (typeof value !== "string" || value.trim() === "") throw badRequest(`${name} is required: ${hint}`);
  return value;
}

/** A value for a message: strings quoted, the rest as JSON, cut to 80 characters. */
export function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
