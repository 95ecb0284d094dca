// The partition of a diff's line by its email: a fixed hash of the email in lower case, the
// same in every run and on every thread, so that a diff's changes come out in the same order
// wherever it runs (partition by partition). It only spreads the emails: which users are one
// is decided within a partition by the emails themselves (compare.ts), so no key is needed.
// (The h1 half of the unkeyed fingerprint syncfile had before issue 48: the order is unchanged.)

/** The partition, of `partitions`, of the line of `email`. */
export function partitionOf(email: string, partitions: number): number {
  let s = email;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x80) {
      s = s.toLowerCase();
      break;
    }
  }
  let h = 0x9747b28c ^ s.length;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    h = Math.imul(h ^ c, 0x5bd1e995);
    h ^= h >>> 15;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % partitions;
}
