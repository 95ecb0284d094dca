// The shape of a check: a small object with hooks that report findings. The same checks
// run on records from JSON and from CSV.

import type { DataRecord, Place, ValuePath } from "../model/DataRecord.js";
import type { Code } from "../report/catalog.js";

/** What a check says about a finding; the place is resolved only if the finding is kept. */
export interface FindingSpec {
  /** Path inside the record; the record itself when absent. */
  path?: ValuePath;
  /** Point at the property name rather than its value. */
  at?: "key" | "value";
  params?: Readonly<Record<string, string | number>>;
  value?: unknown;
  hint?: string;
  /** The property concerned when the path does not name it (a missing property). */
  field?: string;
  /** Where the finding is, when it is already known (the record may be gone). */
  place?: Place;
}

/** What a check can do while it runs. */
export interface CheckContext {
  /** Reports a finding about `record` (or about the document when null). */
  report(code: Code, record: DataRecord | null, spec?: FindingSpec): void;
  /** Errors reported so far about the record being checked, by every check. */
  readonly recordErrors: number;
}

/**
 * A check: `record` is called for every record in the order the reader yields them (a JSON
 * file's as each one ends, so a license after its users; a CSV file's users row by row, then,
 * after the last row, each license followed by its users), `end` once after the last.
 */
export interface Check {
  readonly name: string;
  /** The kinds of record `record` looks at (every kind when absent): the others are not given it. */
  readonly kinds?: readonly DataRecord["kind"][];
  record?(record: DataRecord, context: CheckContext): void;
  end?(context: CheckContext): void;
  /** Releases what the check holds (temporary files); called after `end` or on abort. */
  dispose?(): void;
}

/** The checks of `checks` that look at records of each kind, in their order. */
export function checksByKind(checks: readonly Check[]): Readonly<Record<DataRecord["kind"], Check[]>> {
  const of = (kind: DataRecord["kind"]) =>
    checks.filter((check) => check.record && (!check.kinds || check.kinds.includes(kind)));
  return { user: of("user"), license: of("license"), licenseUser: of("licenseUser") };
}
