// The records readers yield and checks consume: each user, each license, each license user,
// with where it is in the source. The JSON and the CSV reader both produce these.

import type { SourceLocation } from "../report/Finding.js";

/** A path inside a record's value: property names and array indexes. */
export type ValuePath = readonly (string | number)[];

/** Where something is: a JSON pointer always; a source location, CSV row and field when known. */
export interface Place {
  pointer: string;
  location?: SourceLocation;
  row?: number;
  field?: string;
}

/** What every record offers to checks. */
export interface RecordBase {
  /** Position in its array (`/users/<index>`). */
  readonly index: number;
  /** The value as JSON.parse gives it (license: without its users array, which is streamed). */
  readonly value: unknown;
  /** Where the record starts. */
  readonly loc: SourceLocation;
  /** JSON pointer of the record. */
  readonly pointer: string;
  /**
   * True when the reader guarantees that no string of the value holds a NUL character or a lone
   * surrogate (JSON text without a `\u` escape can hold neither): storableText need not look.
   */
  readonly textStorable: boolean;
  /** Where a part of the record is: the value at `path`, or its key with `at: "key"`. */
  place(path: ValuePath, at?: "key" | "value"): Place;
}

/** One element of `users`. */
export interface UserRecord extends RecordBase {
  readonly kind: "user";
  /** True when `id` was a JSON number; `value.id` then holds its exact digits as a string. */
  readonly numericId: boolean;
  /** True when the reader guarantees no earlier user has this email (CSV merges a user's rows by email). */
  readonly emailUnique: boolean;
}

/** One element of `licenses`. */
export interface LicenseRecord extends RecordBase {
  readonly kind: "license";
  /** How many license users were streamed for it. */
  readonly userCount: number;
}

/** One element of a license's `users`. */
export interface LicenseUserRecord extends RecordBase {
  readonly kind: "licenseUser";
  /** The index of its license. */
  readonly licenseIndex: number;
  /** True when every user of the file had been read before this license user. */
  readonly afterUsers: boolean;
  /** True when the reader guarantees the email is a user's (a CSV row with an email defines its user). */
  readonly userKnown: boolean;
}

/** Any record. */
export type DataRecord = UserRecord | LicenseRecord | LicenseUserRecord;

/**
 * The fields of every kind of record, with its kind open: what a reader implements when one
 * class builds records of every kind (so that they share one hidden class). It is a
 * DataRecord as it is, no cast: each value of `kind` makes it the record of that kind.
 */
export interface RecordOfAnyKind
  extends Omit<UserRecord, "kind">,
    Omit<LicenseRecord, "kind">,
    Omit<LicenseUserRecord, "kind"> {
  readonly kind: DataRecord["kind"];
}
