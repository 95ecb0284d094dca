// Where a JSON text nests its arrays and objects deeper than a bound, found by one pass of
// jsonc-parser's scanner (a loop, not a recursion): its parseTree recurses once a level, so a
// text thousands of brackets deep overflows the stack before it can say anything.

import { createScanner } from "jsonc-parser";

// jsonc-parser's SyntaxKind is a const enum, which isolatedModules cannot read from its .d.ts
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const EOF = 17;

/** The offset of the first `[` or `{` of `text` that opens more than `max` levels deep, or null. */
export function nestingPast(text: string, max: number): number | null {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let kind = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    if (kind === OPEN_BRACE || kind === OPEN_BRACKET) {
      depth++;
      if (depth > max) return scanner.getTokenOffset();
    } else if (kind === CLOSE_BRACE || kind === CLOSE_BRACKET) depth--;
  }
  return null;
}
