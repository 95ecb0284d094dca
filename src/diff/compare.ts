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

/** A file read into its side, and its report. */
export interface ReadSide {
  report: Report;
  side: DiffSide;
}

/** Reads a file into a new side of `partitions` with `read` (its normalising pass); the side is freed when that fails. */
export async function readSide(
  partitions: number,
  read: (writer: DiffSide) => Promise<Report>,
): Promise<ReadSide> {
  const side = new DiffSide(partitions);
  try {
    return { report: await read(side), side };
  } catch (error) {
    side.dispose();
    throw error;
  }
}

/**
 * When both files are valid, tells `onChange` each change from OLD's side to NEW's; frees
 * both sides.
 */
export function compareSides(
  { report: oldReport, side: before }: ReadSide,
  { report: newReport, side: after }: ReadSide,
  onChange: (change: Change) => void,
  ignoreDates: boolean,
): DiffResult {
  const tally = new Tally(onChange);
  try {
    if (oldReport.valid && newReport.valid) {
      for (const _ of changesOf(before, after, ignoreDates, tally.tell));
    }
    return {
      old: oldReport,
      new: newReport,
      counts: tally.counts,
      oldActiveUsers: before.activeUsers,
      deletes: tally.deletes,
    };
  } finally {
    before.dispose();
    after.dispose();
  }
}

/** Counts the changes told, and the users taken away, on their way to `onChange`. */
export class Tally {
  readonly counts = noChanges();
  deletes = 0;

  constructor(readonly onChange: (change: Change) => void) {}

  readonly tell = (change: Change): void => {
    this.counts[change.kind]++;
    if (takesAway(change)) this.deletes++;
    this.onChange(change);
  };
}

/**
 * Tells `tell` each change from `before` to `after`, in order, a step at a time: each
 * partition's users, the licenses, each partition's license users. Iterate it to the end; a
 * caller that must not hold its thread for long (the server) can yield between steps.
 */
export function* changesOf(
  before: DiffSide,
  after: DiffSide,
  ignoreDates: boolean,
  tell: (change: Change) => void,
): Generator<void> {
  const partitions = before.partitions;
  for (let p = 0; p < partitions; p++) {
    // OLD's users in a map; NEW's streamed past it: an unchanged user (its text the same)
    // leaves both, and only what differs is kept
    const old = before.users(p);
    const now = new Map<string, string>();
    for (const line of after.userLines(p)) {
      const tab = line.indexOf("\t");
      const key = line.slice(0, tab);
      const was = old.get(key);
      if (was !== undefined && was.length === line.length - tab - 1 && line.endsWith(was)) old.delete(key);
      else now.set(key, line.slice(tab + 1));
    }
    compareUsers(old, now, ignoreDates, tell);
    yield;
  }
  compareLicenses(before.licenseMap(), after.licenseMap(), tell);
  // the same licenses in the same order: a license user's line is the same text on both sides
  const sameLicenses = before.licenseNames().join("\n") === after.licenseNames().join("\n");
  for (let p = 0; p < partitions; p++) {
    compareAssignments(before, after, p, sameLicenses, tell);
    yield;
  }
}

/** One file's records: users and license users in partitions of a spill, licenses in memory. */
export class DiffSide implements DocumentWriter<NormalizedValues> {
  readonly #partitions: number;
  /** Users in lines 0 to partitions - 1, license users in the next as many. */
  readonly #lines: PartitionedLines;
  #licenses: (NormalizedLicense | null)[] = [];
  /** The active users read. */
  activeUsers = 0;

  constructor(partitions: number, lines = new PartitionedLines(2 * partitions)) {
    this.#partitions = partitions;
    this.#lines = lines;
  }

  /** A side read on another thread: what `detach` gave there, and its spill. */
  static attach(state: SideState, spill: SpillFile | null): DiffSide {
    const side = new DiffSide(state.partitions, PartitionedLines.attach(state.blocks, state.end, spill));
    side.#licenses = state.licenses;
    side.activeUsers = state.activeUsers;
    return side;
  }

  get partitions(): number {
    return this.#partitions;
  }

  /** What the side holds, to hand to another thread with its spill; the side is not used here afterwards. */
  detach(): { state: SideState; spill: SpillFile | null } {
    const { blocks, end, spill } = this.#lines.detach();
    const state = {
      partitions: this.#partitions,
      blocks,
      end,
      licenses: this.#licenses,
      activeUsers: this.activeUsers,
    };
    return { state, spill };
  }

  user = (value: NormalizedValues["user"]): void => {
    if (!isObject(value)) return;
    const user = value as NormalizedUser;
    if (user.status === "active") this.activeUsers++;
    // the key, then the user as JSON: an unchanged user is told by its text, unparsed
    // (JSON.stringify escapes tabs and line breaks: neither is in its text)
    this.#lines.add(this.#partOf(user.email), `${user.email.toLowerCase()}\t${JSON.stringify(user)}\n`);
  };

  license = (index: number, value: NormalizedValues["license"]): void => {
    this.#licenses[index] = isObject(value) ? (value as NormalizedLicense) : null;
  };

  licenseUser = (licenseIndex: number, value: NormalizedValues["licenseUser"]): void => {
    if (!isObject(value) || typeof (value as { email?: unknown }).email !== "string") return;
    const { email, licenseStatus } = value as { email: string; licenseStatus: string };
    // an email holds no tab or line break (the file is valid): plain fields
    const part = this.#partitions + this.#partOf(email);
    this.#lines.add(part, `${licenseIndex}\t${licenseStatus}\t${email}\n`);
  };

  end = (): void => {
    this.#lines.flushAll();
  };

  /** The users of partition `p`, each a line: the email in lower case, a tab, the user as JSON. */
  userLines(p: number): Generator<string> {
    return this.#lines.lines(p);
  }

  /** The users of partition `p` as JSON, by email in lower case. */
  users(p: number): Map<string, string> {
    const users = new Map<string, string>();
    for (const line of this.#lines.lines(p)) {
      const tab = line.indexOf("\t");
      users.set(line.slice(0, tab), line.slice(tab + 1));
    }
    return users;
  }

  /** The license users of partition `p`, each a line: license index, status, email. */
  holderLines(p: number): Generator<string> {
    return this.#lines.lines(this.#partitions + p);
  }

  /** A license user's line read: its license's name (undefined: not a license), email and status. */
  holder(line: string): { license: string | undefined; email: string; status: string } {
    const indexEnd = line.indexOf("\t");
    const statusEnd = line.indexOf("\t", indexEnd + 1);
    return {
      license: this.#licenses[Number(line.slice(0, indexEnd))]?.name,
      status: line.slice(indexEnd + 1, statusEnd),
      email: line.slice(statusEnd + 1),
    };
  }

  /** What a license user's line is compared by: its license's name and its email in lower case (null: no license). */
  holderKey(line: string): string | null {
    const indexEnd = line.indexOf("\t");
    const license = this.#licenses[Number(line.slice(0, indexEnd))]?.name;
    if (license === undefined) return null;
    return `${license}\u0000${line.slice(line.indexOf("\t", indexEnd + 1) + 1).toLowerCase()}`;
  }

  /** The licenses by name. */
  licenseMap(): Map<string, NormalizedLicense> {
    const map = new Map<string, NormalizedLicense>();
    for (const license of this.#licenses) if (license) map.set(license.name, license);
    return map;
  }

  /** The licenses' names in the file's order (none where a license was not one). */
  licenseNames(): string[] {
    return this.#licenses.map((license) => license?.name ?? "");
  }

  dispose(): void {
    this.#lines.close();
  }

  #partOf(email: string): number {
    fingerprint(email, true);
    return (lastFingerprint.h1 >>> 0) % this.#partitions;
  }
}

/** A side's records, without its spill: what crosses to another thread. */
export interface SideState {
  partitions: number;
  blocks: number[][];
  end: number;
  licenses: (NormalizedLicense | null)[];
  activeUsers: number;
}

/**
 * Lines in partitions, in one spill: each partition's lines are encoded into a buffer of its
 * own and go to the spill's end as a block of whole lines, whose place the partition notes; a
 * partition's lines are read back block by block, in order. One file a side, whatever the
 * partitions.
 */
export class PartitionedLines {
  /** Each partition's buffer (made at its first line), and how much of it is used. */
  readonly #buffers: (Uint8Array | null)[];
  readonly #used: number[];
  /** Each partition's blocks: offset and length, in pairs. */
  readonly #blocks: number[][];
  #file: SpillFile | null = null;
  #end = 0;

  /** `blockBytes`: the size of a partition's buffer (a longer line gets one of its own). */
  constructor(
    partitions: number,
    readonly blockBytes = BLOCK_BYTES,
  ) {
    this.#buffers = new Array<Uint8Array | null>(partitions).fill(null);
    this.#used = new Array<number>(partitions).fill(0);
    this.#blocks = Array.from({ length: partitions }, () => []);
  }

  add(p: number, line: string): void {
    // UTF-8 takes at most 3 bytes for each UTF-16 code unit
    const most = 3 * line.length;
    let buffer = this.#buffers[p] ?? null;
    if (buffer !== null && (this.#used[p] as number) + most > buffer.length) this.#flush(p);
    if (buffer === null || most > buffer.length) {
      buffer = new Uint8Array(Math.max(this.blockBytes, most));
      this.#buffers[p] = buffer;
    }
    const used = this.#used[p] as number;
    this.#used[p] = used + (encoder.encodeInto(line, buffer.subarray(used)).written as number);
  }

  flushAll(): void {
    for (let p = 0; p < this.#buffers.length; p++) this.#flush(p);
  }

  /** Lines written on another thread: their blocks, the spill's end, and the spill. */
  static attach(blocks: number[][], end: number, spill: SpillFile | null): PartitionedLines {
    const lines = new PartitionedLines(blocks.length);
    for (const [p, b] of blocks.entries()) lines.#blocks[p]?.push(...b);
    lines.#end = end;
    lines.#file = spill;
    return lines;
  }

  /** Every line flushed; the blocks, the end and the spill, which this no longer holds. */
  detach(): { blocks: number[][]; end: number; spill: SpillFile | null } {
    this.flushAll();
    const spill = this.#file;
    this.#file = null;
    return { blocks: this.#blocks, end: this.#end, spill };
  }

  *lines(p: number): Generator<string> {
    this.#flush(p);
    const blocks = this.#blocks[p] as number[];
    for (let b = 0; b < blocks.length; b += 2) {
      const bytes = new Uint8Array(blocks[b + 1] as number);
      (this.#file as SpillFile).read(bytes, 0, bytes.length, blocks[b] as number);
      const text = decoder.decode(bytes);
      let start = 0;
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
        yield text.slice(start, end);
        start = end + 1;
      }
    }
  }

  close(): void {
    this.#file?.close();
    this.#file = null;
  }

  #flush(p: number): void {
    const used = this.#used[p] as number;
    if (used === 0) return;
    this.#file ??= openSpill("syncfile-diff-");
    this.#file.write((this.#buffers[p] as Uint8Array).subarray(0, used), this.#end);
    (this.#blocks[p] as number[]).push(this.#end, used);
    this.#end += used;
    this.#used[p] = 0;
  }
}

// a partition's lines go to the spill in blocks of about this many bytes
const BLOCK_BYTES = 16 * 1024;
const encoder = new TextEncoder();
// ignoreBOM: a U+FEFF first is data, not a mark to drop
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

const USER_FIELDS = ["id", "firstName", "lastName", "externalStatus", "roles", "lastUsedDate"] as const;

function compareUsers(
  before: Map<string, string>,
  after: Map<string, string>,
  ignoreDates: boolean,
  tell: (change: Change) => void,
): void {
  for (const key of changedKeys(before, after)) {
    const oldText = before.get(key);
    const nowText = after.get(key);
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

/** The license users of partition `p` granted, revoked and changed, by license name and email. */
function compareAssignments(
  before: DiffSide,
  after: DiffSide,
  p: number,
  sameLicenses: boolean,
  tell: (change: Change) => void,
): void {
  // with the same licenses, a line on both sides is the same holder, unchanged: only the rest
  // are read (an email whose case alone changed is among them, and matches there)
  let oldLines: Iterable<string> = before.holderLines(p);
  let newLines: Iterable<string> = after.holderLines(p);
  if (sameLicenses) {
    const unmatched = new Set(oldLines);
    const added: string[] = [];
    for (const line of newLines) if (!unmatched.delete(line)) added.push(line);
    oldLines = unmatched;
    newLines = added;
  }
  // OLD's by license name and email in any case; NEW's streamed past them, as for users
  const old = new Map<string, string>();
  for (const line of oldLines) {
    const key = before.holderKey(line);
    if (key !== null) old.set(key, line);
  }
  const now = new Map<string, string>();
  for (const line of newLines) {
    const key = after.holderKey(line);
    if (key === null) continue;
    const was = old.get(key);
    if (was !== undefined && statusOf(was) === statusOf(line)) old.delete(key);
    else now.set(key, line);
  }
  for (const key of sortedKeys(old, now)) {
    const wasLine = old.get(key);
    const isLine = now.get(key);
    const was = wasLine === undefined ? undefined : before.holder(wasLine);
    const is = isLine === undefined ? undefined : after.holder(isLine);
    if (!was && is) tell({ kind: "assignment.granted", license: is.license as string, email: is.email });
    else if (was && !is)
      tell({ kind: "assignment.revoked", license: was.license as string, email: was.email });
    else if (was && is) {
      const license = is.license as string;
      tell({ kind: "assignment.changed", license, email: is.email, from: was.status, to: is.status });
    }
  }
}

/** The license status in a license user's line (license index, status, email). */
function statusOf(line: string): string {
  const indexEnd = line.indexOf("\t");
  return line.slice(indexEnd + 1, line.indexOf("\t", indexEnd + 1));
}

/** The keys whose values differ between the maps (or that one of them lacks), sorted. */
function changedKeys(a: Map<string, string>, b: Map<string, string>): string[] {
  const keys: string[] = [];
  for (const [key, value] of a) if (b.get(key) !== value) keys.push(key);
  for (const key of b.keys()) if (!a.has(key)) keys.push(key);
  return keys.sort();
}

/** The keys of both maps, once each, sorted. */
function sortedKeys(a: Map<string, unknown>, b: Map<string, unknown>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].sort();
}

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
