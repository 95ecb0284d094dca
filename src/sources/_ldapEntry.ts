// A directory entry made a record: its DN, each attribute as a string (one value) or a list
// (several), and, for Active Directory, the values a mapping cannot compute from the raw ones —
// whether the account is disabled (a bit of userAccountControl), when it last signed in (a
// Windows file time) and the names of its groups (the CN of each memberOf DN).

import { Buffer } from "node:buffer";
import type { Entry } from "ldapts";
import type { SourceRecord } from "./writeRecords.js";

/** Binary attributes written as base64: identifiers a mapping may take for a user's id. */
export const BASE64_ATTRIBUTES = ["objectGUID", "objectSid", "mS-DS-ConsistencyGuid"] as const;

// left out: binary attributes (photos, certificates, keys: nothing a user's row holds) and
// passwords' hashes, which a directory may let its reader see but no file should hold
const LEFT_OUT = new Set(
  [
    "userPassword",
    "unicodePwd",
    "sambaNTPassword",
    "sambaLMPassword",
    "jpegPhoto",
    "thumbnailPhoto",
    "photo",
    "audio",
    "userCertificate",
    "userSMIMECertificate",
    "userPKCS12",
    "cACertificate",
    "msExchMailboxGuid",
    "msExchMailboxSecurityDescriptor",
    "nTSecurityDescriptor",
    "logonHours",
  ].map((name) => name.toLowerCase()),
);

const BASE64 = new Set(BASE64_ATTRIBUTES.map((name) => name.toLowerCase()));

// userAccountControl's ACCOUNTDISABLE flag
const ACCOUNT_DISABLED = 0x2;
// 100-nanosecond intervals between 1601-01-01 (a Windows file time's start) and 1970-01-01
const FILE_TIME_EPOCH = 116_444_736_000_000_000n;
// a file time past this is "never" (AD writes 0x7FFFFFFFFFFFFFFF for accountExpires, say)
const FILE_TIME_NEVER = 0x7fff_ffff_ffff_ffffn;

/** The record of `entry`: its `dn`, its attributes, and the derived Active Directory fields. */
export function recordOfEntry(entry: Entry): SourceRecord {
  const record: Record<string, unknown> = { dn: entry.dn };
  const byName = new Map<string, string[]>();
  for (const [name, raw] of Object.entries(entry)) {
    if (name === "dn") continue;
    const lower = name.toLowerCase();
    if (LEFT_OUT.has(lower) || lower.endsWith(";binary")) continue;
    const values = (Array.isArray(raw) ? raw : [raw]).map((value) =>
      Buffer.isBuffer(value) ? (BASE64.has(lower) ? value.toString("base64") : null) : String(value),
    );
    if (values.some((value) => value === null)) continue; // binary, and not an identifier
    const strings = values as string[];
    if (strings.length === 0) continue; // asked for, but the entry has none
    byName.set(lower, strings);
    record[name] = strings.length === 1 ? strings[0] : strings;
  }
  for (const [name, value] of Object.entries(derivedFields(byName))) {
    if (value === undefined) delete record[name];
    else record[name] = value;
  }
  return record;
}

/**
 * The Active Directory fields derived from the attributes (`byName`, lower-case names) present;
 * a field undefined is left out (a lastLogon of 0: never signed in).
 */
function derivedFields(byName: ReadonlyMap<string, readonly string[]>): Record<string, unknown> {
  const derived: Record<string, unknown> = {};
  const control = byName.get("useraccountcontrol")?.[0];
  if (control !== undefined && /^-?\d+$/.test(control.trim())) {
    derived.accountDisabled = String((Number(control) & ACCOUNT_DISABLED) !== 0);
  }
  // lastLogonTimestamp is replicated (to within 14 days); lastLogon is one controller's own and
  // may be later: the later of the two, and the raw lastLogon replaced by it (a number no
  // mapping reads as a date)
  const times = [byName.get("lastlogontimestamp")?.[0], byName.get("lastlogon")?.[0]]
    .map(dateOfFileTime)
    .filter((date): date is Date => date !== null)
    .sort((a, b) => b.getTime() - a.getTime());
  if (byName.has("lastlogon") || byName.has("lastlogontimestamp")) {
    derived.lastLogon = times[0]?.toISOString();
  }
  const groups = byName.get("memberof");
  if (groups !== undefined) derived.memberOfNames = groups.map(commonNameOf);
  return derived;
}

/** The date of a Windows file time (100-ns intervals since 1601), or null for 0, never or not one. */
export function dateOfFileTime(text: string | undefined): Date | null {
  if (text === undefined || !/^\d+$/.test(text.trim())) return null;
  const time = BigInt(text.trim());
  if (time === 0n || time >= FILE_TIME_NEVER || time < FILE_TIME_EPOCH) return null;
  return new Date(Number((time - FILE_TIME_EPOCH) / 10_000n));
}

/** The value of a DN's first RDN when it is a CN (CN=Sales\, EMEA,OU=… → "Sales, EMEA"); else the DN. */
export function commonNameOf(dn: string): string {
  const match = /^\s*cn\s*=\s*((?:\\.|[^,+\\])*)/i.exec(dn);
  if (!match) return dn;
  // escapes are of characters (\,) or of UTF-8 bytes (\c3\a9): the bytes gathered, then decoded
  const bytes: number[] = [];
  const text = (match[1] as string).trim();
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === "\\" ? /^[0-9a-fA-F]{2}/.exec(text.slice(i + 1)) : null;
    if (hex) {
      bytes.push(Number.parseInt(hex[0], 16));
      i += 2;
    } else {
      if (text[i] === "\\") i++;
      bytes.push(...Buffer.from(text[i] ?? "", "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}
