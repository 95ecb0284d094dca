// The header of an export looked at raw (what `mapping suggest` and the page's mapping step
// read), found below a title: the first rows are held until one looks like a user's (an
// address among two or more cells), and the row above it is the header if it looks like one
// (two or more cells, no address). Otherwise, as when no row of the first ones holds an address,
// the first row is the header, as it always was. The rows held are then given on, each once.
//
// Users without an address may come first (a build bot, a contractor): they look like a header
// too. So of the header-like rows right above the first user's, the topmost that names as many
// cells as that user's row fills is the header — the real header, not a short title ("Report,
// July 2024") nor a user with fewer cells; failing that, the row right above.

import type { SourceLocation } from "../report/Finding.js";

/** A row as CsvRows was given it: its cells, where it starts, and its number if the source numbers rows. */
export interface HeldRow {
  cells: string[];
  loc: SourceLocation;
  row: number | undefined;
}

/** The rows held, and which of them is the header: the ones above it are a title. */
export interface FoundHeader {
  rows: readonly HeldRow[];
  header: number;
}

/**
 * How many rows a header is searched in: a mapping's (the first row naming its email column)
 * and the raw layout's, the same, so that a header found raw is one a mapping's search reaches.
 */
export const HEADER_SEARCH = 50;

/** How many characters the rows held may hold together: a very wide file is not held whole. */
const HELD_TEXT = 4 << 20;

/** Something shaped like an email address (what a human would take for one). */
const EMAIL_LIKE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Rows in, until the header is known: then `push` (or `end`) gives them back with it. */
export class RawHeaderSearch {
  readonly #rows: HeldRow[] = [];
  #text = 0;

  /** Holds `row`: the rows and the header once this row shows which it is, else null. */
  push(row: HeldRow): FoundHeader | null {
    this.#rows.push(row);
    if (looksLikeUser(row.cells)) return this.#found(this.#rows.length - 1);
    for (const cell of row.cells) this.#text += cell.length;
    const full = this.#rows.length >= HEADER_SEARCH || this.#text >= HELD_TEXT;
    return full ? this.#found(-1) : null;
  }

  /** The input ended (or reading did) before a row showed the header: the first row is; null when none came. */
  end(): FoundHeader | null {
    return this.#rows.length === 0 ? null : this.#found(-1);
  }

  /** The header, `user` being the index of the first row that looks like a user's (-1: none). */
  #found(user: number): FoundHeader {
    let top = user; // the header-like rows right above the user's: top … user - 1
    while (top > 0 && looksLikeHeader((this.#rows[top - 1] as HeldRow).cells)) top--;
    if (top === user) return { rows: this.#rows, header: 0 };
    const width = filled((this.#rows[user] as HeldRow).cells);
    let header = top;
    while (header < user - 1 && filled((this.#rows[header] as HeldRow).cells) < width) header++;
    return { rows: this.#rows, header };
  }
}

/** Two or more cells with a value, one of them an address. */
function looksLikeUser(cells: readonly string[]): boolean {
  return filled(cells) >= 2 && cells.some((cell) => EMAIL_LIKE.test(cell.trim()));
}

/** Two or more cells with a value, none of them an address (a title is one cell). */
function looksLikeHeader(cells: readonly string[]): boolean {
  return filled(cells) >= 2 && !cells.some((cell) => EMAIL_LIKE.test(cell.trim()));
}

function filled(cells: readonly string[]): number {
  let count = 0;
  for (const cell of cells) if (cell.trim() !== "") count++;
  return count;
}
