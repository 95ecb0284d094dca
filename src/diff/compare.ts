// The comparison of a diff, wherever the files come from (diffFiles: paths in Node; diffBlobs:
// Blobs in a browser): each side's users and license users go to partitions of a spill by a
// hash of the email (a temporary file in Node, memory in a browser), and each pair of
// partitions is compared in memory, so memory holds one partition of each side, whatever the
// files' sizes. Licenses, a file's few, are compared in memory. Changes come out users first,
// then licenses, then license users; within each, partition by partition, sorted by email.

import type { DocumentWriter } from "../model/DocumentWriter.js";
import type { NormalizedLicense, NormalizedUser, NormalizedValues } from "../model/normalize.js";
import type { Report } from "../report/Report.js";
import { fingerprint, lastFingerprint } from "../spill/fingerprint.js";
import { readLines } from "../spill/readLines.js";
import { openSpill, type SpillFile } from "../spill/spill.js";
import { type Change, type ChangeCounts, noChanges, takesAway } from "./Change.js";

/** What a diff found: each file's report, and how many changes of each kind (none when a file is invalid). */
export interface DiffResult {
  old: Report;
  new: Report;
  counts: ChangeCounts;
  /** OLD's active users. */
  oldActiveUsers: number;
  /** Users a sync of NEW takes away: active in OLD, and removed or deactivated. */
  deletes: number;
}

const PARTITION_BYTES = 8 * 1024 * 1024;

/** The partitions for files of at most `bytes`: one per `partitionBytes` (default 8 MB), 1 to 4096. */
export function partitionsFor(bytes: number, partitionBytes = PARTITION_BYTES): number {
  return Math.max(1, Math.min(4096, Math.ceil(bytes / partitionBytes)));
}

/**
 * Reads both sides with `read` (each file's normalising pass into its side), then, when both
 * are valid, tells `onChange` each change from OLD to NEW.
 */
export async function compareFiles(
  partitions: number,
  read: (side: "old" | "new", writer: DiffSide) => Promise<Report>,
  onChange: (change: Change) => void,
  ignoreDates: boolean,
): Promise<DiffResult> {
  const counts = noChanges();
  let deletes = 0;
  const tell = (change: Change) => {
    counts[change.kind]++;
    if (takesAway(change)) deletes++;
    onChange(change);
  };
  const before = new DiffSide(partitions);
  const after = new DiffSide(partitions);
  try {
    const oldReport = await read("old", before);
    const newReport = await read("new", after);
    const result = () => ({
      old: oldReport,
      new: newReport,
      counts,
      oldActiveUsers: before.activeUsers,
      deletes,
    });
    if (!oldReport.valid || !newReport.valid) return result();
    for (let p = 0; p < partitions; p++) compareUsers(before.users(p), after.users(p), ignoreDates, tell);
    compareLicenses(before.licenseMap(), after.licenseMap(), tell);
    for (let p = 0; p < partitions; p++) {
      compareAssignments(before.assignments(p), after.assignments(p), tell);
    }
    return result();
  } finally {
    before.dispose();
    after.dispose();
  }
}

/** One file's records: users and license users in partitions on disk, licenses in memory. */
export class DiffSide implements DocumentWriter<NormalizedValues> {
  readonly #parts: Partition[];
  readonly #licenses: (NormalizedLicense | null)[] = [];
  /** The active users read. */
  activeUsers = 0;

  constructor(partitions: number) {
    this.#parts = Array.from({ length: partitions }, () => new Partition());
  }

  user = (value: NormalizedValues["user"]): void => {
    if (!isObject(value)) return;
    const user = value as NormalizedUser;
    if (user.status === "active") this.activeUsers++;
    // the key, then the user as JSON: an unchanged user is told by its text, unparsed
    // (JSON.stringify escapes tabs and line breaks: neither is in its text)
    this.#partOf(user.email).add(`u\t${user.email.toLowerCase()}\t${JSON.stringify(user)}\n`);
  };

  license = (index: number, value: NormalizedValues["license"]): void => {
    this.#licenses[index] = isObject(value) ? (value as NormalizedLicense) : null;
  };

  licenseUser = (licenseIndex: number, value: NormalizedValues["licenseUser"]): void => {
    if (!isObject(value) || typeof (value as { email?: unknown }).email !== "string") return;
    const { email, licenseStatus } = value as { email: string; licenseStatus: string };
    // an email holds no tab or line break (the file is valid): plain fields
    this.#partOf(email).add(`a\t${licenseIndex}\t${licenseStatus}\t${email}\n`);
  };

  end = (): void => {
    for (const part of this.#parts) part.flush();
  };

  /** The users of partition `p` as JSON, by email in lower case. */
  users(p: number): Map<string, string> {
    const users = new Map<string, string>();
    for (const line of (this.#parts[p] as Partition).lines()) {
      if (!line.startsWith("u\t")) continue;
      const tab = line.indexOf("\t", 2);
      users.set(line.slice(2, tab), line.slice(tab + 1));
    }
    return users;
  }

  /** The license users of partition `p`: their license status by license name and email in lower case. */
  assignments(p: number): Map<string, { license: string; email: string; status: string }> {
    const found = new Map<string, { license: string; email: string; status: string }>();
    for (const line of (this.#parts[p] as Partition).lines()) {
      if (!line.startsWith("a\t")) continue;
      const indexEnd = line.indexOf("\t", 2);
      const statusEnd = line.indexOf("\t", indexEnd + 1);
      const license = this.#licenses[Number(line.slice(2, indexEnd))]?.name;
      const status = line.slice(indexEnd + 1, statusEnd);
      const email = line.slice(statusEnd + 1);
      if (license === undefined) continue;
      found.set(`${license}\u0000${email.toLowerCase()}`, { license, email, status });
    }
    return found;
  }

  /** The licenses by name. */
  licenseMap(): Map<string, NormalizedLicense> {
    const map = new Map<string, NormalizedLicense>();
    for (const license of this.#licenses) if (license) map.set(license.name, license);
    return map;
  }

  dispose(): void {
    for (const part of this.#parts) part.close();
  }

  #partOf(email: string): Partition {
    fingerprint(email, true);
    return this.#parts[(lastFingerprint.h1 >>> 0) % this.#parts.length] as Partition;
  }
}

/** Lines appended to a temporary file through a buffer, read back in order. */
class Partition {
  #pending: string[] = [];
  #pendingLength = 0;
  #file: SpillFile | null = null;

  add(line: string): void {
    this.#pending.push(line);
    this.#pendingLength += line.length;
    if (this.#pendingLength >= 64 * 1024) this.flush();
  }

  flush(): void {
    if (this.#pending.length === 0) return;
    this.#file ??= openSpill("syncfile-diff-");
    this.#file.write(encoder.encode(this.#pending.join("")));
    this.#pending = [];
    this.#pendingLength = 0;
  }

  *lines(): Generator<string> {
    this.flush();
    if (this.#file) yield* readLines(this.#file);
  }

  close(): void {
    this.#file?.close();
    this.#file = null;
  }
}

const encoder = new TextEncoder();

const USER_FIELDS = ["id", "firstName", "lastName", "externalStatus", "roles", "lastUsedDate"] as const;

function compareUsers(
  before: Map<string, string>,
  after: Map<string, string>,
  ignoreDates: boolean,
  tell: (change: Change) => void,
): void {
  for (const key of sortedKeys(before, after)) {
    const oldText = before.get(key);
    const nowText = after.get(key);
    if (oldText === nowText) continue; // the same user, written the same
    const old = oldText === undefined ? undefined : (JSON.parse(oldText) as NormalizedUser);
    const now = nowText === undefined ? undefined : (JSON.parse(nowText) as NormalizedUser);
    if (!old && now) tell({ kind: "user.added", email: now.email, user: now });
    else if (old && !now) tell({ kind: "user.removed", email: old.email, user: old });
    else if (old && now) {
      if (old.status === "active" && now.status === "deleted")
        tell({ kind: "user.deactivated", email: now.email });
      if (old.status === "deleted" && now.status === "active")
        tell({ kind: "user.reactivated", email: now.email });
      const fields = USER_FIELDS.filter((f) => !(ignoreDates && f === "lastUsedDate"))
        .filter((f) => JSON.stringify(old[f]) !== JSON.stringify(now[f]))
        .map((field) => ({ field, from: old[field] ?? null, to: now[field] ?? null }));
      if (fields.length > 0) tell({ kind: "user.changed", email: now.email, fields });
    }
  }
}

function compareLicenses(
  before: Map<string, NormalizedLicense>,
  after: Map<string, NormalizedLicense>,
  tell: (change: Change) => void,
): void {
  for (const name of sortedKeys(before, after)) {
    const old = before.get(name);
    const now = after.get(name);
    if (!old && now) tell({ kind: "license.added", license: name, value: now });
    else if (old && !now) tell({ kind: "license.removed", license: name, value: old });
    else if (old && now) {
      const fields = (["pricePerUser", "unassignedAmount"] as const)
        .filter((f) => old[f] !== now[f])
        .map((field) => ({ field, from: old[field] ?? null, to: now[field] ?? null }));
      if (fields.length > 0) tell({ kind: "license.changed", license: name, fields });
    }
  }
}

function compareAssignments(
  before: Map<string, { license: string; email: string; status: string }>,
  after: Map<string, { license: string; email: string; status: string }>,
  tell: (change: Change) => void,
): void {
  for (const key of sortedKeys(before, after)) {
    const old = before.get(key);
    const now = after.get(key);
    if (!old && now) tell({ kind: "assignment.granted", license: now.license, email: now.email });
    else if (old && !now) tell({ kind: "assignment.revoked", license: old.license, email: old.email });
    else if (old && now && old.status !== now.status) {
      tell({
        kind: "assignment.changed",
        license: now.license,
        email: now.email,
        from: old.status,
        to: now.status,
      });
    }
  }
}

/** The keys of both maps, once each, sorted. */
function sortedKeys(a: Map<string, unknown>, b: Map<string, unknown>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].sort();
}

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
