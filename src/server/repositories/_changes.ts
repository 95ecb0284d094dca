// What a sync changed, as the database keeps it: the changes SyncRunner found (with `syncfile
// diff`'s comparison), stored in batches and numbered in the order it told them, and forgotten
// a range at a time; and the records of the sync that made an account's state, read back a page
// at a time (each a short statement: the embedded database runs one at a time, and the server
// answers meanwhile), for a comparison whose file is gone from storage.

import type { Change } from "syncfile/internal/diff/Change.js";
import { KEPT_CHANGES, type SyncChanges } from "syncfile/internal/http/operations.js";
import type { DocumentWriter } from "syncfile/internal/model/DocumentWriter.js";
import { type NormalizedValues, normalizeUser } from "syncfile/internal/model/normalize.js";
import { type UserRow, userFields } from "./_accountTables.js";
import type { Queryable } from "./Database.js";

/** The rows of a page of the state read back. */
const PAGE = 10_000;

/** Hands the records of sync `syncId` to `writer` as the normalising pass would: users, licenses, license users. */
export async function readState(
  db: Queryable,
  syncId: number,
  writer: DocumentWriter<NormalizedValues>,
): Promise<void> {
  for (let after = -1; ; ) {
    const { rows } = await db.query<UserRow & { idx: number; status: string }>(
      `SELECT idx, email, external_id, first_name, last_name, status, external_status, roles, last_used_date::text
       FROM account_users WHERE sync_id = $1 AND idx > $2 ORDER BY idx LIMIT ${PAGE}`,
      [syncId, after],
    );
    for (const u of rows) {
      writer.user(normalizeUser({ ...userFields(u), status: u.status }));
    }
    if (rows.length < PAGE) break;
    after = (rows.at(-1) as { idx: number }).idx;
  }
  const { rows: licenses } = await db.query<{
    idx: number;
    name: string;
    price_per_user: number | null;
    unassigned_amount: number | null;
  }>(
    "SELECT idx, name, price_per_user, unassigned_amount FROM account_licenses WHERE sync_id = $1 ORDER BY idx",
    [syncId],
  );
  for (const l of licenses) {
    writer.license(
      l.idx,
      {
        name: l.name,
        ...(l.price_per_user !== null ? { pricePerUser: l.price_per_user } : {}),
        ...(l.unassigned_amount !== null ? { unassignedAmount: l.unassigned_amount } : {}),
      },
      0,
    );
  }
  // the whole key in the comparison: the primary key's index goes to the page's start
  for (let license = -1, after = -1; ; ) {
    const { rows } = await db.query<{
      license_idx: number;
      idx: number;
      email: string;
      license_status: string;
    }>(
      `SELECT license_idx, idx, email, license_status FROM account_license_users
       WHERE sync_id = $1 AND (sync_id, license_idx, idx) > ($1, $2, $3) ORDER BY license_idx, idx LIMIT ${PAGE}`,
      [syncId, license, after],
    );
    for (const h of rows) {
      writer.licenseUser(
        h.license_idx,
        {
          email: h.email,
          licenseStatus: h.license_status as "active" | "inactive" | "deleted",
        },
        true,
      );
    }
    if (rows.length < PAGE) break;
    const last = rows.at(-1) as { license_idx: number; idx: number };
    [license, after] = [last.license_idx, last.idx];
  }
  writer.end();
}

/** Stores `changes` of sync `syncId`, numbered from `first` + 1. */
export async function addChanges(
  db: Queryable,
  syncId: number,
  first: number,
  changes: readonly Change[],
): Promise<void> {
  await db.query(
    `INSERT INTO sync_changes (sync_id, seq, kind, change)
     SELECT $1, $2::int + r.n, r.kind, r.change::json
     FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS r(kind, change, n)`,
    [syncId, first, changes.map((c) => c.kind), changes.map((c) => JSON.stringify(c))],
  );
}

/**
 * Records what sync `syncId` changed (the changes themselves are stored when it compared with
 * a state before it); the account's syncs before its last KEPT_CHANGES compared ones keep
 * their counts only.
 */
export async function recordChanges(
  db: Queryable,
  syncId: number,
  appAccount: number,
  changes: SyncChanges,
): Promise<void> {
  await db.query("UPDATE syncs SET previous_sync = $2, changes = $3, changes_kept = $4 WHERE id = $1", [
    syncId,
    changes.previousSync,
    JSON.stringify(changes),
    changes.previousSync !== null,
  ]);
  const { rows } = await db.query<{ id: number }>(
    `SELECT id FROM syncs WHERE app_account = $1 AND changes_kept ORDER BY id DESC OFFSET ${KEPT_CHANGES}`,
    [appAccount],
  );
  for (const { id } of rows) {
    await db.query("UPDATE syncs SET changes_kept = false WHERE id = $1", [id]);
    await forgetChanges(db, id);
  }
}

/** Deletes the changes of sync `syncId`, a range of them a statement (short, however many). */
export async function forgetChanges(db: Queryable, syncId: number): Promise<void> {
  const { rows } = await db.query<{ last: number | null }>(
    "SELECT max(seq) AS last FROM sync_changes WHERE sync_id = $1",
    [syncId],
  );
  const last = rows[0]?.last ?? 0;
  for (let from = 0; from < last; from += PAGE) {
    await db.query("DELETE FROM sync_changes WHERE sync_id = $1 AND seq > $2 AND seq <= $3", [
      syncId,
      from,
      from + PAGE,
    ]);
  }
}
