// A diff's counts and changes in words: a module with no imports but types, so that push and
// the page can say them without loading the formats.

import type { Change, ChangeCounts } from "./Change.js";

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

/** One change in a line. */
export function describeChange(change: Change): string {
  const show = (v: unknown) => (v === null || v === undefined ? "none" : JSON.stringify(v));
  const fields = (list: { field: string; from: unknown; to: unknown }[]) =>
    list.map((f) => `${f.field} ${show(f.from)} → ${show(f.to)}`).join(", ");
  switch (change.kind) {
    case "user.added":
      return `+ ${change.email} (${change.user.status})`;
    case "user.removed":
      return `- ${change.email}`;
    case "user.deactivated":
    case "user.reactivated":
      return change.email;
    case "user.changed":
      return `${change.email}: ${fields(change.fields)}`;
    case "license.added":
      return `+ ${change.license}`;
    case "license.removed":
      return `- ${change.license}`;
    case "license.changed":
      return `${change.license}: ${fields(change.fields)}`;
    case "assignment.granted":
      return `+ ${change.license}: ${change.email}`;
    case "assignment.revoked":
      return `- ${change.license}: ${change.email}`;
    case "assignment.changed":
      return `${change.license}: ${change.email} ${change.from} → ${change.to}`;
  }
}
