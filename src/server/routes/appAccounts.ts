// What the syncs made of an app account: its state, and its active users page by page.

import type { FastifyInstance } from "fastify";
import { HttpError } from "../_http.js";
import { route, type ServerContext } from "./_context.js";
import { idText, limit1000, offset, parameters } from "./_schemas.js";

const ACCOUNT = parameters({ id: idText("id") }, ["id"]);

const notSynced = (id: number) =>
  new HttpError(
    404,
    `app account ${id} has not been synced yet: sync a file into it with PUT /v1.0/services/sync/custom`,
  );

export async function appAccountsRoutes(
  app: FastifyInstance,
  { appAccounts, displayCurrency }: ServerContext,
): Promise<void> {
  route(app, "appAccount", { params: ACCOUNT }, async (request) => {
    const id = Number((request.params as { id: string }).id);
    const state = await appAccounts.state(id, displayCurrency);
    if (!state) throw notSynced(id);
    return state;
  });
  const page = parameters({ limit: limit1000, offset });
  route(app, "appAccountUsers", { params: ACCOUNT, querystring: page }, async (request) => {
    const id = Number((request.params as { id: string }).id);
    const query = request.query as { limit?: string; offset?: string };
    const users = await appAccounts.users(id, Number(query.limit ?? 100), Number(query.offset ?? 0));
    if (!users) throw notSynced(id);
    return users;
  });
}
