// A record assembled from CSV rows: a user, a license or a license user, placed by row,
// line and column name (its JSON pointer is where it would be in the JSON document).

import type { Place, RecordOfAnyKind, ValuePath } from "../model/DataRecord.js";
import type { SourceLocation } from "../report/Finding.js";
import { escapePointer } from "../text/pointer.js";

/** Where a part of the record comes from: the row, and the header name of the column. */
export interface CsvOrigin {
  row: number;
  loc: SourceLocation;
  /** The header name of the column behind each property of the value. */
  fields: Readonly<Record<string, string>>;
  /** A property whose value came from another row (a license column first given later). */
  elsewhere?: Readonly<Record<string, { row: number; loc: SourceLocation }>>;
}

/** A user, license or license user read from CSV. */
export class CsvRecord implements RecordOfAnyKind {
  constructor(
    readonly kind: RecordOfAnyKind["kind"],
    readonly index: number,
    readonly licenseIndex: number,
    readonly value: unknown,
    readonly origin: CsvOrigin,
    readonly userCount = 0,
  ) {}

  /** Every user is known before any license user is read back. */
  readonly afterUsers = true;
  /** A row with an email defines its user, so every license user is one of the users. */
  readonly userKnown = true;
  /** Rows with the same email are one user. */
  readonly emailUnique = true;
  /** A CSV id is text, never a number. */
  readonly numericId = false;
  /** A cell may hold any character. */
  readonly textStorable = false;

  get loc(): SourceLocation {
    return this.origin.loc;
  }

  get row(): number {
    return this.origin.row;
  }

  get pointer(): string {
    if (this.kind === "user") return `/users/${this.index}`;
    if (this.kind === "license") return `/licenses/${this.index}`;
    return `/licenses/${this.licenseIndex}/users/${this.index}`;
  }

  place(path: ValuePath): Place {
    let pointer = this.pointer;
    for (const segment of path)
      pointer += `/${typeof segment === "number" ? segment : escapePointer(segment)}`;
    const key = typeof path[0] === "string" ? path[0] : undefined;
    const from = (key !== undefined && this.origin.elsewhere?.[key]) || this.origin;
    const place: Place = { pointer, location: from.loc, row: from.row };
    const field = key === undefined ? undefined : this.origin.fields[key];
    if (field !== undefined) place.field = field;
    return place;
  }
}

/** A license user as its row gives it (its email, and the license status cell read in the dialect). */
export function licenseUserRecord(
  licenseIndex: number,
  index: number,
  email: string,
  licenseStatus: string,
  at: { row: number; line: number; offset: number },
  fields: Readonly<Record<string, string>>,
): CsvRecord {
  const value = licenseUserValue(email, licenseStatus);
  const loc = { line: at.line, column: 1, offset: at.offset };
  return new CsvRecord("licenseUser", index, licenseIndex, value, { row: at.row, loc, fields });
}

/** The value of a license user as its row gives it: its email, and its license status when the row has one. */
export function licenseUserValue(email: string, licenseStatus: string): Record<string, unknown> {
  const value: Record<string, unknown> = { email };
  if (licenseStatus !== "") value.licenseStatus = licenseStatus;
  return value;
}
