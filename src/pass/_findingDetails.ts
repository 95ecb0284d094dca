// A check's FindingSpec made into the collector's FindingDetails, locating it in the record.

import type { FindingSpec } from "../checks/Check.js";
import type { DataRecord } from "../model/DataRecord.js";
import type { FindingDetails } from "../report/Finding.js";

/** The details of a finding about `record` (or the document when null), located only now. */
export function findingDetails(record: DataRecord | null, spec: FindingSpec): FindingDetails {
  const place = spec.place ?? record?.place(spec.path ?? [], spec.at) ?? { pointer: "" };
  const d: FindingDetails = { pointer: place.pointer };
  if (place.location) d.location = place.location;
  if (place.row !== undefined) d.row = place.row;
  const field = spec.field ?? place.field;
  if (field !== undefined) d.field = field;
  if (spec.params) d.params = spec.params;
  if (spec.hint !== undefined) d.hint = spec.hint;
  if (spec.value !== undefined) d.value = spec.value;
  return d;
}
