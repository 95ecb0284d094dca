// The hot loop of the JSON reader: finds where one value ends without parsing it. It
// tracks strings and escapes, the kind of each open bracket, the commas at the value's own
// top level (to detect duplicate keys later), line starts and the extra bytes of non-ASCII
// characters (for exact byte offsets). Everything else is JSON.parse's job.

/** Where the scan is in the source: updated by the loop, shared with the skeleton. */
export interface Cursor {
  /** Current line (1-based). */
  line: number;
  /** Absolute char index where the current line starts. */
  lineStart: number;
  /** Absolute char index of the current chunk's first char. */
  charBase: number;
  /** Extra UTF-8 bytes (beyond one per char) in the current chunk up to the scan position. */
  extra: number;
}

/** An object or array (`{`, `[`), a string, or a number or literal. */
export const NESTED = 0;
export const STRING = 1;
export const PRIMITIVE = 2;

/** The scan goes on in the next chunk / the value ended / a bracket does not match / too deep. */
export const RUNNING = 0;
export const DONE = 1;
export const MISMATCH = 2;
export const TOO_DEEP = 3;

const LF = 0x0a;
const SPACE = 0x20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** The state of one value being scanned, kept across chunks. */
export class ValueScan {
  mode = NESTED;
  status = RUNNING;
  depth = 0;
  inString = false;
  /** The char after a backslash is in the next chunk. */
  escape = false;
  commas = 0;
  /** The opening bracket at each depth. */
  readonly kinds: Uint8Array;

  constructor(maxDepth: number) {
    this.kinds = new Uint8Array(maxDepth + 1);
  }

  /** Starts a value whose first char is `c`. */
  begin(c: number): void {
    this.mode = c === OPEN_BRACE || c === OPEN_BRACKET ? NESTED : c === QUOTE ? STRING : PRIMITIVE;
    this.status = RUNNING;
    this.depth = 0;
    this.inString = false;
    this.escape = false;
    this.commas = 0;
  }
}

/** Chars that can continue a number or a literal; anything else ends it. */
function isPrimitiveChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    c === 0x2e ||
    c === 0x2b ||
    c === 0x2d
  );
}

/**
 * Scans `text[i, n)` for the end of the value; returns the index where scanning stopped
 * (just past the value when DONE, at the offending bracket for MISMATCH and TOO_DEEP, `n`
 * while RUNNING). `depthLimit` is how deep the value itself may nest.
 */
export function scanValue(
  scan: ValueScan,
  cursor: Cursor,
  text: string,
  i: number,
  n: number,
  depthLimit: number,
): number {
  if (scan.mode === PRIMITIVE) {
    while (i < n && isPrimitiveChar(text.charCodeAt(i))) i++;
    if (i < n) scan.status = DONE;
    return i;
  }
  const kinds = scan.kinds;
  const charBase = cursor.charBase;
  let depth = scan.depth;
  let inString = scan.inString;
  let commas = scan.commas;
  let extra = cursor.extra;
  let line = cursor.line;
  let lineStart = cursor.lineStart;
  let status = RUNNING;
  if (scan.escape) {
    scan.escape = false;
    i++;
  }
  for (; i < n; i++) {
    let c = text.charCodeAt(i);
    if (inString || c === QUOTE) {
      // a string: its own tight loop (most chars of a record are in strings)
      if (!inString) i++;
      inString = true;
      for (; i < n; i++) {
        c = text.charCodeAt(i);
        if (c === QUOTE) {
          inString = false;
          break;
        }
        if (c === BACKSLASH) i++;
        else if (c >= 0x80) extra += c < 0x800 ? 1 : (c & 0xf800) === 0xd800 ? 1 : 2;
      }
      if (inString) break; // the chunk ends inside the string
      if (depth === 0) {
        status = DONE;
        i++;
        break;
      }
      continue;
    }
    if (c <= SPACE) {
      // whitespace (a control char here is JSON.parse's to report)
      if (c === LF) {
        line++;
        lineStart = charBase + i + 1;
      }
      continue;
    }
    if (c === COMMA) {
      if (depth === 1) commas++;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (depth >= depthLimit) {
        status = TOO_DEEP;
        break;
      }
      kinds[depth++] = c;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      // `}` is `{` + 2 and `]` is `[` + 2
      if (depth === 0 || kinds[depth - 1] !== c - 2) {
        status = MISMATCH;
        break;
      }
      if (--depth === 0) {
        status = DONE;
        i++;
        break;
      }
    } else if (c >= 0x80) extra += c < 0x800 ? 1 : (c & 0xf800) === 0xd800 ? 1 : 2;
  }
  if (i > n) {
    scan.escape = true;
    i = n;
  }
  scan.depth = depth;
  scan.inString = inString;
  scan.commas = commas;
  scan.status = status;
  cursor.extra = extra;
  cursor.line = line;
  cursor.lineStart = lineStart;
  return i;
}
