// What the syncs made of an app account: its state, and its active users page by page.

import type { FastifyInstance } from "fastify";
import { badRequest, HttpError, parseId, parseLimit, show } from "../_http.js";
import { route, type ServerContext } from "./_context.js";

const notSynced = (id: number) =>
  new HttpError(
    404,
    `app account ${id} has not been synced yet: sync a file into it with PUT /v1.0/services/sync/custom`,
  );

export async function appAccountsRoutes(
  app: FastifyInstance,
  { appAccounts, displayCurrency }: ServerContext,
): Promise<void> {
  route(app, "appAccount", async (request) => {
    const id = parseId("id", (request.params as { id: string }).id);
    const state = await appAccounts.state(id, displayCurrency);
    if (!state) throw notSynced(id);
    return state;
  });
  route(app, "appAccountUsers", async (request) => {
    const id = parseId("id", (request.params as { id: string }).id);
    const query = request.query as Record<string, unknown>;
    const limit = parseLimit(query.limit, 100, 1000);
    const offset = query.offset === undefined ? 0 : parseOffset(query.offset);
    const users = await appAccounts.users(id, limit, offset);
    if (!users) throw notSynced(id);
    return users;
  });
}

function parseOffset(value: unknown): number {
  if (typeof value !== "string" || !/^\d{1,15}$/.test(value)) {
    throw badRequest(`offset must be a whole number of at least 0, got ${show(value)}`);
  }
  return Number(value);
}
