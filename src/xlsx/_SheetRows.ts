// A worksheet part's XML as rows of cell texts: `<row r>` and `<c r s t>` with `<v>`, `<f>`
// and `<is>` (inline and rich text, phonetic runs left out), each value read as the CSV cell
// it stands for — shared strings looked up, numbers as Excel's General shows them, date-styled
// numbers as YYYY-MM-DD. A formula counts as its saved result; a formula without one and an
// error value (#N/A) are problems of their cell, which then counts as empty, as does a shared
// string index that points nowhere. A cell or a row larger than the limit ends the sheet: its
// text past the limit is never kept.

import type { Buffer } from "../bytes/buffer.js";
import { utf8Length } from "../text/utf8.js";
import { BoundedText } from "./_BoundedText.js";
import { columnIndex, numberText, serialDate, unescapeText, wholeNumber } from "./_cells.js";
import { type PartReader, readPart } from "./_readPart.js";
import type { SharedStrings } from "./_SharedStrings.js";
import type { ScanHandler, ScannedTag } from "./_scanXml.js";
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

/** A cell's types (`t`) the scanner's whole cells have: a shared string, a number. */
const S = 0x73;
const N = 0x6e;

/** Excel's last column, XFD, 0-based. */
const LAST_COLUMN = 16_383;

/** The elements read, by local name: `is` needs no telling, its `t` is enough. */
const ELEMENTS = ["row", "c", "v", "f", "rPh", "t"];
enum Element {
  Row,
  Cell,
  Value,
  Formula,
  Phonetic,
  Text,
}
/** The attributes read: a row's and a cell's reference, a cell's style and type. */
const ATTRIBUTES = ["r", "s", "t"];
enum Attribute {
  R,
  S,
  T,
}

/** The error of a cell past Excel's last column. */
function pastLastColumn(reference: string | undefined, column: number): Error {
  const cell = reference === undefined ? `number ${column + 1} of its row` : JSON.stringify(reference);
  return new Error(`a cell (${cell}) is past the last column, XFD`);
}

enum In {
  Nothing,
  Value,
  Formula,
  InlineText,
}

/** The handler of one worksheet part, for saxes (XmlHandler) and for the scanner (ScanHandler). */
export class SheetRows implements XmlHandler, ScanHandler {
  readonly #sink: SheetRowSink;
  readonly #context: SheetContext;
  #rowNumber = 0;
  #cells: string[] = [];
  #problems: Map<number, CellProblem> | null = null;
  #column = -1;
  /** The cells opened and not closed: one, unless a sheet is damaged. */
  #openCells = 0;
  /** The UTF-8 bytes of the row's texts: counted once its characters could make them too many. */
  #rowBytes = -1;
  #rowChars = 0;
  /** The bytes of cells of the row written again since (their texts are gone from #cells). */
  #rewritten = 0;
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

  // the elements and attributes read, by name (saxes) and by index (the scanner)

  readonly elements = ELEMENTS;
  readonly attributes = ATTRIBUTES;

  open(name: string, attributes: Readonly<Record<string, string>>): void {
    const element = ELEMENTS.indexOf(name);
    if (element === Element.Row) this.#openRow(Number(attributes.r));
    else if (element === Element.Cell) {
      const reference = attributes.r;
      const index = reference === undefined ? -1 : columnIndex(reference);
      const type = attributes.t ?? "n";
      if (!this.#openCell(index, type, Number(attributes.s ?? 0) || 0))
        throw pastLastColumn(reference, this.#column);
    } else if (element >= 0) this.#open(element);
  }

  openElement(element: number, tag: ScannedTag): void {
    if (element === Element.Row) this.#openRow(tag.number(Attribute.R));
    else if (element === Element.Cell) {
      const type = tag.value(Attribute.T) ?? "n";
      if (!this.#openCell(tag.column(Attribute.R), type, tag.number(Attribute.S) || 0)) {
        throw pastLastColumn(tag.value(Attribute.R), this.#column);
      }
    } else this.#open(element);
  }

  /**
   * The usual cell, read whole by the scanner — `<c r="B2" t="s"><v>12</v></c>`, a shared string
   * or a whole number — taken at once; anything else is told call by call (returns false).
   */
  leaf(outer: number, inner: number, tag: ScannedTag, bytes: Buffer, from: number, to: number): boolean {
    // inside another cell, what this one leaves behind is read when that one closes
    if (outer !== Element.Cell || inner !== Element.Value || this.#openCells > 0 || this.#done) return false;
    const index = tag.column(Attribute.R);
    const column = index >= 0 ? index : this.#column + 1;
    if (column > LAST_COLUMN || to - from > this.#context.maxBytes) return false;
    const type = tag.code(Attribute.T);
    const whole = wholeNumber(bytes, from, to);
    if (whole < 0) return false;
    let text: string | null | undefined;
    if (type === S) text = this.#context.strings.get(whole);
    else if (type === 0 || type === N) text = this.#wholeText(whole, tag.number(Attribute.S) || 0);
    if (typeof text !== "string" || this.#fit(text) !== null) return false;
    // what the calls would leave: the cell's type (a `<t>` after it looks at it), no text wanted
    this.#type = type === S ? "s" : "n";
    this.#in = In.Nothing;
    this.#column = column;
    this.#put(column, text);
    return true;
  }

  get wantsText(): boolean {
    return this.#in !== In.Nothing;
  }

  #openRow(r: number): void {
    if (this.#done) return;
    this.#rowNumber = Number.isInteger(r) && r > 0 ? r : this.#rowNumber + 1;
    this.#cells = [];
    this.#problems = null;
    this.#column = -1;
    this.#rowBytes = -1;
    this.#rowChars = 0;
    this.#rewritten = 0;
  }

  /** Starts a cell at column `index` (-1: the next one); false when that is past the last column. */
  #openCell(index: number, type: string, style: number): boolean {
    if (this.#done) return true;
    this.#openCells++;
    this.#column = index >= 0 ? index : this.#column + 1;
    // the row's cells are an array up to this column: one past Excel's last is damage, and
    // a damaged reference (`r="ZZZZZZ3"`) would otherwise take the array to millions
    if (this.#column > LAST_COLUMN) return false;
    this.#type = type;
    this.#style = style;
    this.#hasValue = false;
    this.#hasFormula = false;
    this.#value.reset();
    this.#formula.reset();
    this.#inline.reset();
    return true;
  }

  #open(element: Element): void {
    if (this.#done) return;
    switch (element) {
      case Element.Value:
        this.#hasValue = true;
        this.#value.reset();
        this.#in = In.Value;
        return;
      case Element.Formula:
        this.#hasFormula = true;
        this.#formula.reset();
        this.#in = In.Formula;
        return;
      case Element.Phonetic:
        this.#phonetic = true;
        return;
      case Element.Text:
        if (!this.#phonetic && this.#type === "inlineStr") this.#in = In.InlineText;
        return;
    }
  }

  text(text: string): void {
    const into = this.#into();
    // said at once, so that reading ends before the rest of a huge text is parsed
    if (into && !into.add(text)) this.#tooLarge("cell");
  }

  textBytes(bytes: Buffer, from: number, to: number): void {
    const into = this.#into();
    if (into && !into.addBytes(bytes, from, to)) this.#tooLarge("cell");
  }

  /** Where the character data read now goes. */
  #into(): BoundedText | null {
    switch (this.#in) {
      case In.Value:
        return this.#value;
      case In.Formula:
        return this.#formula;
      case In.InlineText:
        return this.#inline;
      default:
        return null;
    }
  }

  close(name: string): void {
    const element = ELEMENTS.indexOf(name);
    if (element >= 0) this.closeElement(element);
  }

  closeElement(element: number): void {
    if (this.#done) return;
    switch (element) {
      case Element.Value:
      case Element.Formula:
      case Element.Text:
        this.#in = In.Nothing;
        return;
      case Element.Phonetic:
        this.#phonetic = false;
        return;
      case Element.Cell:
        this.#openCells--;
        this.#cell();
        return;
      case Element.Row:
        if (this.#problems || hasText(this.#cells))
          this.#sink.row(this.#rowNumber, this.#cells, this.#problems);
        return;
    }
  }

  #cell(): void {
    const text = this.#text();
    if (text === null) return;
    const over = this.#fit(text);
    if (over === null) this.#put(this.#column, text);
    else this.#tooLarge(over);
  }

  /**
   * Counts `text` into the row, unless it is larger than the limit ("cell") or takes the row
   * past it ("row"): then nothing is counted.
   */
  #fit(text: string): "cell" | "row" | null {
    const max = this.#context.maxBytes;
    // a character is at most 3 UTF-8 bytes: they are counted only once the row could be too large
    const chars = this.#rowChars + text.length;
    if (chars * 3 > max) {
      const before =
        this.#rowBytes >= 0
          ? this.#rowBytes
          : this.#cells.reduce((sum, cell) => sum + utf8Length(cell), this.#rewritten);
      const bytes = utf8Length(text);
      if (before + bytes > max) return bytes > max ? "cell" : "row";
      this.#rowBytes = before + bytes;
    }
    this.#rowChars = chars;
    return null;
  }

  /** Puts `text` in the row's cell at `column`. */
  #put(column: number, text: string): void {
    while (this.#cells.length < column) this.#cells.push("");
    // a cell written again (a repeated reference) still counts what it held
    if (column < this.#cells.length) this.#rewritten += utf8Length(this.#cells[column] as string);
    this.#cells[column] = text;
  }

  /** The cell's text; null after noting a problem. */
  #text(): string | null {
    if (this.#type === "inlineStr") return unescapeText(this.#inline.text);
    if (!this.#hasValue) {
      if (this.#hasFormula) return this.#problem({ kind: "formula", formula: this.#formula.text });
      return "";
    }
    const value = this.#value;
    switch (this.#type) {
      case "s":
        return this.#sharedString(value);
      case "str":
        return unescapeText(value.text);
      case "b":
        return value.text === "1" || value.text === "true" ? "TRUE" : "FALSE";
      case "e":
        return this.#problem({ kind: "error", value: value.text });
      case "d":
        return /^\d{4}-\d{2}-\d{2}/.test(value.text) ? value.text.slice(0, 10) : value.text;
      default: {
        // the usual number, a whole one, read from its digits
        const whole = value.digits();
        if (whole >= 0) return this.#wholeText(whole, this.#style);
        const isDate = this.#context.dateStyles[this.#style];
        const text = value.text;
        if (isDate && text !== "")
          return serialDate(Number(text), this.#context.date1904) ?? numberText(text);
        return numberText(text);
      }
    }
  }

  /** A whole number's text in a cell of `style`: a date's YYYY-MM-DD, or its digits. */
  #wholeText(whole: number, style: number): string {
    return (this.#context.dateStyles[style] && serialDate(whole, this.#context.date1904)) || String(whole);
  }

  /** The shared string a cell's value is the index of; null after noting a problem. */
  #sharedString(value: BoundedText): string | null {
    let index = value.digits();
    if (index < 0) index = value.text.trim() === "" ? Number.NaN : Number(value.text);
    const text = Number.isInteger(index) && index >= 0 ? this.#context.strings.get(index) : undefined;
    if (text === undefined) return this.#problem({ kind: "string", index: value.text });
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

/**
 * Reads a worksheet part into `sink`: scanned, or where the scanner leaves it, parsed again by
 * saxes from the start with what the sink was told already not told again. `open` gives the
 * part's bytes afresh each time; `onBytes` hears of each byte once. Resolves which of the two
 * read the part.
 */
export async function readSheet(
  open: () => Promise<AsyncIterable<Uint8Array>>,
  sink: SheetRowSink,
  context: SheetContext,
  onBytes?: (bytes: number) => void,
): Promise<PartReader> {
  const once = new TellOnce(sink);
  const rows = (reader: PartReader) => {
    if (reader === "parsed") once.again();
    return new SheetRows(once, context);
  };
  return (await readPart(open, rows, onBytes)).reader;
}

/** A sink that passes on what it is told, and after `again()` what it is told beyond that. */
class TellOnce implements SheetRowSink {
  readonly #sink: SheetRowSink;
  #told = 0;
  #skip = 0;

  constructor(sink: SheetRowSink) {
    this.#sink = sink;
  }

  /** The telling starts again: what was told before is not passed on a second time. */
  again(): void {
    this.#skip = this.#told;
    this.#told = 0;
  }

  row(number: number, cells: string[], problems: ReadonlyMap<number, CellProblem> | null): void {
    if (this.#told++ >= this.#skip) this.#sink.row(number, cells, problems);
  }

  tooLarge(number: number, column: number, what: "cell" | "row"): void {
    if (this.#told++ >= this.#skip) this.#sink.tooLarge(number, column, what);
  }
}

/** Whether any of `cells` has text. */
function hasText(cells: readonly string[]): boolean {
  for (let k = 0; k < cells.length; k++) if (cells[k] !== "") return true;
  return false;
}
