// What the syncs made of an app account: its state, and its active users page by page — after
// a cursor (each page says where the next starts), or at an offset (up to MAX_OFFSET).

import type { FastifyInstance } from "fastify";
import type { AppAccountUsers } from "../../http/operations.js";
import { badRequest, HttpError } from "../HttpError.js";
import { route, type ServerContext } from "./_context.js";
import { cursor, idText, limit1000, offset, parameters } from "./_schemas.js";

/**
 * The deepest offset answered: the database counts the rows before a page, so one at millions
 * took seconds of its time (and one key may ask 600 pages a minute); a cursor costs the same
 * at any depth.
 */
export const MAX_OFFSET = 100_000;

const ACCOUNT = parameters({ id: idText("id") }, ["id"]);
const PAGE = parameters({ limit: limit1000, offset, after: cursor });

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

  route(app, "appAccountUsers", { params: ACCOUNT, querystring: PAGE }, async (request) => {
    const id = Number((request.params as { id: string }).id);
    const query = request.query as { limit?: string; offset?: string; after?: string };
    if (query.after !== undefined && query.offset !== undefined) {
      throw badRequest("give after or offset, not both: after (the next of the page before) is the fast one");
    }
    if (Number(query.offset ?? 0) > MAX_OFFSET) {
      throw badRequest(
        `offset goes up to ${MAX_OFFSET}: go further with after, the next of the page before (each page gives it), which costs the same at any depth`,
      );
    }
    const limit = Number(query.limit ?? 100);
    const [cursorSync, after] = query.after?.split("-").map(Number) ?? [];
    const start = after !== undefined ? { after } : { offset: Number(query.offset ?? 0) };
    const page = await appAccounts.users(id, limit, start);
    if (!page) throw notSynced(id);
    if (cursorSync !== undefined && cursorSync !== page.syncId) {
      throw new HttpError(
        409,
        `app account ${id} was synced again since this cursor was given (sync ${cursorSync}, now ${page.syncId}): start again without after`,
      );
    }
    const body: AppAccountUsers = {
      idAppAccount: id,
      total: page.total,
      limit,
      ...(query.after !== undefined ? { after: query.after } : { offset: Number(query.offset ?? 0) }),
      next: page.last === null ? null : `${page.syncId}-${page.last}`,
      users: page.users,
    };
    return body;
  });
}
