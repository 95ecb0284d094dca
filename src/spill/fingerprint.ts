// 64-bit fingerprints of strings, so that millions of emails fit in a few typed arrays: keyed,
// so that nobody can make two strings collide. HalfSipHash-2-4 with a 64-bit output (the
// reference's hsiphash, over the string's UTF-16 code units, little-endian) under a 64-bit key
// drawn at random when the module loads: a different key every run, which no file can know,
// so two different strings share a fingerprint with a chance of about 2^-64, whatever they
// are (among 10 million emails, about 3 in a million that any two do). Equality is decided by
// the strings where it matters (AddressSet); a fingerprint only narrows the search. A thread
// whose fingerprints are compared with another's must take its key (useFingerprintKey): none
// is today (a CSV file's parsing thread sends user numbers; a diff partitions by _partitionOf).

/** The two halves of the last fingerprint computed (avoids allocating a pair per call). */
export const lastFingerprint = { h1: 0, h2: 0 };

/** Computes a fingerprint of `text` into `lastFingerprint` (its case folded when `foldCase`). */
export type Fingerprinter = (text: string, foldCase: boolean) => void;

const key = new Int32Array(2);
globalThis.crypto.getRandomValues(key);
let k0 = key[0] as number;
let k1 = key[1] as number;

/** The state of the finalisation (no array allocated a call). */
const STATE = new Int32Array(4);

// the last string fingerprinted and its fingerprint: a license user's email is looked up in
// several sets in a row
let memoText: string | null = null;
let memoFold = false;
let memoH1 = 0;
let memoH2 = 0;

/** This thread's key, to hand to a thread whose fingerprints are compared with this one's. */
export function fingerprintKey(): [number, number] {
  return [k0, k1];
}

/** Uses `key` (another thread's fingerprintKey) from now on. */
export function useFingerprintKey(key: readonly [number, number]): void {
  [k0, k1] = key;
  memoText = null;
}

/**
 * Fingerprints `text`, folding ASCII A–Z to lower case when `foldCase` (other letters go
 * through toLowerCase, so the folding is toLowerCase's). The result is in `lastFingerprint`.
 */
export function fingerprint(text: string, foldCase: boolean): void {
  if (text === memoText && foldCase === memoFold) {
    lastFingerprint.h1 = memoH1;
    lastFingerprint.h2 = memoH2;
    return;
  }
  // ASCII is folded as it is read; a string with any other unit is folded by toLowerCase first
  if (!hash(text, foldCase, foldCase)) hash(text.toLowerCase(), true, false);
  memoText = text;
  memoFold = foldCase;
  memoH1 = lastFingerprint.h1;
  memoH2 = lastFingerprint.h2;
}

/**
 * Fingerprints `s` into `lastFingerprint`, ASCII A–Z folded when `foldAscii`; returns false,
 * with nothing computed, when `stopAtOther` and `s` holds a unit past ASCII.
 */
function hash(s: string, foldAscii: boolean, stopAtOther: boolean): boolean {
  const length = s.length;
  let v0 = k0;
  let v1 = k1 ^ 0xee;
  let v2 = 0x6c796765 ^ k0;
  let v3 = 0x74656462 ^ k1;
  let i = 0;
  for (; i + 1 < length; i += 2) {
    let a = s.charCodeAt(i);
    let b = s.charCodeAt(i + 1);
    if (foldAscii) {
      if (stopAtOther && (a | b) >= 0x80) return false;
      if (a >= 0x41 && a <= 0x5a) a += 0x20;
      if (b >= 0x41 && b <= 0x5a) b += 0x20;
    }
    const m = a | (b << 16);
    v3 ^= m;
    // two SipRounds (HalfSipHash's, on 32-bit words)
    v0 = (v0 + v1) | 0;
    v1 = (v1 << 5) | (v1 >>> 27);
    v1 ^= v0;
    v0 = (v0 << 16) | (v0 >>> 16);
    v2 = (v2 + v3) | 0;
    v3 = (v3 << 8) | (v3 >>> 24);
    v3 ^= v2;
    v0 = (v0 + v3) | 0;
    v3 = (v3 << 7) | (v3 >>> 25);
    v3 ^= v0;
    v2 = (v2 + v1) | 0;
    v1 = (v1 << 13) | (v1 >>> 19);
    v1 ^= v2;
    v2 = (v2 << 16) | (v2 >>> 16);
    v0 = (v0 + v1) | 0;
    v1 = (v1 << 5) | (v1 >>> 27);
    v1 ^= v0;
    v0 = (v0 << 16) | (v0 >>> 16);
    v2 = (v2 + v3) | 0;
    v3 = (v3 << 8) | (v3 >>> 24);
    v3 ^= v2;
    v0 = (v0 + v3) | 0;
    v3 = (v3 << 7) | (v3 >>> 25);
    v3 ^= v0;
    v2 = (v2 + v1) | 0;
    v1 = (v1 << 13) | (v1 >>> 19);
    v1 ^= v2;
    v2 = (v2 << 16) | (v2 >>> 16);
    v0 ^= m;
  }
  // the last block: the length in bytes (mod 256) on top, an odd code unit at the bottom
  let last = (length * 2) << 24;
  if (i < length) {
    let a = s.charCodeAt(i);
    if (foldAscii) {
      if (stopAtOther && a >= 0x80) return false;
      if (a >= 0x41 && a <= 0x5a) a += 0x20;
    }
    last |= a;
  }
  v3 ^= last;
  const state = STATE;
  state[0] = v0;
  state[1] = v1;
  state[2] = v2;
  state[3] = v3;
  rounds(state, 2);
  state[0] ^= last;
  state[2] ^= 0xee;
  rounds(state, 4);
  const h1 = (state[1] as number) ^ (state[3] as number);
  state[1] ^= 0xdd;
  rounds(state, 4);
  const h2 = (state[1] as number) ^ (state[3] as number);
  lastFingerprint.h1 = h1;
  lastFingerprint.h2 = h2;
  return true;
}

/** `count` SipRounds on `v` (v0–v3). */
function rounds(v: Int32Array, count: number): void {
  let v0 = v[0] as number;
  let v1 = v[1] as number;
  let v2 = v[2] as number;
  let v3 = v[3] as number;
  for (let r = 0; r < count; r++) {
    v0 = (v0 + v1) | 0;
    v1 = (v1 << 5) | (v1 >>> 27);
    v1 ^= v0;
    v0 = (v0 << 16) | (v0 >>> 16);
    v2 = (v2 + v3) | 0;
    v3 = (v3 << 8) | (v3 >>> 24);
    v3 ^= v2;
    v0 = (v0 + v3) | 0;
    v3 = (v3 << 7) | (v3 >>> 25);
    v3 ^= v0;
    v2 = (v2 + v1) | 0;
    v1 = (v1 << 13) | (v1 >>> 19);
    v1 ^= v2;
    v2 = (v2 << 16) | (v2 >>> 16);
  }
  v[0] = v0;
  v[1] = v1;
  v[2] = v2;
  v[3] = v3;
}
