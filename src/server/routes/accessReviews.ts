// Access-review campaign executions, listed by bucket with their report archives.

import type { FastifyInstance } from "fastify";
import { badRequest, show } from "../HttpError.js";
import { route, type ServerContext } from "./_context.js";
import { limit1000, parameters } from "./_schemas.js";

const LIST = parameters({
  limit: limit1000,
  completedAfter: {
    type: "string",
    pattern: "^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2}))?$",
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

/** A date-time of the schema's form that is also a real calendar date (no 30 February). */
function calendarTime(value: string): Date {
  const [y, m, d] = value.slice(0, 10).split("-").map(Number) as [number, number, number];
  const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const time = new Date(value);
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth || Number.isNaN(time.getTime())) {
    throw badRequest(`completedAfter is not a calendar date: ${show(value)}`);
  }
  return time;
}
