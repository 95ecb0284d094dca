// Positions inside a piece of source text whose own start is known.

import type { SourceLocation } from "../report/Finding.js";
import { utf8Length } from "../text/utf8.js";

/** The location of `text[index]`, given the location of `text[0]`. Lines break at LF. */
export function locationIn(text: string, index: number, start: SourceLocation): SourceLocation {
  let line = start.line;
  let lineStart = -1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i;
  }
  const column = lineStart === -1 ? start.column + index : index - lineStart;
  return { line, column, offset: start.offset + utf8Length(text, 0, index) };
}
