// The comparison of a diff, wherever the files come from (diffFiles: paths in Node; diffBlobs:
// Blobs in a browser): each side's users and license users go to partitions of a spill (a
// temporary file in Node, memory in a browser) by a fixed hash of the email (_partitionOf),
// and each pair of partitions is compared in memory, so memory holds one partition of each
// side, whatever the files' sizes. Licenses, a file's few, are compared in memory. Changes come
// out users first, then licenses, then license users; within each, partition by partition,
// sorted by email.

import type { DocumentWriter } from "../model/DocumentWriter.js";
import type { NormalizedLicense, NormalizedUser, NormalizedValues } from "../model/normalize.js";
import type { Report } from "../report/Report.js";
import { openSpill, type SpillFile } from "../spill/spill.js";
import { partitionOf } from "./_partitionOf.js";
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
  /** Where OLD was read: on this thread, or on the diff's worker thread while NEW was read here. */
  threads: "one" | "diff-worker";
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
): Omit<DiffResult, "threads"> {
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
    // a user whose line is the same on both sides is unchanged, and never decoded: only the
    // rest go to maps, by email in lower case
    const differing = differingLines(before.userBytes(p), after.userBytes(p), 1);
    compareUsers(userMap(differing.old), userMap(differing.now), ignoreDates, tell);
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
    // an email holds no tab or line break (the file is valid): plain fields. The email in lower
    // case (what a holder is matched by) comes before the status, the email as written last,
    // only when it differs: a holder's key is the line up to its second tab
    const part = this.#partitions + this.#partOf(email);
    const lower = email.toLowerCase();
    const asWritten = lower === email ? "" : `\t${email}`;
    this.#lines.add(part, `${licenseIndex}\t${lower}\t${licenseStatus}${asWritten}\n`);
  };

  end = (): void => {
    this.#lines.flushAll();
  };

  /** The users of partition `p`: lines of the email in lower case, a tab, the user as JSON. */
  userBytes(p: number): Uint8Array {
    return this.#lines.bytes(p);
  }

  /** The license users of partition `p`: lines of license index, email in lower case, status[, email]. */
  holderBytes(p: number): Uint8Array {
    return this.#lines.bytes(this.#partitions + p);
  }

  /** The license users of partition `p`, each a line (see holderBytes). */
  holderLines(p: number): Generator<string> {
    return this.#lines.lines(this.#partitions + p);
  }

  /** The name of the license of a license user's line (undefined: not a license). */
  licenseOf(line: string): string | undefined {
    let index = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === 0x09) break;
      index = 10 * index + c - 0x30;
    }
    return this.#licenses[index]?.name;
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
    return partitionOf(email, this.#partitions);
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

  /** The lines of partition `p`, encoded, in one array. */
  bytes(p: number): Uint8Array {
    this.#flush(p);
    const blocks = this.#blocks[p] as number[];
    let length = 0;
    for (let b = 1; b < blocks.length; b += 2) length += blocks[b] as number;
    const bytes = new Uint8Array(length);
    for (let b = 0, at = 0; b < blocks.length; b += 2) {
      const n = blocks[b + 1] as number;
      (this.#file as SpillFile).read(bytes, at, n, blocks[b] as number);
      at += n;
    }
    return bytes;
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
    const differing = differingLines(before.holderBytes(p), after.holderBytes(p), 2);
    oldLines = differing.old;
    newLines = differing.now;
  }
  // OLD's by license name, then email in lower case; NEW's streamed past them, as for users
  const old = holdersByLicense(before, oldLines);
  const now = new Map<string, Map<string, string>>();
  for (const line of newLines) {
    const license = after.licenseOf(line);
    if (license === undefined) continue;
    const email = lowerEmailOf(line);
    const holders = old.get(license);
    const was = holders?.get(email);
    if (was !== undefined && statusOf(was) === statusOf(line)) holders?.delete(email);
    else groupOf(now, license).set(email, line);
  }
  for (const license of sortedKeys(old, now)) {
    const wasHolders = old.get(license) ?? NONE;
    const isHolders = now.get(license) ?? NONE;
    for (const email of sortedKeys(wasHolders, isHolders)) {
      const wasLine = wasHolders.get(email);
      const isLine = isHolders.get(email);
      if (wasLine === undefined && isLine !== undefined)
        tell({ kind: "assignment.granted", license, email: emailOf(isLine) });
      else if (wasLine !== undefined && isLine === undefined)
        tell({ kind: "assignment.revoked", license, email: emailOf(wasLine) });
      else if (wasLine !== undefined && isLine !== undefined) {
        const [from, to] = [statusOf(wasLine), statusOf(isLine)];
        tell({ kind: "assignment.changed", license, email: emailOf(isLine), from, to });
      }
    }
  }
}

const NONE: ReadonlyMap<string, string> = new Map();

/** A side's license users' lines by license name, then email in lower case (a line of no license is left out). */
function holdersByLicense(side: DiffSide, lines: Iterable<string>): Map<string, Map<string, string>> {
  const holders = new Map<string, Map<string, string>>();
  for (const line of lines) {
    const license = side.licenseOf(line);
    if (license !== undefined) groupOf(holders, license).set(lowerEmailOf(line), line);
  }
  return holders;
}

function groupOf(groups: Map<string, Map<string, string>>, key: string): Map<string, string> {
  let group = groups.get(key);
  if (group === undefined) {
    group = new Map();
    groups.set(key, group);
  }
  return group;
}

/** The email in lower case in a license user's line (license index, email in lower case, status[, email]). */
function lowerEmailOf(line: string): string {
  const indexEnd = line.indexOf("\t");
  return line.slice(indexEnd + 1, line.indexOf("\t", indexEnd + 1));
}

/** The email as written in a license user's line. */
function emailOf(line: string): string {
  const indexEnd = line.indexOf("\t");
  const lowerEnd = line.indexOf("\t", indexEnd + 1);
  const statusEnd = line.indexOf("\t", lowerEnd + 1);
  return statusEnd === -1 ? line.slice(indexEnd + 1, lowerEnd) : line.slice(statusEnd + 1);
}

/** The license status in a license user's line (license index, email in lower case, status[, email]). */
function statusOf(line: string): string {
  const lowerEnd = line.indexOf("\t", line.indexOf("\t") + 1);
  const statusEnd = line.indexOf("\t", lowerEnd + 1);
  return line.slice(lowerEnd + 1, statusEnd === -1 ? line.length : statusEnd);
}

/** Users' lines (email in lower case, a tab, the user as JSON) as a map from the one to the other. */
function userMap(lines: readonly string[]): Map<string, string> {
  const users = new Map<string, string>();
  for (const line of lines) {
    const tab = line.indexOf("\t");
    users.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return users;
}

/**
 * The lines of one partition that are not on both sides byte for byte, decoded; a record's key
 * is its line up to its `keyTabs`-th tab. Each OLD line's key goes to a hash table of the
 * bytes, and each NEW line is looked up there: one with the same key and the same bytes is an
 * unchanged record, and is never made a string (most of a day's records, and what a diff's
 * time and garbage went to). A key on both sides with other bytes is in both lists.
 */
export function differingLines(
  oldBytes: Uint8Array,
  newBytes: Uint8Array,
  keyTabs: number,
): { old: string[]; now: string[] } {
  const old = scanLines(oldBytes, keyTabs);
  const size = tableSize(old.count);
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  for (let i = 0; i < old.count; i++) {
    let slot = (old.hashes[i] as number) & mask;
    while (table[slot] !== -1) slot = (slot + 1) & mask;
    table[slot] = i;
  }
  const matched = new Uint8Array(old.count);
  const now: string[] = [];
  let start = 0;
  for (let end = newBytes.indexOf(NEWLINE); end !== -1; end = newBytes.indexOf(NEWLINE, start)) {
    const keyEnd = keyEndOf(newBytes, start, end, keyTabs);
    const hash = hashBytes(newBytes, start, keyEnd);
    let same = false;
    for (let slot = hash & mask; table[slot] !== -1; slot = (slot + 1) & mask) {
      const i = table[slot] as number;
      const from = old.starts[i] as number;
      if (
        old.hashes[i] !== hash ||
        !equalBytes(oldBytes, from, old.keyEnds[i] as number, newBytes, start, keyEnd)
      )
        continue;
      same = equalBytes(oldBytes, from, old.ends[i] as number, newBytes, start, end);
      if (same) matched[i] = 1;
      break;
    }
    if (!same) now.push(decoder.decode(newBytes.subarray(start, end)));
    start = end + 1;
  }
  const before: string[] = [];
  for (let i = 0; i < old.count; i++) {
    if (matched[i] === 0) before.push(decoder.decode(oldBytes.subarray(old.starts[i], old.ends[i])));
  }
  return { old: before, now };
}

const NEWLINE = 0x0a;
const TAB = 0x09;

/** Each line of `bytes`: where it starts and ends (its line break), where its key ends, its key's hash. */
function scanLines(bytes: Uint8Array, keyTabs: number) {
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++;
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  const keyEnds = new Int32Array(count);
  const hashes = new Int32Array(count);
  let start = 0;
  for (let i = 0; i < count; i++) {
    const end = bytes.indexOf(NEWLINE, start);
    const keyEnd = keyEndOf(bytes, start, end, keyTabs);
    starts[i] = start;
    ends[i] = end;
    keyEnds[i] = keyEnd;
    hashes[i] = hashBytes(bytes, start, keyEnd);
    start = end + 1;
  }
  return { count, starts, ends, keyEnds, hashes };
}

/** Where the key of the line from `start` to `end` ends: at its `keyTabs`-th tab (the line's end without one). */
function keyEndOf(bytes: Uint8Array, start: number, end: number, keyTabs: number): number {
  let at = start - 1;
  for (let tabs = 0; tabs < keyTabs; tabs++) {
    at = bytes.indexOf(TAB, at + 1);
    if (at === -1 || at > end) return end;
  }
  return at;
}

/** A hash table's size for `count` keys: a power of two, at most half full. */
function tableSize(count: number): number {
  let size = 16;
  while (size < 2 * count) size *= 2;
  return size;
}

/** FNV-1a of `bytes` from `start` to `end`, with a final mix (the table's slot is its low bits). */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

function equalBytes(
  a: Uint8Array,
  aStart: number,
  aEnd: number,
  b: Uint8Array,
  bStart: number,
  bEnd: number,
): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let i = 0; i < aEnd - aStart; i++) if (a[aStart + i] !== b[bStart + i]) return false;
  return true;
}

/** The keys whose values differ between the maps (or that one of them lacks), sorted. */
function changedKeys(a: Map<string, string>, b: Map<string, string>): string[] {
  const keys: string[] = [];
  for (const [key, value] of a) if (b.get(key) !== value) keys.push(key);
  for (const key of b.keys()) if (!a.has(key)) keys.push(key);
  return keys.sort();
}

/** The keys of both maps, once each, sorted. */
function sortedKeys(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): string[] {
  const keys = [...a.keys()];
  for (const key of b.keys()) if (!a.has(key)) keys.push(key);
  return keys.sort();
}

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
