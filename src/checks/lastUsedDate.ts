// lastUsedDate as real files carry it: a date-time or "" is accepted with a warning.
// (A value that is no date at all, or not a real calendar date, is a schema error.)

import { fullFormats } from "ajv-formats/dist/formats.js";
import type { Check } from "./Check.js";

const isDateTime = (fullFormats["date-time"] as { validate: (value: string) => boolean }).validate;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Warns when a user's lastUsedDate is a full date-time or an empty string. */
export function lastUsedDate(): Check {
  return {
    name: "last-used-date",
    kinds: ["user"],
    record(record, context) {
      if (record.kind !== "user") return;
      const value = (record.value as { lastUsedDate?: unknown } | null)?.lastUsedDate;
      if (typeof value !== "string" || DATE.test(value)) return;
      if (value === "") {
        context.report("user.lastUsedDate.empty", record, { path: ["lastUsedDate"], value });
      } else if (isDateTime(value)) {
        context.report("user.lastUsedDate.datetime", record, {
          path: ["lastUsedDate"],
          value,
          params: { value: JSON.stringify(value), date: value.slice(0, 10) },
        });
      }
    },
  };
}
