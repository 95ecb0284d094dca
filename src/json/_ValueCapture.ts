// Capturing one value across chunks: its parts while it spans chunks, the size limit (past it
// the value is only verified, as it streams, and dropped), and the diagnosis of a value that
// turns out broken (a mismatched bracket, the end of the file). Knows nothing of the document:
// the scanner decides what a value is for and what a problem is called.

import type { SourceLocation } from "../report/Finding.js";
import { utf8Length } from "../text/utf8.js";
import { describeChar, diagnoseJson, type LocatedProblem, StreamingDiagnosis } from "./_diagnose.js";
import { locationIn } from "./_position.js";
import { type Cursor, DONE, MISMATCH, PRIMITIVE, RUNNING, scanValue, ValueScan } from "./_scanValue.js";

/** The value goes on in the next chunk. */
export const PENDING = 0;
/** The value is complete: `text.slice(start, end)`. */
export const COMPLETE = 1;
/** The value is valid JSON but over the size limit (it was not kept). */
export const TOO_LARGE = 2;
/** The value is not valid JSON: see `problem` (no location: at `at` in the current chunk). */
export const BROKEN = 3;
/** The value nests too deep, at `at` in the current chunk. */
export const TOO_DEEP = 4;

/** A problem found in a captured value. */
export interface CaptureProblem {
  /** Where; null when it is the char at `at` in the current chunk. */
  location: SourceLocation | null;
  message: string;
  hint?: string;
}

/** One value being captured; the outcome of each step is in its fields (no allocation). */
export class ValueCapture {
  readonly #maxBytes: number;
  readonly #scan: ValueScan;
  #start = 0;
  #parts: string[] = [];
  #chars = 0;
  #overflow: StreamingDiagnosis | null = null;
  #chunkStart: SourceLocation = { line: 1, column: 1, offset: 0 };

  /** Where the value starts. */
  loc: SourceLocation = { line: 1, column: 1, offset: 0 };
  status = PENDING;
  /** With COMPLETE: the value is `text.slice(start, end)`. */
  text = "";
  start = 0;
  end = 0;
  /** With BROKEN. */
  problem: CaptureProblem | null = null;
  /** With BROKEN (no location) and TOO_DEEP: the index in the current chunk. */
  at = 0;

  constructor(maxDepth: number, maxBytes: number) {
    this.#maxBytes = maxBytes;
    this.#scan = new ValueScan(maxDepth);
  }

  /** Commas at the value's own top level (for duplicate keys). */
  get commas(): number {
    return this.#scan.commas;
  }

  /** Starts a value whose first char, `c`, is at `i` of the current chunk, at `loc`. */
  begin(c: number, i: number, loc: SourceLocation): void {
    this.#scan.begin(c);
    this.#start = i;
    this.#parts = [];
    this.#chars = 0;
    this.#overflow = null;
    this.loc = loc;
    this.status = PENDING;
    this.problem = null;
  }

  /** A new chunk begins, at `loc`. */
  startChunk(loc: SourceLocation): void {
    this.#chunkStart = loc;
  }

  /** Scans `text[i, n)` for the rest of the value; returns where it stopped. */
  step(text: string, i: number, n: number, cursor: Cursor, depthLimit: number): number {
    const scan = this.#scan;
    const end = scanValue(scan, cursor, text, i, n, depthLimit);
    if (scan.status === RUNNING) return end;
    this.at = end;
    if (scan.status === DONE) this.#complete(text, end);
    else if (scan.status === MISMATCH) this.#mismatch(text, end);
    else this.status = TOO_DEEP;
    return end;
  }

  /** The chunk ends inside the value: keeps its part (past the size limit, only verifies it). */
  endChunk(text: string): void {
    this.#keep(text.slice(this.#start));
    this.#start = 0;
  }

  /** The input ends inside the value: a number or literal ends here; anything else is broken. */
  endInput(end: SourceLocation): void {
    if (this.#scan.mode === PRIMITIVE) {
      this.#complete("", 0);
      return;
    }
    // an error before the end (a raw newline in a string) comes first
    const sofar = this.#parts.join("");
    const found = this.#overflow ? this.#overflow.end() : locate(sofar, diagnoseJson(sofar, true), this.loc);
    if (found && found.location.offset < end.offset) this.#broken(found);
    else {
      this.#broken({
        location: end,
        message: `unexpected end of the file inside the value that starts at line ${this.loc.line}`,
        hint: "the file looks truncated; check that the export or the download finished",
      });
    }
  }

  #complete(text: string, end: number): void {
    if (this.#overflow) {
      this.#keep(text.slice(this.#start, end));
      if (this.status !== BROKEN) this.#verdict(this.#overflow.end());
      return;
    }
    let value = text;
    let start = this.#start;
    if (this.#parts.length > 0) {
      value = this.#parts.join("") + text.slice(0, end);
      start = 0;
      end = value.length;
      this.#parts = [];
    }
    if ((end - start) * 3 > this.#maxBytes && utf8Length(value, start, end) > this.#maxBytes) {
      const whole = value.slice(start, end);
      this.#verdict(locate(whole, diagnoseJson(whole, true), this.loc));
      return;
    }
    this.status = COMPLETE;
    this.text = value;
    this.start = start;
    this.end = end;
  }

  /**
   * A closing bracket that does not match: the value is broken at it or before, so the
   * verifier reads it as complete (no waiting on a held-back token) and names the first problem.
   */
  #mismatch(text: string, i: number): void {
    const part = text.slice(this.#start, i + 1);
    let found: LocatedProblem | null;
    if (this.#overflow) found = this.#overflow.feed(part, this.#partStart()) ?? this.#overflow.end();
    else {
      const sofar = this.#parts.join("") + part;
      found = locate(sofar, diagnoseJson(sofar, true), this.loc);
    }
    this.#broken(
      found ?? { location: null, message: `unexpected closing bracket but found ${describeChar(text, i)}` },
    );
  }

  /** Where the part of the value in the current chunk starts. */
  #partStart(): SourceLocation {
    return this.#chars === 0 ? this.loc : this.#chunkStart;
  }

  #keep(part: string): void {
    const partStart = this.#partStart();
    this.#chars += part.length;
    // a char is at least one byte: past this many chars the value is over the byte limit
    if (!this.#overflow && this.#chars > this.#maxBytes) {
      const kept = this.#parts.join("") + part;
      this.#parts = [];
      this.#overflow = new StreamingDiagnosis();
      this.#broken(this.#overflow.feed(kept, this.loc));
    } else if (this.#overflow) this.#broken(this.#overflow.feed(part, partStart));
    else this.#parts.push(part);
  }

  /** A finished over-limit value: broken if a problem was found, else too large. */
  #verdict(problem: LocatedProblem | null): void {
    if (problem) this.#broken(problem);
    else this.status = TOO_LARGE;
  }

  #broken(problem: CaptureProblem | null): void {
    if (!problem) return;
    this.status = BROKEN;
    this.problem = problem;
    this.#parts = [];
  }
}

function locate(
  text: string,
  problem: { index: number; message: string } | null,
  start: SourceLocation,
): LocatedProblem | null {
  return problem ? { location: locationIn(text, problem.index, start), message: problem.message } : null;
}
