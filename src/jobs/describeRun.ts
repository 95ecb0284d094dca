// A run in words, one way for every place that says it: the line `syncfile run` prints and
// `syncfile runs` lists, the headline of a notification (a chat message, an e-mail's subject)
// and its few lines. Made from the run's record only, which holds no secret.

import type { Outcome } from "./Job.js";
import type { RunRecord } from "./runHistory.js";

const OUTCOME_WORDS: Readonly<Record<Outcome, string>> = {
  synced: "synced",
  recovered: "recovered: synced again",
  unchanged: "unchanged",
  invalid: "not pushed: the data is invalid",
  failed: "failed",
  refused: "refused by its guard",
};

/** The run in a line, as a person reads it in a chat or a subject. */
export function headline(record: RunRecord): string {
  return `syncfile job ${record.job}: ${OUTCOME_WORDS[record.outcome]}`;
}

/** What the run changed and did, in parts: "3 user.added, 1 user.removed", "12 users, file 4, sync 7"… */
function facts(record: RunRecord): { changes: string; ids: string; takenAway: string } {
  const changes = Object.entries(record.changes ?? {})
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(", ");
  const ids =
    record.fileId !== undefined ? `${record.users} users, file ${record.fileId}, sync ${record.syncId}` : "";
  const listed = record.takenAway ?? [];
  const more = (record.deletes ?? listed.length) - listed.length;
  const takenAway = listed.length > 0 ? `${listed.join(", ")}${more > 0 ? ` and ${more} more` : ""}` : "";
  return { changes, ids, takenAway };
}

/** The run in one line: "people: refused — … ; 2 user.removed; would take away a@x, b@x (run ID)". */
export function runLine(record: RunRecord): string {
  const { changes, ids, takenAway } = facts(record);
  const parts = [changes, ids, takenAway ? `would take away ${takenAway}` : ""].filter((p) => p !== "");
  const said = record.message ? ` — ${record.message}` : "";
  return `${record.job}: ${record.outcome}${said}${parts.length > 0 ? `; ${parts.join("; ")}` : ""} (run ${record.id})`;
}

/** The run in a few lines: the headline, what it says, its changes, the users it would take away. */
export function runSummary(record: RunRecord): string {
  const { changes, ids, takenAway } = facts(record);
  const lines = [headline(record)];
  if (record.message) lines.push(record.message);
  if (changes) lines.push(`changes: ${changes}`);
  if (ids) lines.push(ids);
  if (takenAway) lines.push(`would take away: ${takenAway}`);
  if (record.source) lines.push(`source: ${record.source.from} (${record.source.bytes} bytes)`);
  lines.push(`run ${record.id}, ${record.start} to ${record.end}`);
  return lines.join("\n");
}
