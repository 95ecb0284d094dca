// An export's rows as the service's layout: a mapping (mapping/Mapping.ts) bound to the
// export's header gives, for each row, the cells of the columns the rest of the reader knows
// (email, names, status and externalStatus, roles, lastUsedDate, the Licenses list), or
// nothing for a row the mapping leaves out. A value the mapping does not know is a problem of
// its cell, never a guess. Both threads of a parallel pass map the same rows the same way.

import type { Mapping } from "../mapping/Mapping.js";
import type { NameOrder } from "../mapping/MappingDocument.js";
import { looseName } from "../text/suggest.js";
import { formatList, splitList } from "./cells.js";
import type { ColumnKey } from "./columns.js";

/**
 * A cell the mapping cannot read as it is meant: the code, the header name of its column, the
 * message's params, and a hint of its own where the catalog's does not fit.
 */
export interface MappingProblem {
  code: "mapping.value" | "mapping.date" | "mapping.name";
  field: string;
  params: Record<string, string>;
  hint?: string;
}

/** How many distinct cells a memo keeps. */
const MEMO = 4096;

/** The columns a mapping reads, found in a header: their cells in order of preference. */
type Cells = readonly number[];

/** One column of the mapped layout: its key, the header name findings give, and its cell from a row. */
interface Slot {
  key: ColumnKey;
  name: string;
  cell: (cells: readonly string[], problem: (p: MappingProblem) => void) => string;
}

/** A mapping bound to one header. */
export class MappedHeader {
  readonly mapping: Mapping;
  /** The mapped layout's columns, and the export's header names behind them. */
  readonly keys: readonly ColumnKey[];
  readonly names: readonly string[];
  /** Columns of the export the mapping does not read. */
  readonly ignored: readonly string[];
  /** Fields whose columns the header lacks (none of their names is there). */
  readonly absent: readonly { field: string; columns: readonly string[] }[];
  readonly #slots: readonly Slot[];
  readonly #exclude: readonly { cells: Cells; values: Mapping["exclude"][number]["values"] }[];

  /**
   * The mapping bound to `names`, or null when none of its email columns is there. `usersOnly`:
   * the cells of a row are read for the email and the licenses alone, the others left empty
   * (the parsing thread of a parallel pass, which only numbers users and checks license users).
   */
  static bind(mapping: Mapping, names: readonly string[], usersOnly = false): MappedHeader | null {
    const header = new HeaderNames(names);
    return header.find(mapping.email).length === 0
      ? null
      : new MappedHeader(mapping, names, header, usersOnly);
  }

  private constructor(mapping: Mapping, names: readonly string[], header: HeaderNames, usersOnly: boolean) {
    this.mapping = mapping;
    const read = new Set<number>();
    const cellsOf = (columns: readonly string[]): Cells => {
      const found = header.find(columns);
      for (const i of found) read.add(i);
      return found;
    };
    const nameOf = (cells: Cells) => names[cells[0] as number] as string;
    const slots: Slot[] = [];
    const text = (key: ColumnKey, columns: readonly string[]) => {
      const cells = cellsOf(columns);
      if (cells.length > 0) slots.push({ key, name: nameOf(cells), cell: (row) => first(row, cells) });
      return cells;
    };

    text("email", mapping.email);
    text("id", mapping.id);
    const firstName = cellsOf(mapping.firstName);
    const lastName = cellsOf(mapping.lastName);
    const whole = cellsOf(mapping.wholeName);
    // the whole name of one row is split once, for both names, and said once when it cannot be
    let splitRow: readonly string[] | null = null;
    let split: readonly [string, string] = ["", ""];
    const wholeName = (row: readonly string[], problem: (p: MappingProblem) => void, part: 0 | 1) => {
      if (row !== splitRow) {
        splitRow = row;
        const name = first(row, whole);
        const parts = splitName(name, mapping.nameOrder);
        if (parts === null) {
          problem({
            code: "mapping.name",
            field: nameOf(whole),
            params: { value: JSON.stringify(name.trim()), order: JSON.stringify(mapping.nameOrder) },
          });
        }
        split = parts ?? [name.trim(), ""];
      }
      return split[part];
    };
    if (firstName.length > 0 || whole.length > 0) {
      slots.push({
        key: "firstName",
        name: nameOf(firstName.length > 0 ? firstName : whole),
        cell: (row, problem) => first(row, firstName) || (whole.length > 0 ? wholeName(row, problem, 0) : ""),
      });
    }
    if (lastName.length > 0 || whole.length > 0) {
      slots.push({
        key: "lastName",
        name: nameOf(lastName.length > 0 ? lastName : whole),
        cell: (row, problem) => first(row, lastName) || (whole.length > 0 ? wholeName(row, problem, 1) : ""),
      });
    }

    const status = mapping.status;
    const statusCells = status ? cellsOf(status.columns) : [];
    const external = cellsOf(mapping.externalStatus);
    const values = status?.values ?? null;
    if (statusCells.length > 0 && values === null) {
      // the service's own values: read as its layout reads them
      slots.push({ key: "status", name: nameOf(statusCells), cell: (row) => first(row, statusCells) });
    } else if (statusCells.length > 0 && values !== null) {
      const field = nameOf(statusCells);
      const decided = values.known.filter((v) => values.get(v) !== "?");
      const known = decided.length > 0 ? decided.map((v) => JSON.stringify(v)).join(", ") : "no value yet";
      // the status and the externalStatus of one row are read from one lookup
      let lastRow: readonly string[] | null = null;
      let meaning: ReturnType<typeof values.get>;
      const lookup = (row: readonly string[], problem: (p: MappingProblem) => void) => {
        if (row === lastRow) return meaning;
        lastRow = row;
        const value = first(row, statusCells);
        meaning = value === "" ? undefined : values.get(value);
        if (value !== "" && (meaning === undefined || meaning === "?")) {
          const params = { value: JSON.stringify(value), known };
          problem(
            meaning === undefined
              ? { code: "mapping.value", field, params }
              : { code: "mapping.value", field, params, hint: undecidedHint(value) },
          );
        }
        return meaning;
      };
      slots.push({
        key: "status",
        name: field,
        cell: (row, problem) => {
          const m = lookup(row, problem);
          return m === undefined || m === "?" ? "" : m.status;
        },
      });
      if (external.length === 0) {
        slots.push({
          key: "externalStatus",
          name: field,
          // the raw value is kept for a value not decided yet too: what the admin will decide on
          cell: (row, problem) => {
            const m = lookup(row, problem);
            if (m === undefined) return "";
            return (m === "?" ? undefined : m.externalStatus) ?? first(row, statusCells).trim();
          },
        });
      }
    }
    if (external.length > 0) {
      slots.push({ key: "externalStatus", name: nameOf(external), cell: (row) => first(row, external) });
    }

    const roles = mapping.roles;
    const roleCells = roles ? cellsOf(roles.columns) : [];
    if (roles && roleCells.length > 0) {
      slots.push({
        key: "roles",
        name: nameOf(roleCells),
        cell: (row) => {
          const cell = first(row, roleCells);
          if (roles.separator === null && roles.ignore.known.length === 0) return cell;
          const items = listItems(cell, roles.separator).filter((r) => roles.ignore.get(r) === undefined);
          return items.length === 0 ? "" : formatList(items);
        },
      });
    }

    const date = mapping.lastUsedDate;
    const dateCells = date ? cellsOf(date.columns) : [];
    if (date && dateCells.length > 0) {
      const forms = date.forms.names.join(", ");
      slots.push({
        key: "lastUsedDate",
        name: nameOf(dateCells),
        // the latest of the columns' dates (Atlassian: one "Last seen in" column a product)
        cell: (row, problem) => {
          let latest = "";
          for (const i of dateCells) {
            const value = (row[i] ?? "").trim();
            if (value === "" || date.never.get(value) !== undefined) continue;
            const read = date.forms.read(value);
            if (read === null) {
              const field = names[i] as string;
              problem({ code: "mapping.date", field, params: { value: JSON.stringify(value), forms } });
            } else if (read > latest) latest = read;
          }
          return latest;
        },
      });
    }

    const licenses = mapping.licenses;
    const licenseCells = licenses ? cellsOf(licenses.columns) : [];
    // each column a license's columns name grants it (Atlassian: one column a product and site)
    const grants = mapping.licenseColumns.flatMap((c) =>
      cellsOf(c.columns).map((cell) => ({ cell, license: c.license, grants: c.grants })),
    );
    const every = mapping.license;
    if (licenseCells.length > 0 || grants.length > 0 || every !== null) {
      const source = licenseCells.length > 0 ? licenseCells : grants.map((g) => g.cell);
      const cellOf = (row: readonly string[], listed: string): string => {
        const names: string[] = every === null ? [] : [every];
        if (licenses && listed !== "") {
          for (const item of listItems(listed, licenses.separator)) {
            if (licenses.ignore.get(item) === undefined && !names.includes(item)) names.push(item);
          }
        }
        for (const grant of grants) {
          const value = (row[grant.cell] ?? "").trim();
          if (value !== "" && grant.grants.get(value) !== undefined && !names.includes(grant.license)) {
            names.push(grant.license);
          }
        }
        return names.length === 0 ? "" : formatList(names);
      };
      // without license columns, the cell depends on the listed licenses alone: an export repeats
      // the same few combinations, each made once
      const memo = new Map<string, string>();
      slots.push({
        key: "licenses",
        name: source.length > 0 ? nameOf(source) : "licenses",
        cell:
          grants.length > 0
            ? (row) => cellOf(row, first(row, licenseCells))
            : (row) => {
                const listed = first(row, licenseCells);
                let cell = memo.get(listed);
                if (cell === undefined) {
                  cell = cellOf(row, listed);
                  if (memo.size < MEMO) memo.set(listed, cell);
                }
                return cell;
              },
      });
    }

    this.#exclude = mapping.exclude
      .map((e) => ({ cells: cellsOf(e.columns), values: e.values }))
      .filter((e) => e.cells.length > 0);
    this.#slots = usersOnly
      ? slots.map((s) => (s.key === "email" || s.key === "licenses" ? s : { ...s, cell: () => "" }))
      : slots;
    this.keys = slots.map((s) => s.key);
    this.names = slots.map((s) => s.name);
    this.ignored = names.filter((name, i) => !read.has(i) && name !== "");
    this.absent = mapping.reads().filter((r) => header.find(r.columns).length === 0);
  }

  /** The row's cells in the mapped layout, or null when the mapping leaves the row out. */
  row(cells: readonly string[], problem: (p: MappingProblem) => void): string[] | null {
    for (const exclude of this.#exclude) {
      const value = first(cells, exclude.cells);
      if (value !== "" && exclude.values.get(value) !== undefined) return null; // the table trims
    }
    const mapped = new Array<string>(this.#slots.length);
    for (let i = 0; i < this.#slots.length; i++) mapped[i] = (this.#slots[i] as Slot).cell(cells, problem);
    return mapped;
  }
}

/**
 * A header's names as a mapping's columns are compared with them, each worked out once: a wide
 * header (an Atlassian export's thousands of product columns) is not compared again for each of
 * the mapping's columns, nor are the columns a name ending in `*` found searched at each match.
 */
class HeaderNames {
  /** The indices of each loose name, in the header's order. */
  readonly #byLoose = new Map<string, number[]>();
  /** Each name trimmed, in lower case (what a name ending in `*` is compared with). */
  readonly #lower: string[] = [];

  constructor(names: readonly string[]) {
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      this.#lower.push(prefixKey(name));
      const loose = looseName(name);
      const same = this.#byLoose.get(loose);
      if (same === undefined) this.#byLoose.set(loose, [i]);
      else same.push(i);
    }
  }

  /**
   * The indices of `columns` in the header, in the mapping's order; names compared loosely. A
   * name ending in `*` is every column whose name starts so, in any case (`Jira - *`, which
   * `Jira Service Management - x` does not start), in the header's order: columnMatches's rule.
   */
  find(columns: readonly string[]): number[] {
    const found: number[] = [];
    const taken = new Set<number>();
    const take = (i: number) => {
      if (!taken.has(i)) {
        taken.add(i);
        found.push(i);
      }
    };
    for (const column of columns) {
      if (column.endsWith("*")) {
        const start = prefixOf(column);
        this.#lower.forEach((name, i) => {
          if (name.startsWith(start)) take(i);
        });
      } else for (const i of this.#byLoose.get(looseName(column)) ?? []) take(i);
    }
    return found;
  }
}

/** Whether a mapping's column name (`*` at its end: a start, in any case) is the header's `name`. */
export function columnMatches(column: string, name: string): boolean {
  if (column.endsWith("*")) return prefixKey(name).startsWith(prefixOf(column));
  return looseName(column) === looseName(name);
}

/** A header name as a column ending in `*` is compared with it: trimmed, in lower case. */
const prefixKey = (name: string): string => name.trim().toLowerCase();

/** What a column ending in `*` asks a name to start with. */
const prefixOf = (column: string): string => column.slice(0, -1).trimStart().toLowerCase();

/**
 * The first of `cells` with a value in the row, as written (the checks after say what is wrong
 * with spaces around an email, as in the service's layout); "" when none has one.
 */
function first(row: readonly string[], cells: Cells): string {
  for (const i of cells) {
    const value = row[i] ?? "";
    if (value.trim() !== "") return value;
  }
  return "";
}

/** A list cell's items: split at `separator`, or at `,` and `;` (null); trimmed, empty ones dropped. */
function listItems(cell: string, separator: string | null): string[] {
  if (separator === null) return splitList(cell);
  return cell
    .split(separator)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/**
 * A whole name's first and last name, as `order` writes them: "first last" at the first space
 * (one word: a first name alone), "last, first" at the comma; null when the name is not written
 * so (a comma in a first-last name, none in a last-first one), rather than a wrong split.
 */
export function splitName(name: string, order: NameOrder): readonly [string, string] | null {
  const whole = name.trim();
  if (whole === "") return ["", ""];
  const comma = whole.indexOf(",");
  if (order === "last, first") {
    if (comma < 0 || whole.indexOf(",", comma + 1) >= 0) return null;
    const last = whole.slice(0, comma).trim();
    const given = whole.slice(comma + 1).trim();
    return last === "" || given === "" ? null : [given, last];
  }
  if (comma >= 0) return null;
  const space = whole.search(/\s/);
  if (space < 0) return [whole, ""];
  return [whole.slice(0, space), whole.slice(space + 1).trim()];
}

/** What to do about a status value the mapping lists as "?". */
function undecidedHint(value: string): string {
  return `the mapping leaves ${JSON.stringify(value)} undecided ("?"): write in its status.values whether it means "active" or "deleted"`;
}
