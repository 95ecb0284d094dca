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

/** Roles from a cell: `Admin;Editor`, or a JSON array of strings. Null when a `[` cell is not one. */
export function rolesCell(cell: string): string[] | null {
  if (cell.charCodeAt(0) !== 0x5b) return cell.split(";");
  try {
    const roles: unknown = JSON.parse(cell);
    return Array.isArray(roles) && roles.every((r) => typeof r === "string") ? roles : null;
  } catch {
    return null;
  }
}

/** The cell for roles: `;`-joined, or a JSON array when a role holds a `;`, is empty, or the first starts with `[`. */
export function formatRoles(roles: readonly string[]): string {
  const plain =
    roles.length > 0 &&
    roles.every((r) => r !== "" && !r.includes(";")) &&
    (roles[0] as string).charCodeAt(0) !== 0x5b;
  return plain ? roles.join(";") : JSON.stringify(roles);
}
