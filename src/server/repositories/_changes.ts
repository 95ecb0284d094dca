// What a sync changed, in SQL: its rows and those of the account's state before it are both in
// the account tables until it is applied, so a join of the two finds each change, in the form
// and the order `syncfile diff` tells them (users by email in any case, then licenses by name,
// then license users, each in code point order: COLLATE "C"), and stores it under the sync.
// The same statements on both backends.

import { type Change, noChanges } from "../../diff/Change.js";
import { KEPT_CHANGES, type SyncChanges } from "../../http/operations.js";
import type { Queryable } from "./Database.js";

/** The users taken away that a refusal names. */
export const NAMED_DELETES = 20;

// a user as the normalising pass gives it: its fields that are set
const userJson = (x: string) => `json_strip_nulls(json_build_object(
  'email', ${x}.email, 'id', ${x}.external_id, 'firstName', ${x}.first_name, 'lastName', ${x}.last_name,
  'status', ${x}.status, 'externalStatus', ${x}.external_status, 'roles', ${x}.roles,
  'lastUsedDate', to_char(${x}.last_used_date, 'YYYY-MM-DD')))`;

// the fields `syncfile diff` compares, in its order, as jsonb (json has no equality)
const USER_FIELDS: readonly [string, (x: string) => string][] = [
  ["id", (x) => `to_jsonb(${x}.external_id)`],
  ["firstName", (x) => `to_jsonb(${x}.first_name)`],
  ["lastName", (x) => `to_jsonb(${x}.last_name)`],
  ["externalStatus", (x) => `to_jsonb(${x}.external_status)`],
  ["roles", (x) => `${x}.roles`],
  ["lastUsedDate", (x) => `to_jsonb(to_char(${x}.last_used_date, 'YYYY-MM-DD'))`],
];

/** $1 the sync before, $2 the sync, $3 the changes stored before these. */
const USERS = `
INSERT INTO sync_changes (sync_id, seq, kind, change)
SELECT $2, $3::int + row_number() OVER (ORDER BY c.key COLLATE "C", c.step), c.change->>'kind', c.change
FROM (
  SELECT lower(coalesce(n.email, o.email)) AS key, s.step, s.change
  FROM (SELECT * FROM account_users WHERE sync_id = $1) o
  FULL JOIN (SELECT * FROM account_users WHERE sync_id = $2) n ON lower(o.email) = lower(n.email)
  CROSS JOIN LATERAL (
    SELECT 1 AS step, json_build_object('kind', 'user.added', 'email', n.email, 'user', ${userJson("n")}) AS change
      WHERE o.email IS NULL
    UNION ALL SELECT 1, json_build_object('kind', 'user.removed', 'email', o.email, 'user', ${userJson("o")})
      WHERE n.email IS NULL
    UNION ALL SELECT 1, json_build_object('kind', 'user.deactivated', 'email', n.email)
      WHERE o.status = 'active' AND n.status = 'deleted'
    UNION ALL SELECT 1, json_build_object('kind', 'user.reactivated', 'email', n.email)
      WHERE o.status = 'deleted' AND n.status = 'active'
    UNION ALL SELECT 2, json_build_object('kind', 'user.changed', 'email', n.email, 'fields', f.fields)
      FROM (
        SELECT json_agg(json_build_object('field', v.field, 'from', v.a, 'to', v.b) ORDER BY v.ord) AS fields
        FROM (VALUES ${USER_FIELDS.map(([field, value], i) => `(${i}, '${field}', ${value("o")}, ${value("n")})`).join(", ")}) v(ord, field, a, b)
        WHERE v.a IS DISTINCT FROM v.b
      ) f
      WHERE o.email IS NOT NULL AND n.email IS NOT NULL AND f.fields IS NOT NULL
  ) s
  WHERE o.email IS NULL OR n.email IS NULL
     OR (o.status, o.external_id, o.first_name, o.last_name, o.external_status, o.roles, o.last_used_date)
        IS DISTINCT FROM (n.status, n.external_id, n.first_name, n.last_name, n.external_status, n.roles, n.last_used_date)
) c`;

const licenseJson = (x: string) =>
  `json_strip_nulls(json_build_object('name', ${x}.name, 'pricePerUser', ${x}.price_per_user, 'unassignedAmount', ${x}.unassigned_amount))`;

const LICENSES = `
INSERT INTO sync_changes (sync_id, seq, kind, change)
SELECT $2, $3::int + row_number() OVER (ORDER BY c.key COLLATE "C"), c.change->>'kind', c.change
FROM (
  SELECT coalesce(n.name, o.name) AS key, CASE
    WHEN o.name IS NULL THEN json_build_object('kind', 'license.added', 'license', n.name, 'value', ${licenseJson("n")})
    WHEN n.name IS NULL THEN json_build_object('kind', 'license.removed', 'license', o.name, 'value', ${licenseJson("o")})
    ELSE json_build_object('kind', 'license.changed', 'license', n.name, 'fields', (
      SELECT json_agg(json_build_object('field', v.field, 'from', v.a, 'to', v.b) ORDER BY v.ord)
      FROM (VALUES (0, 'pricePerUser', o.price_per_user, n.price_per_user),
                   (1, 'unassignedAmount', o.unassigned_amount, n.unassigned_amount)) v(ord, field, a, b)
      WHERE v.a IS DISTINCT FROM v.b))
  END AS change
  FROM (SELECT * FROM account_licenses WHERE sync_id = $1) o
  FULL JOIN (SELECT * FROM account_licenses WHERE sync_id = $2) n ON o.name = n.name
  WHERE o.name IS NULL OR n.name IS NULL
     OR (o.price_per_user, o.unassigned_amount) IS DISTINCT FROM (n.price_per_user, n.unassigned_amount)
) c`;

const holders = (sync: string) => `(
  SELECT l.name AS license, u.email, u.license_status FROM account_license_users u
  JOIN account_licenses l ON l.sync_id = u.sync_id AND l.idx = u.license_idx WHERE u.sync_id = ${sync})`;

const ASSIGNMENTS = `
INSERT INTO sync_changes (sync_id, seq, kind, change)
SELECT $2, $3::int + row_number() OVER (ORDER BY c.license COLLATE "C", c.key COLLATE "C"), c.change->>'kind', c.change
FROM (
  SELECT coalesce(n.license, o.license) AS license, lower(coalesce(n.email, o.email)) AS key, CASE
    WHEN o.email IS NULL THEN json_build_object('kind', 'assignment.granted', 'license', n.license, 'email', n.email)
    WHEN n.email IS NULL THEN json_build_object('kind', 'assignment.revoked', 'license', o.license, 'email', o.email)
    ELSE json_build_object('kind', 'assignment.changed', 'license', n.license, 'email', n.email,
                           'from', o.license_status, 'to', n.license_status)
  END AS change
  FROM ${holders("$1")} o
  FULL JOIN ${holders("$2")} n ON o.license = n.license AND lower(o.email) = lower(n.email)
  WHERE o.email IS NULL OR n.email IS NULL OR o.license_status <> n.license_status
) c`;

/** Where a change takes a user away: an active user removed, or one deactivated. */
const TAKES_AWAY = `(kind = 'user.deactivated' OR (kind = 'user.removed' AND change->'user'->>'status' = 'active'))`;

/**
 * Finds and stores what sync `syncId` (its rows loaded, not applied) changes in the account
 * whose state is sync `previous` (null: the account's first sync, whose changes are its whole
 * file: counted, not stored); keeps the changes of the account's last KEPT_CHANGES syncs.
 */
export async function recordChanges(
  db: Queryable,
  appAccount: number,
  previous: number | null,
  syncId: number,
): Promise<SyncChanges & { takenAway: string[] }> {
  const counts = noChanges();
  let deletes = 0;
  let takenAway: string[] = [];
  if (previous === null) {
    const { rows } = await db.query<{ users: number; licenses: number; holders: number }>(
      `SELECT (SELECT count(*) FROM account_users WHERE sync_id = $1)::int AS users,
              (SELECT count(*) FROM account_licenses WHERE sync_id = $1)::int AS licenses,
              (SELECT count(*) FROM account_license_users WHERE sync_id = $1)::int AS holders`,
      [syncId],
    );
    const first = rows[0] ?? { users: 0, licenses: 0, holders: 0 };
    counts["user.added"] = first.users;
    counts["license.added"] = first.licenses;
    counts["assignment.granted"] = first.holders;
  } else {
    let stored = 0;
    for (const statement of [USERS, LICENSES, ASSIGNMENTS]) {
      stored += (await db.query(statement, [previous, syncId, stored])).rowCount ?? 0;
    }
    const { rows } = await db.query<{ kind: Change["kind"]; n: number; away: number }>(
      `SELECT kind, count(*)::int AS n, (count(*) FILTER (WHERE ${TAKES_AWAY}))::int AS away
       FROM sync_changes WHERE sync_id = $1 GROUP BY kind`,
      [syncId],
    );
    for (const row of rows) {
      counts[row.kind] = row.n;
      deletes += row.away;
    }
    if (deletes > 0) {
      const { rows: away } = await db.query<{ email: string }>(
        `SELECT change->>'email' AS email FROM sync_changes WHERE sync_id = $1 AND ${TAKES_AWAY} ORDER BY seq LIMIT ${NAMED_DELETES}`,
        [syncId],
      );
      takenAway = away.map((row) => row.email);
    }
  }
  const changes: SyncChanges = { previousSync: previous, counts, deletes };
  await db.query("UPDATE syncs SET previous_sync = $2, changes = $3, changes_kept = $4 WHERE id = $1", [
    syncId,
    previous,
    JSON.stringify(changes),
    previous !== null,
  ]);
  await forgetOldChanges(db, appAccount);
  return { ...changes, takenAway };
}

/** Drops the changes of the account's syncs before its last KEPT_CHANGES compared ones. */
async function forgetOldChanges(db: Queryable, appAccount: number): Promise<void> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT id FROM syncs WHERE app_account = $1 AND changes_kept ORDER BY id DESC OFFSET ${KEPT_CHANGES}`,
    [appAccount],
  );
  for (const { id } of rows) {
    await db.query("DELETE FROM sync_changes WHERE sync_id = $1", [id]);
    await db.query("UPDATE syncs SET changes_kept = false WHERE id = $1", [id]);
  }
}
