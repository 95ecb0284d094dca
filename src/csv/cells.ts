// CSV cells and the values they stand for, both ways: numbers, roles, statuses, and the
// escaping of cells a spreadsheet would run as formulas.

/** A cell a spreadsheet would treat as a formula, possibly already escaped with apostrophes. */
const FORMULA = /^'*[=+\-@\t\r]/;

/**
 * Escapes a formula-like cell with a leading apostrophe (spreadsheets show the text, run
 * nothing). Apostrophes already in front get one more, so that unescaping is exact.
 */
export function escapeFormula(cell: string): string {
  return FORMULA.test(cell) ? `'${cell}` : cell;
}

/** Undoes escapeFormula: one leading apostrophe comes off a formula-like cell. */
export function unescapeFormula(cell: string): string {
  return cell.charCodeAt(0) === 0x27 && /^'+[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

/** Whether a cell needs escaping. */
export function isFormula(cell: string): boolean {
  return FORMULA.test(cell);
}

/** A count cell as a number when it is written as one; otherwise the text (for the checks to report). */
export function numberCell(cell: string): number | string {
  return /^-?\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell;
}

/**
 * The items of a list cell (roles, the spreadsheet's `Licenses`): separated by `;` or `,`
 * (spreadsheets write either), each trimmed, empty ones dropped; or a JSON array of strings,
 * for items that hold a separator. Null when a cell starting with `[` is not such an array.
 */
export function listCell(cell: string): string[] | null {
  if (cell.charCodeAt(0) !== 0x5b) return splitList(cell);
  try {
    const items: unknown = JSON.parse(cell);
    return Array.isArray(items) && items.every((r) => typeof r === "string") ? items : null;
  } catch {
    return null;
  }
}

/** A list cell split at `,` and `;`, items trimmed, empty ones dropped. */
export function splitList(cell: string): string[] {
  const items: string[] = [];
  for (const part of cell.split(/[,;]/)) {
    const item = part.trim();
    if (item !== "") items.push(item);
  }
  return items;
}

/**
 * The cell for a list: `;`-joined, or a JSON array whenever the plain form would not read back
 * the same (an item holding `,` or `;`, empty, with spaces around it, or a first item starting
 * with `[`; an empty list).
 */
export function formatList(items: readonly string[]): string {
  const plain =
    items.length > 0 &&
    items.every((r) => r !== "" && !/[,;]/.test(r) && r.trim() === r) &&
    (items[0] as string).charCodeAt(0) !== 0x5b;
  return plain ? items.join(";") : JSON.stringify(items);
}
