// Text the service can store: PostgreSQL's text holds no NUL character (U+0000), and UTF-8
// has no lone surrogate (a JSON escape such as "\ud800" with no partner), which the driver
// would silently turn into U+FFFD. A file that validate accepts must sync as written, so
// either is an error where it is, not a 500 at the sync or a changed name after it.
// (email, status, licenseStatus and lastUsedDate are held to formats and values that
// exclude both; the free text is checked here.)

import type { DataRecord, ValuePath } from "../model/DataRecord.js";
import type { Check, CheckContext } from "./Check.js";

const USER_TEXT = ["id", "firstName", "lastName", "externalStatus"] as const;

/** Reports text of a user or a license that holds a NUL character or a lone surrogate. */
export function storableText(): Check {
  return {
    name: "storable-text",
    kinds: ["user", "license"],
    record(record, context) {
      const value = record.value;
      if (record.textStorable || typeof value !== "object" || value === null || Array.isArray(value)) return;
      const fields = value as Record<string, unknown>;
      if (record.kind === "user") {
        for (const field of USER_TEXT) checkText(fields[field], [field], "user", record, context);
        const roles = fields.roles;
        if (Array.isArray(roles)) {
          for (let i = 0; i < roles.length; i++) checkText(roles[i], ["roles", i], "user", record, context);
        }
      } else if (record.kind === "license") {
        checkText(fields.name, ["name"], "license", record, context);
      }
    },
  };
}

function checkText(
  text: unknown,
  path: ValuePath,
  kind: "user" | "license",
  record: DataRecord,
  context: CheckContext,
): void {
  if (typeof text !== "string" || !suspect(text)) return;
  const field = path.join("/");
  const nul = text.indexOf("\0");
  if (nul >= 0) {
    context.report(`${kind}.text.nul`, record, { path, value: text, params: { field, at: nul + 1 } });
    return;
  }
  const at = loneSurrogate(text);
  if (at < 0) return; // pairs only
  context.report(`${kind}.text.surrogate`, record, {
    path,
    value: text,
    params: { field, at: at + 1, escape: `\\u${text.charCodeAt(at).toString(16)}` },
  });
}

/**
 * Whether `text` holds a NUL or any surrogate (most are halves of a pair, as in an emoji: looked
 * at again only then). A loop over the short strings of names: a fifth of a regex test's cost.
 */
function suspect(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0 || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

/** The index of the first UTF-16 unit of `text` that is a surrogate without its partner. */
function loneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    else return i;
  }
  return -1;
}
