// Errors as the interface returns them ({statusCode, error, message}), and values shown in
// their messages. (Parameters are checked by fastify against each route's schema.)

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

/** The 413 of a file over the server's upload limit (`how`: what to do instead). */
export const tooLarge = (limit: number, how = "") =>
  new HttpError(413, `the file is larger than the limit of ${limit} bytes${how}`);

/** A 400 that says `message`. */
export const badRequest = (message: string, extra: Record<string, unknown> = {}) =>
  new HttpError(400, message, extra);

/** A value for a message: strings quoted, the rest as JSON, cut to 80 characters. */
export function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
