// Access-review campaign executions, listed by bucket with their report archives.

import type { FastifyInstance } from "fastify";
import { badRequest, show } from "../HttpError.js";
import { route, type ServerContext } from "./_context.js";
import { limit1000, parameters } from "./_schemas.js";

const LIST = parameters({
  limit: limit1000,
  completedAfter: {
    type: "string",
    // the time and its zone are not optional: a date alone is read as UTC by some, local by others
    pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})$",
    "x-message":
      "completedAfter must be an ISO 8601 date-time with a time zone, such as 2026-01-31T00:00:00Z",
  },
});

export async function accessReviewsRoutes(app: FastifyInstance, { reviews }: ServerContext): Promise<void> {
  route(app, "listExecutions", { querystring: LIST }, async (request) => {
    const query = request.query as { limit?: string; completedAfter?: string };
    const completedAfter = query.completedAfter === undefined ? null : calendarTime(query.completedAfter);
    return reviews.list(Number(query.limit ?? 100), completedAfter);
  });
}

// the years the databases and the data rules share (PostgreSQL has no year 0)
const FIRST = Date.parse("0001-01-01T00:00:00Z");
const AFTER_LAST = Date.parse("+010000-01-01T00:00:00Z");

/**
 * A date-time of the schema's form that is also a real calendar date (no 30 February), in the
 * years 0001–9999 as written and in UTC.
 */
function calendarTime(value: string): Date {
  const [y, m, d] = value.slice(0, 10).split("-").map(Number) as [number, number, number];
  const month = new Date(0);
  month.setUTCFullYear(y, m, 0); // Date.UTC would read the years 0–99 as 1900–1999
  const time = new Date(value);
  if (m < 1 || m > 12 || d < 1 || d > month.getUTCDate() || Number.isNaN(time.getTime())) {
    throw badRequest(`completedAfter is not a calendar date: ${show(value)}`);
  }
  if (y < 1 || time.getTime() < FIRST || time.getTime() >= AFTER_LAST) {
    throw badRequest(`completedAfter must be a time in the years 0001 to 9999 (UTC), got ${show(value)}`);
  }
  return time;
}
