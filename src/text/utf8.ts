// Strict UTF-8 helpers: where a chunk can be cut without splitting a character,
// and where the first invalid byte is (TextDecoder only says "invalid").

import { isUtf8 } from "../bytes/buffer.js";

/**
 * Bytes at the end of `bytes` that start a character not yet complete (0–3), to keep back
 * until the next bytes come. None when the bytes before them are not UTF-8 anyway: the
 * invalid sequence is then judged with the bytes that follow it, as in the whole file (a cut
 * 3-byte character followed by a lead byte is "… but 0xC3 follows", whatever the chunking).
 */
export function incompleteTail(bytes: Uint8Array): number {
  const tail = unfinished(bytes);
  return tail > 0 && !isUtf8(bytes.subarray(0, bytes.length - tail)) ? 0 : tail;
}

function unfinished(bytes: Uint8Array): number {
  const k = lastLead(bytes);
  if (k < 0) return 0;
  const lead = bytes[k] as number;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return need > bytes.length - k ? bytes.length - k : 0;
}

/**
 * Bytes at the end of `bytes` that are a valid start of a character not yet complete (0–3).
 * Unlike incompleteTail, a start no character has (0xFF, 0xC0, an overlong `E0 80` or a
 * surrogate's `ED A0`) is not kept back: a strict decoder refuses it at once, whatever follows.
 */
export function startedCharacter(bytes: Uint8Array): number {
  const k = lastLead(bytes);
  if (k < 0) return 0;
  const n = bytes.length;
  const lead = bytes[k] as number;
  if (lead < 0xc2 || lead > 0xf4) return 0;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  if (need <= n - k) return 0;
  if (n - k >= 2) {
    const second = bytes[k + 1] as number;
    const [low, high] = SECOND_BYTE[lead] ?? [0x80, 0xbf];
    if (second < low || second > high) return 0;
  }
  return n - k;
}

/** The second byte a lead byte allows, where it is narrower than 80–BF (no overlong, no surrogate). */
const SECOND_BYTE: Readonly<Record<number, readonly [number, number]>> = {
  224: [0xa0, 0xbf],
  237: [0x80, 0x9f],
  240: [0x90, 0xbf],
  244: [0x80, 0x8f],
};

/** Where the last character of `bytes` starts: back over at most 3 continuation bytes; -1 when none. */
function lastLead(bytes: Uint8Array): number {
  const n = bytes.length;
  let k = n - 1;
  while (k >= 0 && n - k <= 3 && ((bytes[k] as number) & 0xc0) === 0x80) k--;
  return k;
}

/** Where and why `bytes` stops being UTF-8, or null when it is valid (an incomplete tail counts as invalid). */
export function findInvalidUtf8(bytes: Uint8Array): { index: number; reason: string } | null {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      const what =
        b >= 0x80 && b <= 0xbf ? "a continuation byte without a lead byte" : "never valid in UTF-8";
      return { index: i, reason: `byte 0x${hex(b)} is ${what}` };
    }
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      if (i + k >= n)
        return { index: i, reason: `byte 0x${hex(b)} starts a character that the file cuts off` };
      const c = bytes[i + k] as number;
      if ((c & 0xc0) !== 0x80) {
        return {
          index: i,
          reason: `byte 0x${hex(b)} starts a ${need + 1}-byte character but 0x${hex(c)} follows`,
        };
      }
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min) return { index: i, reason: `bytes at 0x${hex(b)} are an overlong encoding` };
    if (cp >= 0xd800 && cp <= 0xdfff)
      return { index: i, reason: "bytes encode a UTF-16 surrogate, which UTF-8 forbids" };
    if (cp > 0x10ffff) return { index: i, reason: "bytes encode a code point above U+10FFFF" };
    i += need + 1;
  }
  return null;
}

function hex(b: number): string {
  return b.toString(16).toUpperCase().padStart(2, "0");
}

/** UTF-8 length of `text[from, to)`. */
export function utf8Length(text: string, from = 0, to = text.length): number {
  let bytes = to - from;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) bytes += c < 0x800 ? 1 : c >= 0xd800 && c <= 0xdfff ? 1 : 2;
  }
  return bytes;
}

/**
 * Writes at `k` of `page` the UTF-8 of the character at `text[i]`, a UTF-16 unit of 0x80 or
 * more (and the one after it, for the first half of a surrogate pair: the caller then steps
 * past both); returns where it ends, or -1 for a lone half of a pair, which UTF-8 cannot hold.
 * The writers of millions of short strings (JSON, COPY text) encode as they copy with it.
 */
export function writeWideChar(page: Uint8Array, k: number, text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x800) {
    page[k++] = 0xc0 | (c >> 6);
    page[k++] = 0x80 | (c & 0x3f);
  } else if (c < 0xd800 || c > 0xdfff) {
    page[k++] = 0xe0 | (c >> 12);
    page[k++] = 0x80 | ((c >> 6) & 0x3f);
    page[k++] = 0x80 | (c & 0x3f);
  } else {
    const low = text.charCodeAt(i + 1); // NaN past the end
    if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) return -1;
    const p = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
    page[k++] = 0xf0 | (p >> 18);
    page[k++] = 0x80 | ((p >> 12) & 0x3f);
    page[k++] = 0x80 | ((p >> 6) & 0x3f);
    page[k++] = 0x80 | (p & 0x3f);
  }
  return k;
}

/** Whether `c`, a UTF-16 unit, is the first half of a surrogate pair. */
export function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
