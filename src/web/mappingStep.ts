// The page's mapping step, for a CSV file or workbook that is not in the service's layout: each
// column with the field it gives (changeable) and why it was chosen (by its name, by its
// values), the status column's values and what each means (changeable; "?" to decide, an error
// at its rows until then), the first rows as they will be written, and the mapping document
// behind them, which the page checks the file with, saves, or replaces with one the user loads.

import { columnMatches, MappedHeader } from "../csv/MappedRows.js";
import { Mapping } from "../mapping/Mapping.js";
import type { Columns, MappingDocument, StatusMeaning } from "../mapping/MappingDocument.js";
import { plainStatus } from "../mapping/MappingSuggester.js";
import type { ExportInspection } from "../validate/inspectExport.js";

/** The fields a column can give, as the selects offer them. */
const FIELDS = [
  ["", "not read"],
  ["email", "email"],
  ["id", "id"],
  ["firstName", "first name"],
  ["lastName", "last name"],
  ["fullName", "whole name"],
  ["status", "status"],
  ["externalStatus", "external status"],
  ["roles", "roles"],
  ["lastUsedDate", "last used date"],
  ["licenses", "licenses"],
] as const;
type Field = Exclude<(typeof FIELDS)[number][0], "">;

/** The elements of the step. */
export interface MappingStepElements {
  root: HTMLElement;
  note: HTMLElement;
  columns: HTMLTableSectionElement;
  statusTable: HTMLTableElement;
  status: HTMLTableSectionElement;
  previewHead: HTMLTableSectionElement;
  preview: HTMLTableSectionElement;
}

/** The step for one file. */
export class MappingStep {
  readonly #ui: MappingStepElements;
  #inspection: ExportInspection | null = null;
  #document: MappingDocument | null = null;

  constructor(ui: MappingStepElements) {
    this.#ui = ui;
  }

  /** The mapping as the step shows it now, or null when none is shown. */
  get document(): MappingDocument | null {
    return this.#document;
  }

  /** Hides the step (a file in the service's layout, or none). */
  hide(): void {
    this.#ui.root.hidden = true;
    this.#inspection = null;
    this.#document = null;
  }

  /** Shows `inspection`'s export read through `document`. */
  show(inspection: ExportInspection, document: MappingDocument, note: string): void {
    this.#inspection = inspection;
    this.#document = structuredClone(document);
    this.#ui.note.textContent = note;
    this.#ui.root.hidden = false;
    this.#render();
  }

  #render(): void {
    const inspection = this.#inspection as ExportInspection;
    const document = this.#document as MappingDocument;
    const header = inspection.header ?? [];
    const fields = fieldsOfColumns(document, header);
    this.#ui.columns.replaceChildren(
      ...header.map((name, i) => {
        const row = globalThis.document.createElement("tr");
        const th = globalThis.document.createElement("th");
        th.scope = "row";
        th.textContent = name;
        const select = globalThis.document.createElement("select");
        select.setAttribute("aria-label", `field of column ${name}`);
        for (const [value, label] of FIELDS) select.add(new Option(label, value));
        select.value = fields[i] ?? "";
        select.addEventListener("change", () => {
          this.#setColumn(i, select.value as Field | "");
          this.#render();
          (this.#ui.columns.rows[i]?.querySelector("select") as HTMLSelectElement | null)?.focus();
        });
        const pick = globalThis.document.createElement("td");
        pick.append(select);
        const why = cell(fields[i] ? this.#why(fields[i] as Field, name) : "");
        const values = cell(
          (inspection.values[i] ?? [])
            .slice(0, 3)
            .map(([v]) => v)
            .join(", "),
        );
        row.append(th, pick, why, values);
        return row;
      }),
    );
    this.#renderStatus(header, fields);
    this.#renderPreview(header);
  }

  /** Why column `name` gives `field`: suggest's reason, the profile's, or the user's choice. */
  #why(field: Field, name: string): string {
    const inspection = this.#inspection as ExportInspection;
    const chosen = inspection.suggestion.choices.find((c) => c.field === field && c.column === name);
    if (chosen) return chosen.why;
    return inspection.profile !== null ? `the ${inspection.profile} profile` : "your choice";
  }

  /** The status column's values, each with what it means; those left to decide counted. */
  #renderStatus(header: readonly string[], fields: readonly (Field | "")[]): void {
    const column = fields.indexOf("status");
    const spec = this.#document?.status;
    const table =
      spec !== undefined && typeof spec === "object" && !Array.isArray(spec)
        ? (spec as { column: Columns; values: Readonly<Record<string, StatusMeaning>> })
        : null;
    this.#ui.statusTable.hidden = column < 0 || table === null;
    if (column < 0 || table === null) return;
    const values = this.#inspection?.values[column] ?? [];
    this.#ui.status.replaceChildren(
      ...values.map(([value, count]) => {
        const row = globalThis.document.createElement("tr");
        const th = globalThis.document.createElement("th");
        th.scope = "row";
        th.textContent = value;
        const select = globalThis.document.createElement("select");
        select.setAttribute("aria-label", `meaning of status ${value}`);
        select.add(new Option("? to decide (an error at its rows)", "?"));
        select.add(new Option("active", "active"));
        select.add(new Option("deleted", "deleted"));
        const meaning = meaningOf(table.values, value);
        select.value = meaning === undefined ? "?" : typeof meaning === "string" ? meaning : meaning.status;
        row.classList.toggle("undecided", select.value === "?");
        select.addEventListener("change", () => {
          const status = (this.#document as MappingDocument).status as typeof table;
          const values = { ...status.values, [value]: select.value as StatusMeaning };
          (this.#document as MappingDocument).status = { column: table.column, values };
          row.classList.toggle("undecided", select.value === "?");
          this.#countUndecided();
          this.#renderPreview(header);
        });
        const means = globalThis.document.createElement("td");
        means.append(select);
        row.append(th, cell(String(count)), means);
        return row;
      }),
    );
    this.#countUndecided();
  }

  /** The status table's caption says how many values are left to decide. */
  #countUndecided(): void {
    const left = this.#ui.status.querySelectorAll("tr.undecided").length;
    const caption = this.#ui.statusTable.caption;
    if (caption) {
      caption.textContent = `What each value of the status column means${left > 0 ? ` (${left} to decide: each is an error at its rows until then)` : ""}`;
    }
  }

  /** The first rows through the mapping, as the service's layout's columns. */
  #renderPreview(header: readonly string[]): void {
    const document = this.#document as MappingDocument;
    const mapped = MappedHeader.bind(new Mapping(document), header);
    const head = globalThis.document.createElement("tr");
    if (!mapped) {
      head.append(cell("no column is read as the email: choose one above"));
      this.#ui.previewHead.replaceChildren(head);
      this.#ui.preview.replaceChildren();
      return;
    }
    for (const key of mapped.keys) {
      const th = globalThis.document.createElement("th");
      th.scope = "col";
      th.textContent = key;
      head.append(th);
    }
    this.#ui.previewHead.replaceChildren(head);
    this.#ui.preview.replaceChildren(
      ...(this.#inspection?.rows ?? []).map((cells) => {
        const row = globalThis.document.createElement("tr");
        const out = mapped.row(cells, () => {});
        if (out === null) row.append(cell("(left out by the mapping)"));
        else row.append(...out.map((value) => cell(value)));
        return row;
      }),
    );
  }

  /** Column `i` now gives `field` (or nothing): the document's fields follow. */
  #setColumn(i: number, field: Field | ""): void {
    const document = this.#document as MappingDocument;
    const header = this.#inspection?.header ?? [];
    const fields = fieldsOfColumns(document, header);
    fields[i] = field;
    const columnsOf = (f: Field): string[] => header.filter((_, k) => fields[k] === f);
    for (const [f] of FIELDS) {
      if (f === "") continue;
      const names = columnsOf(f);
      setField(document, f, names, this.#inspection?.values ?? [], header);
    }
  }
}

/** The field each column gives under `document` ("" for none). */
function fieldsOfColumns(document: MappingDocument, header: readonly string[]): (Field | "")[] {
  const fields: (Field | "")[] = header.map(() => "");
  for (const [field] of FIELDS) {
    if (field === "") continue;
    for (const column of columnsOfSpec(document[field])) {
      header.forEach((name, i) => {
        if (fields[i] === "" && columnMatches(column, name)) fields[i] = field;
      });
    }
  }
  return fields;
}

/** The column names a field's spec reads. */
function columnsOfSpec(spec: MappingDocument[Field] | undefined): readonly string[] {
  if (spec === undefined) return [];
  if (typeof spec === "string") return [spec];
  if (Array.isArray(spec)) return spec as readonly string[];
  const column = (spec as { column: Columns }).column;
  return typeof column === "string" ? [column] : column;
}

/** Sets `field` to read `names`, keeping what else its spec says (forms, separators, value tables). */
function setField(
  document: MappingDocument,
  field: Field,
  names: readonly string[],
  values: readonly [string, number][][],
  header: readonly string[],
): void {
  const record = document as unknown as Record<string, unknown>;
  if (names.length === 0) {
    if (field !== "email") delete record[field];
    else document.email = "";
    return;
  }
  const column: Columns = names.length === 1 ? (names[0] as string) : [...names];
  const spec = record[field];
  const object = spec !== undefined && typeof spec === "object" && !Array.isArray(spec);
  const same = object && JSON.stringify((spec as { column: Columns }).column) === JSON.stringify(column);
  if (field === "status" && !same) {
    // a new status column: its values, each as plain words say, the others "?" for the user
    const first = names[0] as string;
    const table: Record<string, StatusMeaning> = {};
    for (const [value] of values[header.indexOf(first)] ?? [])
      table[value] = plainStatus(value, first) ?? "?";
    record[field] = Object.keys(table).length > 0 ? { column, values: table } : column;
  } else record[field] = object ? { ...(spec as object), column } : column;
}

/** What a status table says `value` means (trimmed, any case, `*` a start), or undefined. */
function meaningOf(
  values: Readonly<Record<string, StatusMeaning>>,
  value: string,
): StatusMeaning | undefined {
  const key = value.trim().toLowerCase();
  for (const [listed, meaning] of Object.entries(values)) {
    const l = listed.trim().toLowerCase();
    if (l.endsWith("*") ? key.startsWith(l.slice(0, -1)) : l === key) return meaning;
  }
  return undefined;
}

function cell(text: string): HTMLTableCellElement {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}
