// A diff's counts in words: a module with no imports but types, so that push can say them without
// loading the formats.

import type { ChangeCounts } from "./Change.js";

/** The counts of a diff, a line each for users, licenses and license users. */
export function countLines(counts: ChangeCounts): string[] {
  const c = counts;
  return [
    `users: ${c["user.added"]} added, ${c["user.removed"]} removed, ${c["user.deactivated"]} deactivated, ${c["user.reactivated"]} reactivated, ${c["user.changed"]} changed`,
    `licenses: ${c["license.added"]} added, ${c["license.removed"]} removed, ${c["license.changed"]} changed`,
    `license users: ${c["assignment.granted"]} granted, ${c["assignment.revoked"]} revoked, ${c["assignment.changed"]} changed`,
  ];
}

/** How many changes in all. */
export function totalOf(counts: ChangeCounts): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}
