// What the scanner hands on: captured values (unparsed), license ends and findings, in
// source order, to RecordBuilder in the same thread.

import type { Code } from "../report/catalog.js";
import type { FindingDetails, SourceLocation } from "../report/Finding.js";
import type { RecordSource } from "./_RecordBatch.js";

/** What a captured value is: a record, a license property, or a value only checked for syntax. */
export type CaptureKind = "user" | "licenseUser" | "license" | "member" | "skip";

/**
 * A captured value, unparsed: `text.slice(start, end)`. The scanner reuses one event object:
 * a sink copies what it keeps before returning.
 */
export interface CaptureEvent {
  kind: CaptureKind;
  /** Index in its array; a member's license index. */
  index: number;
  /** A license user's license index. */
  licenseIndex: number;
  /** A member's property name, and where it is. */
  key: string;
  keyLoc: SourceLocation | null;
  /** The pointer of a skipped value. */
  pointer: string;
  text: string;
  start: number;
  end: number;
  /** Where the value starts. */
  line: number;
  column: number;
  offset: number;
  /** Commas at the value's own top level: members − 1 for a non-empty object (0 with `source`). */
  commas: number;
  /** For a license user: every user of the file was read before it. */
  afterUsers: boolean;
  /**
   * For a plain record the scanner read whole: its text and location, found when asked (`text`,
   * `start`, `end`, `line`, `column` and `offset` are then not set). Null when the sink is to
   * parse the text.
   */
  source: RecordSource | null;
  /** With `source`: the value, parsed and checked for duplicate keys by the scanner. */
  value: unknown;
  /** With `source`: true when its text has no `\u` escape (see DataRecord's textStorable). */
  textStorable: boolean;
}

/** A license object ended; its properties came as member captures, its users as licenseUser ones. */
export interface LicenseEndEvent {
  index: number;
  loc: SourceLocation;
  /** Where the users array starts, when the license has one. */
  usersLoc: SourceLocation | null;
  userCount: number;
}

/** Receives what the scanner finds, synchronously and in source order. */
export interface ScanSink {
  capture(event: CaptureEvent): void;
  licenseEnd(event: LicenseEndEvent): void;
  finding(code: Code, details: FindingDetails): void;
}

/** Limits of one scan. */
export interface ScanLimits {
  maxDepth: number;
  maxRecordBytes: number;
}

/** A capture event with nothing in it yet (one per scanner or replay, refilled for each value). */
export function emptyCapture(): CaptureEvent {
  return {
    kind: "user",
    index: 0,
    licenseIndex: -1,
    key: "",
    keyLoc: null,
    pointer: "",
    text: "",
    start: 0,
    end: 0,
    line: 1,
    column: 1,
    offset: 0,
    commas: 0,
    afterUsers: false,
    value: undefined,
    source: null,
    textStorable: false,
  };
}
