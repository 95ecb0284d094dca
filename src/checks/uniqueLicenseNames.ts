// No two licenses share a name.

import { showValue } from "../report/describe.js";
import { FingerprintSet } from "../spill/FingerprintSet.js";
import { fingerprint, lastFingerprint } from "../spill/fingerprint.js";
import type { Check } from "./Check.js";

/** Reports every license whose name an earlier license already has. */
export function uniqueLicenseNames(): Check {
  const names = new FingerprintSet();
  return {
    name: "unique-license-names",
    kinds: ["license"],
    record(record, context) {
      if (record.kind !== "license") return;
      const name = (record.value as { name?: unknown } | null)?.name;
      if (typeof name !== "string" || name === "") return;
      fingerprint(name, false);
      const first = names.add(lastFingerprint.h1, lastFingerprint.h2, record.index);
      if (first < 0) return;
      context.report("license.name.duplicate", record, {
        path: ["name"],
        value: name,
        params: { value: showValue(name), first: `/licenses/${first}` },
      });
    },
    dispose() {
      names.dispose();
    },
  };
}
