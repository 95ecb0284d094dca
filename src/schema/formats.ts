// What the precompiled validators (_compiled.ts) call at run time: the formats that are
// functions, and the length of a string in code points.
//
// Each answers as ajv-formats' own format does, for any string (test/unit/schemas.test.ts
// compares them), only faster: every user and license user carries an email and nearly every
// user a date, and the checks of a large file spent more time in these than in any other part
// of the schemas.
// - "date" is RFC 3339's full-date (YYYY-MM-DD, a real calendar date), without the match array
//   and the three substrings of ajv-formats' regex.
// - "date-time" is ajv-formats' own, after a test of the length: a date (10 chars) is never a
//   date-time, and ajv-formats found that out by splitting it with a regex. The user schema's
//   lastUsedDate tries both (anyOf), so every date was also tried as a date-time.
// - "email" is ajv-formats' regex (dot-atoms, "@", two or more hostname labels; ASCII letters
//   in either case) as a loop over a table of chars.

import { fullFormats } from "ajv-formats/dist/formats.js";

const DASH = 0x2d;
const DOT = 0x2e;
const AT = 0x40;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The `count` chars of `s` from `at` as a decimal number, or -1 if one of them is not an ASCII digit. */
function digits(s: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = s.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** Whether `s` is a full-date: four, two and two digits joined by dashes, a day its month has. */
export function isFullDate(s: string): boolean {
  if (s.length !== 10 || s.charCodeAt(4) !== DASH || s.charCodeAt(7) !== DASH) return false;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (DAYS[month] as number));
}

const ajvDateTime = (fullFormats["date-time"] as { validate: (s: string) => boolean }).validate;

/** Whether `s` is an RFC 3339 date-time, as ajv-formats decides it. */
export function isDateTime(s: string): boolean {
  // its date part, before the first separator, must be 10 chars long
  return s.length > 10 && ajvDateTime(s);
}

// what each ASCII char may be in an email: bit 1 in the local part, bit 2 in a domain label
const LOCAL = 1;
const LABEL = 2;
const EMAIL_CHARS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const alphanumeric = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const local = alphanumeric || "!#$%&'*+/=?^_`{|}~-".includes(String.fromCharCode(c));
  EMAIL_CHARS[c] = (local ? LOCAL : 0) | (alphanumeric || c === DASH ? LABEL : 0);
}

/** The run of chars of `kind` in `s` from `i`: where it ends. */
function runOf(s: string, i: number, kind: number): number {
  let end = i;
  while (end < s.length) {
    const c = s.charCodeAt(end);
    if (c >= 128 || ((EMAIL_CHARS[c] as number) & kind) === 0) break;
    end++;
  }
  return end;
}

/**
 * Whether `s` is an email as ajv-formats' regex decides it: non-empty atoms joined by single dots,
 * "@", then two or more labels joined by dots, each letters, digits and inner hyphens.
 */
export function isEmail(s: string): boolean {
  let i = 0;
  for (;;) {
    const end = runOf(s, i, LOCAL);
    if (end === i) return false;
    const c = s.charCodeAt(end);
    i = end + 1;
    if (c === AT) break;
    if (c !== DOT) return false;
  }
  for (let labels = 1; ; labels++) {
    const end = runOf(s, i, LABEL);
    if (end === i || s.charCodeAt(i) === DASH || s.charCodeAt(end - 1) === DASH) return false;
    if (end === s.length) return labels >= 2;
    if (s.charCodeAt(end) !== DOT) return false;
    i = end + 1;
  }
}

/** The formats the schemas use, as the compiled validators call them. */
export const formats = {
  date: { type: "string", validate: isFullDate },
  "date-time": { type: "string", validate: isDateTime },
  email: { type: "string", validate: isEmail },
} as const;

/** The length of `s` in code points, as JSON Schema's minLength and maxLength count (a lone surrogate is one). */
export function ucs2length(s: string): number {
  let length = 0;
  for (const _ of s) length++;
  return length;
}
