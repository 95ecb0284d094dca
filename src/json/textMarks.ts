// The places in a chunk's text that reading plain records whole looks up (JsonScanner): its
// line feeds, its colons whose last char before them, whitespace aside, is a quote (each
// key's colon is one), and its `\u` (the only way a NUL or a lone surrogate gets into a JSON
// string). Found once for the whole chunk, by the decoding thread when there is one, so that
// the scanning thread only counts them between two places, by binary search.

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;

/** Ascending positions in one chunk's text. */
export interface TextMarks {
  lineFeeds: Int32Array<ArrayBuffer>;
  keyColons: Int32Array<ArrayBuffer>;
  /** Where a backslash is followed by `u` (one that is itself escaped too: few, and on the safe side). */
  unicodeEscapes: Int32Array<ArrayBuffer>;
}

let scratch = new Int32Array(1 << 14);

/** The marks of `text`. */
export function marksOf(text: string): TextMarks {
  return {
    lineFeeds: positions(text, "\n", false),
    keyColons: positions(text, ":", true),
    unicodeEscapes: positions(text, "\\u", false),
  };
}

/**
 * Where `char` is in `text`; with `afterQuote`, only where the last char before it, whitespace
 * aside, is a quote.
 */
function positions(text: string, char: string, afterQuote: boolean): Int32Array<ArrayBuffer> {
  let n = 0;
  for (let k = text.indexOf(char); k >= 0; k = text.indexOf(char, k + 1)) {
    if (afterQuote) {
      let p = k - 1;
      let c = text.charCodeAt(p);
      while (c === SPACE || c === LF || c === CR || c === TAB) c = text.charCodeAt(--p);
      if (c !== QUOTE) continue;
    }
    if (n === scratch.length) {
      const larger = new Int32Array(n * 2);
      larger.set(scratch);
      scratch = larger;
    }
    scratch[n++] = k;
  }
  return scratch.slice(0, n);
}

/** How many of the ascending `marks` are below `at`. */
export function countBelow(marks: Int32Array, at: number): number {
  let lo = 0;
  let hi = marks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((marks[mid] as number) < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
