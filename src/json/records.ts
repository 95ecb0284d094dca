// The records the JSON reader yields, keeping the source text of each so that a finding
// can be located inside it (only when one is reported).

import type { LicenseRecord, Place, RecordOfAnyKind, ValuePath } from "../model/DataRecord.js";
import type { SourceLocation } from "../report/Finding.js";
import { escapePointer } from "../text/pointer.js";
import { findInJson } from "./_locate.js";
import { locationIn } from "./_position.js";
import type { RecordSource } from "./_RecordBatch.js";

/** A value as captured from the source: its text, where it starts, and its commas at its own top level. */
export interface Captured {
  text: string;
  loc: SourceLocation;
  commas: number;
}

/** One property of a license object other than its array of users. */
export interface LicenseMember {
  key: string;
  keyLoc: SourceLocation;
  value: unknown;
  source: Captured;
}

function pathPointer(base: string, path: ValuePath): string {
  let p = base;
  for (const segment of path) p += `/${typeof segment === "number" ? segment : escapePointer(segment)}`;
  return p;
}

/**
 * A user, license user, or non-object license, with its source kept for locating: its text and
 * location, or, for a record read in a batch, the means to find them (only when asked).
 */
export class JsonValueRecord implements RecordOfAnyKind {
  constructor(
    readonly kind: RecordOfAnyKind["kind"],
    readonly index: number,
    readonly licenseIndex: number,
    readonly value: unknown,
    readonly source: RecordSource,
    readonly numericId = false,
    readonly afterUsers = false,
    readonly textStorable = false,
  ) {}

  get text(): string {
    return this.source.text;
  }

  get loc(): SourceLocation {
    return this.source.loc;
  }

  /** JSON lists users and license users apart: membership is for the checks to find out. */
  get userKnown(): boolean {
    return false;
  }

  /** Whether two users share an email is for the checks to find out. */
  get emailUnique(): boolean {
    return false;
  }

  get userCount(): number {
    return 0;
  }

  get pointer(): string {
    if (this.kind === "user") return `/users/${this.index}`;
    if (this.kind === "license") return `/licenses/${this.index}`;
    return `/licenses/${this.licenseIndex}/users/${this.index}`;
  }

  place(path: ValuePath, at: "key" | "value" = "value"): Place {
    const index = path.length === 0 ? 0 : findInJson(this.text, path, at);
    const location = index < 0 ? this.loc : locationIn(this.text, index, this.loc);
    return withField({ pointer: pathPointer(this.pointer, path), location }, path);
  }
}

/** A license object, assembled from its properties; its users were streamed before it. */
export class JsonLicenseRecord implements LicenseRecord {
  readonly kind = "license";
  readonly textStorable = false;

  constructor(
    readonly index: number,
    readonly value: Record<string, unknown>,
    readonly loc: SourceLocation,
    readonly members: readonly LicenseMember[],
    readonly usersLoc: SourceLocation | null,
    readonly userCount: number,
  ) {}

  get pointer(): string {
    return `/licenses/${this.index}`;
  }

  place(path: ValuePath, at: "key" | "value" = "value"): Place {
    const pointer = pathPointer(this.pointer, path);
    const [key, ...rest] = path;
    let location = this.loc;
    if (key === "users" && this.usersLoc) location = this.usersLoc;
    else {
      const member = this.members.findLast((m) => m.key === key);
      if (member) {
        const index = rest.length === 0 ? 0 : findInJson(member.source.text, rest, at);
        location =
          rest.length === 0 && at === "key"
            ? member.keyLoc
            : locationIn(member.source.text, Math.max(index, 0), member.source.loc);
      }
    }
    return withField({ pointer, location }, path);
  }
}

function withField(place: Place, path: ValuePath): Place {
  const last = path[path.length - 1];
  if (typeof last === "string") place.field = last;
  return place;
}
