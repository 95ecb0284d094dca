// The SQL of what the syncs made of each app account: its state and its users, page by page.

import type { AppAccountState } from "../../http/operations.js";
import type { Sql } from "./Database.js";
import type { AppAccountsRepository, PageStart, UsersPage } from "./types.js";

/** The synced app accounts, in a PostgreSQL database. */
export class SqlAppAccountsRepository implements AppAccountsRepository {
  readonly #db: Sql;

  constructor(db: Sql) {
    this.#db = db;
  }

  async state(id: number, displayCurrency: string): Promise<AppAccountState | null> {
    const db = this.#db;
    const { rows } = await db.query<{
      current_sync: number | null;
      summary: Record<string, unknown> | null;
      finished_at: Date | null;
    }>(
      `SELECT a.current_sync, s.summary, s.finished_at FROM app_accounts a LEFT JOIN syncs s ON s.id = a.current_sync WHERE a.id = $1`,
      [id],
    );
    const account = rows[0];
    if (!account || account.current_sync === null) return null;
    const sync = account.current_sync;
    const { rows: licenses } = await db.query<{
      name: string;
      price_per_user: number | null;
      currency: string;
      unassigned_amount: number | null;
      active: number;
      inactive: number;
      deleted: number;
    }>(
      `SELECT l.name, l.price_per_user, l.currency, l.unassigned_amount,
       count(*) FILTER (WHERE u.license_status = 'active')::int AS active,
       count(*) FILTER (WHERE u.license_status = 'inactive')::int AS inactive,
       count(*) FILTER (WHERE u.license_status = 'deleted')::int AS deleted
     FROM account_licenses l LEFT JOIN account_license_users u ON u.sync_id = l.sync_id AND u.license_idx = l.idx
     WHERE l.sync_id = $1 GROUP BY l.idx, l.name, l.price_per_user, l.currency, l.unassigned_amount ORDER BY l.idx`,
      [sync],
    );
    const { rows: counts } = await db.query<{ users: number; active: number }>(
      "SELECT count(*)::int AS users, count(*) FILTER (WHERE status = 'active')::int AS active FROM account_users WHERE sync_id = $1",
      [sync],
    );
    return {
      idAppAccount: id,
      lastSync: { ...(account.summary ?? {}), finishedAt: account.finished_at?.toISOString() ?? null },
      displayCurrency,
      users: { active: counts[0]?.active ?? 0, deleted: (counts[0]?.users ?? 0) - (counts[0]?.active ?? 0) },
      licenses: licenses.map((l) => ({
        name: l.name,
        pricePerUser: l.price_per_user,
        currency: l.currency,
        unassignedAmount: l.unassigned_amount,
        users: { active: l.active, inactive: l.inactive, deleted: l.deleted },
      })),
    };
  }

  async users(id: number, limit: number, start: PageStart): Promise<UsersPage | null> {
    const db = this.#db;
    const { rows: account } = await db.query<{ current_sync: number | null; active: number | null }>(
      `SELECT a.current_sync, (s.summary->>'activeUsers')::int AS active
       FROM app_accounts a LEFT JOIN syncs s ON s.id = a.current_sync WHERE a.id = $1`,
      [id],
    );
    const syncId = account[0]?.current_sync;
    if (syncId === undefined || syncId === null) return null;
    // the primary key (sync_id, idx) finds the page: after a position at once, at an offset by
    // counting; the licenses are looked up for the page's users only, not for those it skips
    const [after, offset] = "after" in start ? [start.after, 0] : [-1, start.offset];
    const { rows } = await db.query<{
      idx: number;
      email: string;
      external_id: string | null;
      first_name: string | null;
      last_name: string | null;
      external_status: string | null;
      roles: string[] | null;
      last_used_date: string | null;
      licenses: { name: string; licenseStatus: string }[] | null;
    }>(
      `SELECT u.idx, u.email, u.external_id, u.first_name, u.last_name, u.external_status, u.roles, u.last_used_date::text,
       (SELECT json_agg(json_build_object('name', l.name, 'licenseStatus', lu.license_status) ORDER BY l.idx)
          FROM account_license_users lu JOIN account_licenses l ON l.sync_id = lu.sync_id AND l.idx = lu.license_idx
          WHERE lu.sync_id = u.sync_id AND lower(lu.email) = lower(u.email)) AS licenses
     FROM (SELECT * FROM account_users WHERE sync_id = $1 AND status = 'active' AND idx > $2
           ORDER BY idx LIMIT $3 OFFSET $4) u
     ORDER BY u.idx`,
      [syncId, after, limit + 1, offset],
    );
    const more = rows.length > limit;
    if (more) rows.pop();
    return {
      syncId,
      total: account[0]?.active ?? (await this.#activeUsers(syncId)),
      last: more ? (rows.at(-1)?.idx ?? null) : null,
      users: rows.map((u) => ({
        email: u.email,
        ...(u.external_id !== null ? { id: u.external_id } : {}),
        ...(u.first_name !== null ? { firstName: u.first_name } : {}),
        ...(u.last_name !== null ? { lastName: u.last_name } : {}),
        ...(u.external_status !== null ? { externalStatus: u.external_status } : {}),
        ...(u.roles !== null ? { roles: u.roles } : {}),
        ...(u.last_used_date !== null ? { lastUsedDate: u.last_used_date } : {}),
        licenses: u.licenses ?? [],
      })),
    };
  }

  /** Counts a sync's active users (the summary of a sync says how many; this is for one that does not). */
  async #activeUsers(syncId: number): Promise<number> {
    const { rows } = await this.#db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM account_users WHERE sync_id = $1 AND status = 'active'",
      [syncId],
    );
    return rows[0]?.n ?? 0;
  }
}
