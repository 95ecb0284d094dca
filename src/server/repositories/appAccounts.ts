// The SQL of what the syncs made of each app account: its state and its users, page by page.

import type { Change } from "syncfile/internal/diff/Change.js";
import type {
  AppAccountState,
  SyncChanges,
  SyncRecord,
  SyncState,
} from "syncfile/internal/http/operations.js";
import { type UserRow, userFields } from "./_accountTables.js";
import type { Sql } from "./Database.js";
import type { AppAccountsRepository, PagedChange, PageStart, UsersPage } from "./types.js";

/** A row of `syncs` as the history reads it. */
interface SyncRow {
  id: number;
  file_id: number;
  format: "json" | "csv";
  state: SyncState;
  current: boolean;
  started_at: Date;
  finished_at: Date | null;
  users: number | null;
  active: number | null;
  changes: SyncChanges | null;
  changes_kept: boolean;
  synced_by: number | null;
}

const SYNC_COLUMNS = `s.id, s.file_id, s.format, s.state, coalesce(a.current_sync = s.id, false) AS current,
  s.started_at, s.finished_at, (s.summary->>'users')::int AS users, (s.summary->>'activeUsers')::int AS active,
  s.changes, s.changes_kept, s.synced_by
  FROM syncs s LEFT JOIN app_accounts a ON a.id = s.app_account`;

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
      synced_by: number | null;
    }>(
      `SELECT a.current_sync, s.summary, s.finished_at, s.synced_by FROM app_accounts a LEFT JOIN syncs s ON s.id = a.current_sync WHERE a.id = $1`,
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
      lastSync: {
        ...(account.summary ?? {}),
        finishedAt: account.finished_at?.toISOString() ?? null,
        syncedBy: account.synced_by,
      },
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
    const { rows } = await db.query<
      UserRow & { idx: number; licenses: { name: string; licenseStatus: string }[] | null }
    >(
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
      users: rows.map((u) => ({ ...userFields(u), licenses: u.licenses ?? [] })),
    };
  }

  async syncs(id: number, limit: number, before: number | null): Promise<SyncRecord[]> {
    const { rows } = await this.#db.query<SyncRow>(
      `SELECT ${SYNC_COLUMNS} WHERE s.app_account = $1 AND s.id < $2 ORDER BY s.id DESC LIMIT $3`,
      [id, before ?? Number.MAX_SAFE_INTEGER, limit],
    );
    return rows.map(syncRecord);
  }

  async sync(id: number, syncId: number): Promise<SyncRecord | null> {
    const { rows } = await this.#db.query<SyncRow>(
      `SELECT ${SYNC_COLUMNS} WHERE s.app_account = $1 AND s.id = $2`,
      [id, syncId],
    );
    return rows[0] ? syncRecord(rows[0]) : null;
  }

  async changes(
    syncId: number,
    limit: number,
    after: number,
    kind: Change["kind"] | null,
  ): Promise<PagedChange[]> {
    const { rows } = await this.#db.query<PagedChange>(
      `SELECT seq, change FROM sync_changes WHERE sync_id = $1 AND seq > $2 AND ($3::text IS NULL OR kind = $3)
       ORDER BY seq LIMIT $4`,
      [syncId, after, kind, limit],
    );
    return rows;
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

function syncRecord(row: SyncRow): SyncRecord {
  return {
    idSync: Number(row.id),
    idFile: Number(row.file_id),
    format: row.format,
    state: row.state,
    current: row.current,
    startedAt: row.started_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    users: row.users,
    activeUsers: row.active,
    changes: row.changes,
    changesKept: row.changes_kept,
    syncedBy: row.synced_by,
  };
}
