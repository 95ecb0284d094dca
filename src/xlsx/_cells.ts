// What a workbook cell's stored value means as the text of a CSV cell: numbers as Excel shows
// them in General (whole numbers as their digits), dates as YYYY-MM-DD, booleans as TRUE and
// FALSE; and which number formats are dates.

/** Built-in number formats that show dates or times (ECMA-376 part 1, 18.8.30). */
const DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58,
]);

/** Whether a number format (its id, and its code when custom) shows a date or a time. */
export function isDateFormat(id: number, code: string | undefined): boolean {
  if (code === undefined) return DATE_FORMATS.has(id);
  // quoted text, escaped and padding characters, [colour] and [$-locale] parts say nothing
  const bare = code
    .replace(/"[^"]*"/g, "")
    .replace(/\\.|_.|\*./g, "")
    .replace(/\[[^\]]*\]/g, "");
  return /[dmyhs]/i.test(bare.replace(/General|E[+-]/gi, ""));
}

const DAY = 86_400_000;
// serial 0 of the 1900 system is 1899-12-30 once Excel's phantom 1900-02-29 (serial 60) is past
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

// the days seen, as text: a sheet's dates repeat, and making one costs a Date
const DAYS = new Map<number, string>();

/** A date cell's serial number as YYYY-MM-DD (the time of day dropped); null when out of range. */
export function serialDate(serial: number, date1904: boolean): string | null {
  if (!Number.isFinite(serial) || serial < 0 || serial >= 2_958_466) return null;
  let days = Math.floor(serial + 1e-9);
  if (!date1904 && days < 61) days += 1; // serials 1..59 count from 1899-12-31
  const key = date1904 ? -1 - days : days;
  let text = DAYS.get(key);
  if (text === undefined) {
    text = new Date((date1904 ? EPOCH_1904 : EPOCH_1900) + days * DAY).toISOString().slice(0, 10);
    if (DAYS.size < 100_000) DAYS.set(key, text);
  }
  return text;
}

/** A number cell's stored text as Excel's General format shows it: at most 15 significant digits. */
export function numberText(stored: string): string {
  const n = Number(stored);
  if (stored.trim() === "" || !Number.isFinite(n)) return stored;
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  return String(Number(n.toPrecision(15)));
}

/** A cell reference's column letters as a 0-based index ("A1" → 0, "AB7" → 27); -1 when none. */
export function columnIndex(reference: string): number {
  let index = 0;
  let i = 0;
  for (; i < reference.length; i++) {
    const c = reference.charCodeAt(i) | 0x20; // lower case
    if (c < 0x61 || c > 0x7a) break;
    index = index * 26 + (c - 0x60);
  }
  return i === 0 ? -1 : index - 1;
}

/**
 * The ASCII digits `bytes[from, to)` as a whole number, when they are 1 to 15 of them and
 * nothing else (a shared string's index, an id, a date's serial); -1 otherwise. Read without
 * a string made.
 */
export function wholeNumber(bytes: Uint8Array, from: number, to: number): number {
  if (to <= from || to - from > 15) return -1;
  let value = 0;
  for (let k = from; k < to; k++) {
    const d = (bytes[k] as number) - 0x30;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** A 0-based column index as letters (0 → "A", 27 → "AB"). */
export function columnLetters(index: number): string {
  let letters = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(0x41 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** A sheet name as a reference writes it: quoted when it is not a plain word (`'My users'!A1`). */
export function sheetReference(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

/**
 * Text as XML character data: markup characters as entities; characters XML cannot hold
 * (controls, CR, which parsers turn into LF) as OOXML's `_xHHHH_`, and a literal `_xHHHH_`
 * escaped in turn so that it reads back as written.
 */
export function escapeText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML cannot hold are what it finds
  return text.replace(/[&<>]|_(?=x[0-9A-Fa-f]{4}_)|[\u0000-\u0008\u000b-\u001f\ufffe\uffff]/g, (c) => {
    if (c === "&") return "&amp;";
    if (c === "<") return "&lt;";
    if (c === ">") return "&gt;";
    return `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}_`;
  });
}

/** Text with OOXML's `_xHHHH_` escapes (characters XML cannot hold) decoded, as Excel shows it. */
export function unescapeText(text: string): string {
  if (!text.includes("_x")) return text;
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}
