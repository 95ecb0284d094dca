// Access-review campaign executions, listed by bucket with their report archives.

import type { FastifyInstance } from "fastify";
import { parseLimit, parseTimestamp } from "../_http.js";
import { route, type ServerContext } from "./_context.js";

export async function accessReviewsRoutes(
  app: FastifyInstance,
  { reviews, clock }: ServerContext,
): Promise<void> {
  route(app, "listExecutions", async (request) => {
    const query = request.query as Record<string, unknown>;
    const limit = parseLimit(query.limit, 100, 1000);
    const completedAfter = parseTimestamp("completedAfter", query.completedAfter);
    return reviews.list(limit, completedAfter, clock());
  });
}
