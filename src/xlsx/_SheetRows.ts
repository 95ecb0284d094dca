// A worksheet part's XML as rows of cell texts: `<row r>` and `<c r s t>` with `<v>`, `<f>`
// and `<is>` (inline and rich text, phonetic runs left out), each value read as the CSV cell
// it stands for — shared strings looked up, numbers as Excel's General shows them, date-styled
// numbers as YYYY-MM-DD. A formula counts as its saved result; a formula without one and an
// error value (#N/A) are problems of their cell, which then counts as empty, as does a shared
// string index that points nowhere. A cell or a row larger than the limit ends the sheet: its
// text past the limit is never kept.

import { utf8Length } from "../text/utf8.js";
import { BoundedText } from "./_BoundedText.js";
import { columnIndex, numberText, serialDate, unescapeText } from "./_cells.js";
import type { SharedStrings } from "./_SharedStrings.js";
import type { XmlHandler } from "./_xml.js";

/** Why a cell counts as empty although something is in it. */
export type CellProblem =
  | { kind: "formula"; formula: string }
  | { kind: "error"; value: string }
  | { kind: "string"; index: string };

/** Receives each row that has a cell, in order, until a cell or a row is too large. */
export interface SheetRowSink {
  /** `cells`: texts by 0-based column, "" where none; `problems` by column. */
  row(number: number, cells: string[], problems: ReadonlyMap<number, CellProblem> | null): void;
  /** The cell at `column` of row `number` is larger than the limit, or takes its row past it: the last call. */
  tooLarge(number: number, column: number, what: "cell" | "row"): void;
}

/** What the values of a sheet's cells depend on. */
export interface SheetContext {
  strings: SharedStrings;
  /** Whether cell style (xf) `i` shows a date. */
  dateStyles: readonly boolean[];
  date1904: boolean;
  /** The most UTF-8 bytes a cell's text, and a row's texts together, may have. */
  maxBytes: number;
}

/** Excel's last column, XFD, 0-based. */
const LAST_COLUMN = 16_383;

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
  #rowBytes = 0;
  #done = false;
  // the cell being read: whether it has a value and a formula, and their texts
  #type = "";
  #style = 0;
  #hasValue = false;
  #hasFormula = false;
  readonly #value: BoundedText;
  readonly #formula: BoundedText;
  readonly #inline: BoundedText;
  #in = In.Nothing;
  #phonetic = false;

  constructor(sink: SheetRowSink, context: SheetContext) {
    this.#sink = sink;
    this.#context = context;
    this.#value = new BoundedText(context.maxBytes);
    this.#formula = new BoundedText(context.maxBytes);
    this.#inline = new BoundedText(context.maxBytes);
  }

  /** True once a cell or a row was too large: nothing more is read. */
  get done(): boolean {
    return this.#done;
  }

  open(name: string, attributes: Readonly<Record<string, string>>): void {
    if (this.#done) return;
    switch (name) {
      case "row": {
        const r = Number(attributes.r);
        this.#rowNumber = Number.isInteger(r) && r > 0 ? r : this.#rowNumber + 1;
        this.#cells = [];
        this.#problems = null;
        this.#column = -1;
        this.#rowBytes = 0;
        return;
      }
      case "c": {
        const reference = attributes.r;
        const index = reference === undefined ? -1 : columnIndex(reference);
        this.#column = index >= 0 ? index : this.#column + 1;
        // the row's cells are an array up to this column: one past Excel's last is damage, and
        // a damaged reference (`r="ZZZZZZ3"`) would otherwise take the array to millions
        if (this.#column > LAST_COLUMN) {
          throw new Error(
            `a cell (${reference === undefined ? `number ${this.#column + 1} of its row` : JSON.stringify(reference)}) is past the last column, XFD`,
          );
        }
        this.#type = attributes.t ?? "n";
        this.#style = Number(attributes.s ?? 0) || 0;
        this.#hasValue = false;
        this.#hasFormula = false;
        this.#value.reset();
        this.#formula.reset();
        this.#inline.reset();
        return;
      }
      case "v":
        this.#hasValue = true;
        this.#value.reset();
        this.#in = In.Value;
        return;
      case "f":
        this.#hasFormula = true;
        this.#formula.reset();
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
    let whole = true;
    switch (this.#in) {
      case In.Value:
        whole = this.#value.add(text);
        break;
      case In.Formula:
        whole = this.#formula.add(text);
        break;
      case In.InlineText:
        whole = this.#inline.add(text);
        break;
    }
    // said at once, so that reading ends before the rest of a huge text is parsed
    if (!whole) this.#tooLarge("cell");
  }

  close(name: string): void {
    if (this.#done) return;
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
    const bytes = utf8Length(text);
    this.#rowBytes += bytes;
    if (this.#rowBytes > this.#context.maxBytes) {
      this.#tooLarge(bytes > this.#context.maxBytes ? "cell" : "row");
      return;
    }
    while (this.#cells.length < column) this.#cells.push("");
    this.#cells[column] = text;
  }

  /** The cell's text; null after noting a problem. */
  #text(): string | null {
    if (this.#type === "inlineStr") return unescapeText(this.#inline.text);
    if (!this.#hasValue) {
      if (this.#hasFormula) return this.#problem({ kind: "formula", formula: this.#formula.text });
      return "";
    }
    const value = this.#value.text;
    switch (this.#type) {
      case "s":
        return this.#sharedString(value);
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

  /** The shared string a cell's value is the index of; null after noting a problem. */
  #sharedString(value: string): string | null {
    const index = value.trim() === "" ? Number.NaN : Number(value);
    const text = Number.isInteger(index) && index >= 0 ? this.#context.strings.get(index) : undefined;
    if (text === undefined) return this.#problem({ kind: "string", index: value });
    if (text === null) this.#tooLarge("cell");
    return text;
  }

  #tooLarge(what: "cell" | "row"): void {
    if (this.#done) return;
    this.#done = true;
    this.#in = In.Nothing;
    this.#sink.tooLarge(this.#rowNumber, this.#column, what);
  }

  #problem(problem: CellProblem): null {
    this.#problems ??= new Map();
    this.#problems.set(this.#column, problem);
    return null;
  }
}
