// Exact syntax diagnostics: stream-json's verifier finds where text stops being JSON.

import { jsonVerifier } from "stream-json/core/utils/verifier.js";

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

/** A streaming verifier for values too large to keep in memory. */
export class StreamingDiagnosis {
  readonly #verify = jsonVerifier() as unknown as (chunk: unknown) => unknown;
  #fedChars = 0;

  /** Feeds more text; returns the problem (index relative to `text`) when this text contains the error. */
  feed(text: string): SyntaxProblem | null {
    return this.#run(text, text);
  }

  /** Ends the value; returns the problem when the value is incomplete or invalid at its end. */
  end(): SyntaxProblem | null {
    return this.#run(none, "");
  }

  #run(chunk: unknown, text: string): SyntaxProblem | null {
    const before = this.#fedChars;
    try {
      this.#verify(chunk);
      this.#fedChars += text.length;
      return null;
    } catch (error) {
      const offset = (error as VerifierError).offset;
      if (typeof offset !== "number") throw error;
      const index = offset - before;
      return { index, message: syntaxMessage((error as Error).message, text, index) };
    }
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
