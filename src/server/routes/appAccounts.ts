// What the syncs made of an app account: its state, and its active users page by page — after
// a cursor (each page says where the next starts), or at an offset (up to MAX_OFFSET); and its
// history: its syncs, newest first, and what each changed, page by page after a cursor.

import type { FastifyInstance } from "fastify";
import { CHANGE_KINDS, type Change } from "syncfile/internal/diff/Change.js";
import {
  type AppAccountUsers,
  KEPT_CHANGES,
  type SyncChangesPage,
  type SyncList,
} from "syncfile/internal/http/operations.js";
import { badRequest, HttpError } from "../HttpError.js";
import { route, type ServerContext } from "./_context.js";
import { cursor, idText, limit1000, offset, parameters, positionText } from "./_schemas.js";

/**
 * The deepest offset answered: the database counts the rows before a page, so one at millions
 * took seconds of its time (and one key may ask 600 pages a minute); a cursor costs the same
 * at any depth.
 */
export const MAX_OFFSET = 100_000;

const ACCOUNT = parameters({ id: idText("id") }, ["id"]);
const PAGE = parameters({ limit: limit1000, offset, after: cursor });
const ACCOUNT_SYNC = parameters({ id: idText("id"), syncId: idText("syncId") }, ["id", "syncId"]);
const SYNCS_PAGE = parameters({ limit: limit1000, after: idText("after") });
const CHANGES_PAGE = parameters({
  limit: limit1000,
  after: positionText("after"),
  kind: {
    type: "string",
    enum: [...CHANGE_KINDS],
    "x-message": `kind must be one of ${CHANGE_KINDS.join(", ")}`,
  },
});

const notSynced = (id: number) =>
  new HttpError(
    404,
    `app account ${id} has not been synced yet: sync a file into it with PUT /v1.0/services/sync/custom`,
  );

export async function appAccountsRoutes(
  app: FastifyInstance,
  { appAccounts, displayCurrency, syncs: runner }: ServerContext,
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

  route(app, "appAccountSyncs", { params: ACCOUNT, querystring: SYNCS_PAGE }, async (request) => {
    const id = Number((request.params as { id: string }).id);
    const query = request.query as { limit?: string; after?: string };
    const limit = Number(query.limit ?? 100);
    const before = query.after === undefined ? null : Number(query.after);
    const syncs = await appAccounts.syncs(id, limit + 1, before);
    if (syncs.length === 0 && before === null) throw notSynced(id);
    const more = syncs.length > limit;
    if (more) syncs.pop();
    const body: SyncList = {
      idAppAccount: id,
      limit,
      ...(query.after !== undefined ? { after: query.after } : {}),
      next: more ? String(syncs.at(-1)?.idSync) : null,
      maxDeletes: runner.maxDeletes,
      syncs,
    };
    return body;
  });

  route(app, "syncChanges", { params: ACCOUNT_SYNC, querystring: CHANGES_PAGE }, async (request) => {
    const params = request.params as { id: string; syncId: string };
    const [id, syncId] = [Number(params.id), Number(params.syncId)];
    const query = request.query as { limit?: string; after?: string; kind?: Change["kind"] };
    const sync = await appAccounts.sync(id, syncId);
    if (!sync) {
      throw new HttpError(
        404,
        `app account ${id} has no sync ${syncId}: GET /v1.0/appAccounts/${id}/syncs lists its syncs`,
      );
    }
    if (!sync.changes) {
      throw new HttpError(
        404,
        `sync ${syncId} was never compared with the account (it is ${sync.state}): only a sync of a valid file has changes`,
      );
    }
    const { previousSync, counts } = sync.changes;
    if (previousSync !== null && !sync.changesKept) {
      throw new HttpError(
        410,
        `the changes of sync ${syncId} are no longer kept (the server keeps those of each account's last ${KEPT_CHANGES} syncs); its counts are in GET /v1.0/appAccounts/${id}/syncs`,
      );
    }
    const limit = Number(query.limit ?? 100);
    const page =
      previousSync === null
        ? [] // the account's first sync: its file is all it added
        : await appAccounts.changes(syncId, limit + 1, Number(query.after ?? 0), query.kind ?? null);
    const more = page.length > limit;
    if (more) page.pop();
    const body: SyncChangesPage = {
      idAppAccount: id,
      idSync: syncId,
      syncedBy: sync.syncedBy,
      previousSync,
      counts,
      limit,
      ...(query.after !== undefined ? { after: query.after } : {}),
      next: more ? String(page.at(-1)?.seq) : null,
      changes: page.map((p) => p.change),
    };
    return body;
  });
}
