// Who holds which license, as the rows say it, kept per license so that each license's users
// can be read back together, in row order, after the last row. In memory up to a budget; past
// it, the licenses holding the most are moved to temporary files, one per license.

import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readLines } from "../_internal/readLines.js";

/** One license user as its row gives it. */
export interface Assignment {
  email: string;
  licenseStatus: string;
  row: number;
  line: number;
  offset: number;
}

/** Assignments grouped by license index. */
export class LicenseAssignments {
  readonly #budget: number;
  readonly #memory: string[][] = [];
  readonly #onDisk: number[] = [];
  #memoryChars = 0;
  #dir: string | null = null;

  /** `budget`: characters of assignments kept in memory before some go to temporary files. */
  constructor(budget = 24 * 1024 * 1024) {
    this.#budget = budget;
  }

  add(license: number, a: Assignment): void {
    const text = encode(a);
    let list = this.#memory[license];
    if (!list) {
      list = [];
      this.#memory[license] = list;
      this.#onDisk[license] = 0;
    }
    list.push(text);
    this.#memoryChars += text.length;
    if (this.#memoryChars > this.#budget) this.#spillLargest();
  }

  /** How many users hold `license`. */
  count(license: number): number {
    return (this.#onDisk[license] ?? 0) + (this.#memory[license]?.length ?? 0);
  }

  /** The users of `license`, in row order. */
  *of(license: number): Generator<Assignment> {
    if ((this.#onDisk[license] ?? 0) > 0)
      for (const line of readLines(this.#file(license))) yield decode(line);
    for (const text of this.#memory[license] ?? []) yield decode(text);
  }

  /** Deletes the temporary files. */
  dispose(): void {
    if (this.#dir) rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = null;
  }

  #spillLargest(): void {
    let largest = 0;
    for (let l = 1; l < this.#memory.length; l++) {
      if ((this.#memory[l]?.length ?? 0) > (this.#memory[largest]?.length ?? 0)) largest = l;
    }
    const list = this.#memory[largest] ?? [];
    this.#dir ??= mkdtempSync(join(tmpdir(), "syncfile-licenses-"));
    appendFileSync(this.#file(largest), `${list.join("\n")}\n`);
    this.#onDisk[largest] = (this.#onDisk[largest] ?? 0) + list.length;
    for (const text of list) this.#memoryChars -= text.length;
    this.#memory[largest] = [];
  }

  #file(license: number): string {
    return join(this.#dir as string, `license-${license}`);
  }
}

/** Tab-separated, the email last; JSON when a cell holds a tab or a line break (malformed data). */
function encode(a: Assignment): string {
  return /[\t\n\r]/.test(a.email) || /[\t\n\r]/.test(a.licenseStatus)
    ? `J${JSON.stringify(a)}`
    : `${a.row}\t${a.line}\t${a.offset}\t${a.licenseStatus}\t${a.email}`;
}

function decode(text: string): Assignment {
  if (text.charCodeAt(0) === 0x4a) return JSON.parse(text.slice(1)) as Assignment;
  const a = text.indexOf("\t");
  const b = text.indexOf("\t", a + 1);
  const c = text.indexOf("\t", b + 1);
  const d = text.indexOf("\t", c + 1);
  return {
    row: Number(text.slice(0, a)),
    line: Number(text.slice(a + 1, b)),
    offset: Number(text.slice(b + 1, c)),
    licenseStatus: text.slice(c + 1, d),
    email: text.slice(d + 1),
  };
}
