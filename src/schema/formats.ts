// What the precompiled validators (_compiled.ts) call at run time: the formats that are
// functions, and the length of a string in code points.
//
// "date" is RFC 3339's full-date (YYYY-MM-DD, a real calendar date) as ajv-formats decides it,
// without the match array and the three substrings of its regex: nearly every user carries a
// date, and the checks of a large file spent more time here than in any other format.
// test/unit/schemas.test.ts compares the two on any string.

import { fullFormats } from "ajv-formats/dist/formats.js";

const DASH = 0x2d;
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

/** The formats the schemas use that are functions (ajv writes "email", a regular expression, into the code). */
export const formats = {
  date: { type: "string", validate: isFullDate },
  "date-time": fullFormats["date-time"],
} as const;

/** The length of `s` in code points, as JSON Schema's minLength and maxLength count (a lone surrogate is one). */
export function ucs2length(s: string): number {
  let length = 0;
  for (const _ of s) length++;
  return length;
}
