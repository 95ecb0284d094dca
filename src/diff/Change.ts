// A change a sync makes to an app account, as `syncfile diff` tells it and the server keeps it
// in its history: types only, so that the page, the server and the client can all name it.

import type { NormalizedLicense, NormalizedUser } from "../model/normalize.js";

/** A field of a user or license that changed. */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** One change a sync of NEW would make to an account holding OLD. */
export type Change =
  | { kind: "user.added"; email: string; user: NormalizedUser }
  | { kind: "user.removed"; email: string; user: NormalizedUser }
  | { kind: "user.deactivated"; email: string }
  | { kind: "user.reactivated"; email: string }
  | { kind: "user.changed"; email: string; fields: FieldChange[] }
  | { kind: "license.added"; license: string; value: NormalizedLicense }
  | { kind: "license.removed"; license: string; value: NormalizedLicense }
  | { kind: "license.changed"; license: string; fields: FieldChange[] }
  | { kind: "assignment.granted"; license: string; email: string }
  | { kind: "assignment.revoked"; license: string; email: string }
  | { kind: "assignment.changed"; license: string; email: string; from: string; to: string };

/** Every kind of change, in the order they are told. */
export const CHANGE_KINDS = [
  "user.added",
  "user.removed",
  "user.deactivated",
  "user.reactivated",
  "user.changed",
  "license.added",
  "license.removed",
  "license.changed",
  "assignment.granted",
  "assignment.revoked",
  "assignment.changed",
] as const satisfies readonly Change["kind"][];

/** How many changes of each kind. */
export type ChangeCounts = Record<Change["kind"], number>;

/** No change of any kind. */
export function noChanges(): ChangeCounts {
  return Object.fromEntries(CHANGE_KINDS.map((k) => [k, 0])) as ChangeCounts;
}

/** Whether `change` takes a user away from the account: an active user removed, or deactivated. */
export function takesAway(
  change: Change,
): change is Extract<Change, { email: string; kind: `user.${string}` }> {
  return (
    change.kind === "user.deactivated" || (change.kind === "user.removed" && change.user.status === "active")
  );
}

/** The guard's default: 500, or 10 % of the active users when fewer, never fewer than 10. */
export function defaultMaxDeletes(activeUsers: number): number {
  return Math.max(10, Math.min(500, Math.floor(activeUsers / 10)));
}
