// 64-bit fingerprints of strings, so that millions of emails fit in a few typed arrays.
// Two independent 32-bit hashes; the chance that two different emails among 10 million
// share a fingerprint is about 3 in a million.

/** The two halves of the last fingerprint computed (avoids allocating a pair per call). */
export const lastFingerprint = { h1: 0, h2: 0 };

/**
 * Fingerprints `text`, folding ASCII A–Z to lower case when `foldCase` (other letters go
 * through toLowerCase). The result is in `lastFingerprint`.
 */
export function fingerprint(text: string, foldCase: boolean): void {
  let s = text;
  if (foldCase) {
    for (let i = 0; i < s.length; i++) {
      if (s.charCodeAt(i) >= 0x80) {
        s = s.toLowerCase();
        break;
      }
    }
  }
  let h1 = 0x9747b28c ^ s.length;
  let h2 = 0x85ebca6b ^ s.length;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (foldCase && c >= 0x41 && c <= 0x5a) c += 0x20;
    h1 = Math.imul(h1 ^ c, 0x5bd1e995);
    h1 ^= h1 >>> 15;
    h2 = Math.imul(h2 + c, 0x27d4eb2d);
    h2 ^= h2 >>> 13;
  }
  lastFingerprint.h1 = mix(h1) | 0;
  lastFingerprint.h2 = mix(h2 ^ 0x165667b1) | 0;
}

function mix(h: number): number {
  let x = h;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x;
}
