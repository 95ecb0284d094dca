// A worksheet part's XML as rows of cell texts: `<row r>` and `<c r s t>` with `<v>`, `<f>`
// and `<is>` (inline and rich text, phonetic runs left out), each value read as the CSV cell
// it stands for — shared strings looked up, numbers as Excel's General shows them, date-styled
// numbers as YYYY-MM-DD. A formula counts as its saved result; a formula without one and an
// error value (#N/A) are problems of their cell, which then counts as empty.

import { columnIndex, numberText, serialDate, unescapeText } from "./_cells.js";
import type { SharedStrings } from "./_SharedStrings.js";
import type { XmlHandler } from "./_xml.js";

/** Why a cell counts as empty although something is in it. */
export type CellProblem = { kind: "formula"; formula: string } | { kind: "error"; value: string };

/** Receives each row that has a cell, in order. */
export interface SheetRowSink {
  /** `cells`: texts by 0-based column, "" where none; `problems` by column. */
  row(number: number, cells: string[], problems: ReadonlyMap<number, CellProblem> | null): void;
}

/** What the values of a sheet's cells depend on. */
export interface SheetContext {
  strings: SharedStrings;
  /** Whether cell style (xf) `i` shows a date. */
  dateStyles: readonly boolean[];
  date1904: boolean;
}

enum In {
  Nothing,
  Value,
  Formula,
  InlineText,
}

/** The XML handler of one worksheet part. */
export class SheetRows implements XmlHandler {
  readonly #sink: SheetRowSink;
  readonly #context: SheetContext;
  #rowNumber = 0;
  #cells: string[] = [];
  #problems: Map<number, CellProblem> | null = null;
  #column = -1;
  // the cell being read
  #type = "";
  #style = 0;
  #value: string | null = null;
  #formula: string | null = null;
  #inline = "";
  #in = In.Nothing;
  #phonetic = false;

  constructor(sink: SheetRowSink, context: SheetContext) {
    this.#sink = sink;
    this.#context = context;
  }

  open(name: string, attributes: Readonly<Record<string, string>>): void {
    switch (name) {
      case "row": {
        const r = Number(attributes.r);
        this.#rowNumber = Number.isInteger(r) && r > 0 ? r : this.#rowNumber + 1;
        this.#cells = [];
        this.#problems = null;
        this.#column = -1;
        return;
      }
      case "c": {
        const reference = attributes.r;
        const index = reference === undefined ? -1 : columnIndex(reference);
        this.#column = index >= 0 ? index : this.#column + 1;
        this.#type = attributes.t ?? "n";
        this.#style = Number(attributes.s ?? 0) || 0;
        this.#value = null;
        this.#formula = null;
        this.#inline = "";
        return;
      }
      case "v":
        this.#value = "";
        this.#in = In.Value;
        return;
      case "f":
        this.#formula = "";
        this.#in = In.Formula;
        return;
      case "rPh":
        this.#phonetic = true;
        return;
      case "t":
        if (!this.#phonetic && this.#type === "inlineStr") this.#in = In.InlineText;
        return;
    }
  }

  text(text: string): void {
    switch (this.#in) {
      case In.Value:
        this.#value += text;
        return;
      case In.Formula:
        this.#formula += text;
        return;
      case In.InlineText:
        this.#inline += text;
        return;
    }
  }

  close(name: string): void {
    switch (name) {
      case "v":
      case "f":
      case "t":
        this.#in = In.Nothing;
        return;
      case "rPh":
        this.#phonetic = false;
        return;
      case "c":
        this.#cell();
        return;
      case "row":
        if (this.#cells.some((c) => c !== "") || this.#problems) {
          this.#sink.row(this.#rowNumber, this.#cells, this.#problems);
        }
        return;
    }
  }

  #cell(): void {
    const column = this.#column;
    const text = this.#text();
    if (text === null) return;
    while (this.#cells.length < column) this.#cells.push("");
    this.#cells[column] = text;
  }

  /** The cell's text; null after noting a problem. */
  #text(): string | null {
    const value = this.#value;
    if (this.#type === "inlineStr") return unescapeText(this.#inline);
    if (value === null) {
      if (this.#formula !== null) return this.#problem({ kind: "formula", formula: this.#formula });
      return "";
    }
    switch (this.#type) {
      case "s":
        return this.#context.strings.get(Number(value)) ?? "";
      case "str":
        return unescapeText(value);
      case "b":
        return value === "1" || value === "true" ? "TRUE" : "FALSE";
      case "e":
        return this.#problem({ kind: "error", value });
      case "d":
        return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : value;
      default:
        if (this.#context.dateStyles[this.#style] && value !== "") {
          return serialDate(Number(value), this.#context.date1904) ?? numberText(value);
        }
        return numberText(value);
    }
  }

  #problem(problem: CellProblem): null {
    this.#problems ??= new Map();
    this.#problems.set(this.#column, problem);
    return null;
  }
}
