// Two different email addresses that collide under the unkeyed fingerprint syncfile used until
// issue 48 (item 3): a copy of that function, and a search that finds such a pair in about a
// second. The old fingerprint is two 32-bit chains (h1, h2) over the characters, each step
// one-to-one for a given character, then a one-to-one mix: two strings of one length collide
// when both chains end in the same state. Joux's multicollision does it: 18 times, two 4-letter
// blocks that take h1 from one state to the same next state (a birthday search over 32 bits);
// any choice of one of each pair then gives the same h1, 2^18 strings, among which two share h2
// (another birthday search).

/** The fingerprint (h1, h2) of `text` as syncfile computed it before (ASCII lower case only). */
export function oldFingerprint(text: string): [number, number] {
  let h1 = 0x9747b28c ^ text.length;
  let h2 = 0x85ebca6b ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x5bd1e995);
    h1 ^= h1 >>> 15;
    h2 = Math.imul(h2 + c, 0x27d4eb2d);
    h2 ^= h2 >>> 13;
  }
  return [mix(h1) | 0, mix(h2 ^ 0x165667b1) | 0];
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

const LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789";
const BLOCKS = 18;
const PREFIX = "u";
const SUFFIX = "@example.com";

function step1(h: number, c: number): number {
  const x = Math.imul(h ^ c, 0x5bd1e995);
  return x ^ (x >>> 15);
}

function step2(h: number, c: number): number {
  const x = Math.imul(h + c, 0x27d4eb2d);
  return x ^ (x >>> 13);
}

/** The `n`th 4-letter block (n < 36^4). */
function block(n: number): string {
  let s = "";
  let k = n;
  for (let i = 0; i < 4; i++) {
    s += LETTERS[k % 36];
    k = Math.floor(k / 36);
  }
  return s;
}

function run(h: number, text: string, step: (h: number, c: number) => number): number {
  let x = h;
  for (let i = 0; i < text.length; i++) x = step(x, text.charCodeAt(i));
  return x;
}

/**
 * Two different lower-case addresses (`u<72 letters>@example.com`) with the same old
 * fingerprint. Deterministic: the same pair on every call.
 */
export function collidingEmails(): [string, string] {
  const length = PREFIX.length + 4 * BLOCKS + SUFFIX.length;
  let h1 = run(0x9747b28c ^ length, PREFIX, step1);
  // pairs of blocks that take h1 to one state
  const pairs: [string, string][] = [];
  let next = 0;
  for (let b = 0; b < BLOCKS; b++) {
    const seen = new Map<number, string>();
    for (;;) {
      const candidate = block(next++);
      const to = run(h1, candidate, step1);
      const other = seen.get(to);
      if (other !== undefined) {
        pairs.push([other, candidate]);
        h1 = to;
        break;
      }
      seen.set(to, candidate);
    }
  }
  // every choice of one block of each pair has that h1: find two with one h2
  const start2 = run(0x85ebca6b ^ length, PREFIX, step2);
  const byH2 = new Map<number, number>();
  const states = new Int32Array(BLOCKS + 1);
  states[0] = start2;
  for (let choice = 0; choice < 1 << BLOCKS; choice++) {
    // the states of the blocks that changed from the previous choice only (a counter's low bits)
    const from = choice === 0 ? 0 : 31 - Math.clz32(choice ^ (choice - 1));
    for (let b = choice === 0 ? 0 : BLOCKS - 1 - from; b < BLOCKS; b++) {
      const pair = pairs[b] as [string, string];
      const bit = (choice >>> (BLOCKS - 1 - b)) & 1;
      states[b + 1] = run(states[b] as number, pair[bit] as string, step2);
    }
    const h2 = states[BLOCKS] as number;
    const other = byH2.get(h2);
    if (other !== undefined) {
      const a = emailOf(pairs, other);
      const b = emailOf(pairs, choice);
      const [a1, a2] = oldFingerprint(a);
      const [b1, b2] = oldFingerprint(b);
      if (a1 !== b1 || a2 !== b2) throw new Error("collidingEmails: the search is wrong");
      return [a, b];
    }
    byH2.set(h2, choice);
  }
  throw new Error("collidingEmails: no pair found");
}

function emailOf(pairs: [string, string][], choice: number): string {
  let local = PREFIX;
  for (let b = 0; b < BLOCKS; b++) local += (pairs[b] as [string, string])[(choice >>> (BLOCKS - 1 - b)) & 1];
  return local + SUFFIX;
}
