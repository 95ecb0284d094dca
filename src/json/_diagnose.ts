// Exact syntax diagnostics: stream-json's verifier finds where text stops being JSON.

import { jsonVerifier } from "stream-json/core/utils/verifier.js";
import type { SourceLocation } from "../report/Finding.js";
import { locationIn } from "./_position.js";

// stream-chain's end-of-input marker (a registered symbol, shared by every copy of the library)
const none = Symbol.for("object-stream.none");

/** A syntax error inside a piece of text: the index of the offending character and what was expected. */
export interface SyntaxProblem {
  index: number;
  message: string;
}

interface VerifierError extends Error {
  offset: number;
}

/**
 * Where `text` stops being valid JSON. With `complete`, the end of `text` is the end of the value;
 * without it, only errors that cannot be cured by more input are reported.
 */
export function diagnoseJson(text: string, complete: boolean): SyntaxProblem | null {
  const verify = jsonVerifier() as unknown as (chunk: unknown) => unknown;
  try {
    verify(text);
    if (complete) verify(none);
    return null;
  } catch (error) {
    const offset = (error as VerifierError).offset;
    if (typeof offset !== "number") throw error;
    return { index: offset, message: syntaxMessage((error as Error).message, text, offset) };
  }
}

/** A syntax problem with its place in the source. */
export interface LocatedProblem {
  location: SourceLocation;
  message: string;
}

// the verifier holds back an undecided token (a literal, a number, an escape) until the next
// text decides it, so an error can lie in text fed earlier: keep this much of it
const TAIL = 1024;

/** A streaming verifier for values too large to keep in memory; it locates what it finds. */
export class StreamingDiagnosis {
  readonly #verify = jsonVerifier() as unknown as (chunk: unknown) => unknown;
  #fedChars = 0;
  #tail = "";
  #tailStart: SourceLocation | null = null;

  /** Feeds the next piece of the value, which starts at `start`; returns the problem it reveals. */
  feed(text: string, start: SourceLocation): LocatedProblem | null {
    const tail = this.#tail + text;
    const tailStart = this.#tailStart ?? start;
    const tailChars = this.#tail.length;
    try {
      this.#verify(text);
    } catch (error) {
      return this.#locate(error, tail, tailStart, this.#fedChars - tailChars);
    }
    this.#fedChars += text.length;
    const cut = Math.max(0, tail.length - TAIL);
    this.#tail = tail.slice(cut);
    this.#tailStart = cut === 0 ? tailStart : locationIn(tail, cut, tailStart);
    return null;
  }

  /** Ends the value; returns the problem when it is incomplete or invalid at its end. */
  end(): LocatedProblem | null {
    try {
      this.#verify(none);
      return null;
    } catch (error) {
      const start = this.#tailStart ?? { line: 1, column: 1, offset: 0 };
      return this.#locate(error, this.#tail, start, this.#fedChars - this.#tail.length);
    }
  }

  /** The error's place, given text that starts `textOffset` chars into the value at `start`. */
  #locate(error: unknown, text: string, start: SourceLocation, textOffset: number): LocatedProblem {
    const offset = (error as VerifierError).offset;
    if (typeof offset !== "number") throw error;
    const index = Math.min(Math.max(0, offset - textOffset), text.length);
    return {
      location: locationIn(text, index, start),
      message: syntaxMessage((error as Error).message, text, index),
    };
  }
}

const WORDING: Readonly<Record<string, string>> = {
  "expected an object key": "expected a property name in double quotes",
  "escaped characters": 'expected a valid escape sequence (\\n, \\", \\uXXXX, ...) in a string',
  "a string value": "expected the closing quote of a string",
  "a value": "expected a value",
};

/** "expected ',' but found '}'" from the verifier's "ERROR at 7 (1, 8): Verifier cannot parse input: expected ','". */
function syntaxMessage(raw: string, text: string, index: number): string {
  const what = raw.replace(/^ERROR at .*?: Verifier (cannot parse input: |has expected )/, "");
  const sentence =
    WORDING[what] ??
    (what.startsWith("expected") || what.startsWith("unexpected") ? what : `expected ${what}`);
  return `${sentence.replace(/ of a number$/, " in a number")} but found ${describeChar(text, index)}`;
}

/** `'x'`, `U+00A0`, or `the end of the file`. */
export function describeChar(text: string, index: number): string {
  if (index >= text.length) return "the end of the file";
  const cp = text.codePointAt(index) as number;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0xa0) || cp === 0xfeff) {
    return `character U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  }
  return `'${String.fromCodePoint(cp)}'`;
}
