// The large parts of a workbook (a sheet, the shared strings) read fast: a scanner over the
// bytes that knows only what spreadsheet writers write — elements, attributes in quotes, the
// five named entities and character references, the XML declaration — and checks, as it goes,
// that what it reads is well-formed UTF-8 XML. Whatever else it meets (a comment, CDATA, a
// processing instruction, a DOCTYPE, a name outside ASCII, a CR, a line break in an attribute,
// anything not well-formed) it leaves to saxes: it says so, having told its handler only what
// saxes would have told it first, and the caller reads the part again with parseXml, which
// finds the same things and words what is wrong. The differential property in
// test/unit/xlsx.scan.test.ts holds the two to the same cells and findings.

import { Buffer, isUtf8 } from "../bytes/buffer.js";
import { startedCharacter } from "../text/utf8.js";
import { columnIndex, wholeNumber } from "./_cells.js";
import { MAX_ATTRIBUTES, MAX_MARKUP, TEXT_PIECE } from "./_xml.js";

/** The attributes of the element being opened, by the index of their name in the handler's list. */
export interface ScannedTag {
  /** The value, entities decoded; undefined when the element has no such attribute. */
  value(attribute: number): string | undefined;
  /** The value as `Number` reads it; NaN when the element has no such attribute. */
  number(attribute: number): number;
  /** The column of a cell reference (`AB7` → 27), as columnIndex reads it; -1 when none. */
  column(attribute: number): number;
  /** The value's one character (`t="s"`: 0x73), when it is one ASCII character; 0 when the element has no such attribute, -1 otherwise. */
  code(attribute: number): number;
}

/** What the scanner tells, in document order; the elements and attributes it names are its own. */
export interface ScanHandler {
  /** The local names of the elements it is told of (opened, closed), by index. */
  readonly elements: readonly string[];
  /** The names (as written, prefix included) of the attributes it reads, by index. */
  readonly attributes: readonly string[];
  openElement(element: number, tag: ScannedTag): void;
  closeElement(element: number): void;
  /** Whether character data is wanted now: it is then told, perhaps in pieces, in either call. */
  readonly wantsText: boolean;
  /** Character data as UTF-8 bytes, `bytes[from, to)`: valid only during the call. */
  textBytes(bytes: Buffer, from: number, to: number): void;
  /** Character data with its entities decoded. */
  text(text: string): void;
  /** True once it needs nothing more: the scan ends there, and what follows is not judged. */
  readonly done: boolean;
  /**
   * An element read whole (see Scanner.#leaf), told at once: `outer` opened with `tag`, its child
   * `inner` holding the text `bytes[from, to)` (no entities), both closed. Returns true when it
   * took the element, and is then not done; false, having changed nothing, for the element to be
   * told call by call instead.
   */
  leaf?(outer: number, inner: number, tag: ScannedTag, bytes: Buffer, from: number, to: number): boolean;
}

/**
 * Scans `chunks` (UTF-8 bytes) into `handler`; `onBytes` is told how many bytes each chunk had.
 * Resolves true when the part was read to its end (or to what the handler needed), false when
 * the scanner left it, at something only saxes can judge; what the handler was told until then
 * is what saxes tells first, in any chunking.
 */
export async function scanXml(
  chunks: AsyncIterable<Uint8Array>,
  handler: ScanHandler,
  onBytes?: (bytes: number) => void,
): Promise<boolean> {
  const scanner = new Scanner(handler);
  let carry: Buffer | null = null;
  // of the bytes carried, how many were found to be UTF-8 already
  let checked = 0;
  for await (const chunk of chunks) {
    const b: Buffer = carry ? Buffer.concat([carry, chunk]) : asBuffer(chunk);
    // a character cut by the chunk's end is read with the bytes that follow it
    const end = b.length - startedCharacter(b);
    if (!isUtf8(b.subarray(checked, end))) return false;
    const at = scanner.scan(b, end, false);
    if (at === GIVE_UP) return false;
    if (handler.done) {
      onBytes?.(chunk.length);
      return true;
    }
    if (b.length - at > MAX_MARKUP) return false;
    carry = at < b.length ? b.subarray(at) : null;
    checked = end - at;
    onBytes?.(chunk.length);
  }
  const b = carry ?? Buffer.alloc(0);
  if (!isUtf8(b)) return false;
  // a handler done only now is left to saxes, which first finds the elements left open
  return scanner.scan(b, b.length, true) === b.length && scanner.complete;
}

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const GIVE_UP = -1;
const MORE = -2;
/** Not an element read whole (see Scanner.#leaf): the general path reads it. */
const NOT_LEAF = -3;
/** The most tags of an element in a row that #leaf leaves alone after it could not read one whole. */
const MAX_LEAF_SKIPS = 1024;
/** The most attributes an element read whole has (a cell has three). */
const LEAF_ATTRIBUTES = 8;

const LT = 0x3c;
const GT = 0x3e;
const AMP = 0x26;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const SEMICOLON = 0x3b;
const BRACKET = 0x5d;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;

// what a byte below 0x80 is to the scanner in character data
const PLAIN = 0;
const SPACING = 1; // space, tab, LF: allowed outside the root element too
const LOOKED_AT = 2; // < & ] >
const REFUSED = 3; // a control character, or CR (which XML turns into LF): left to saxes
const TEXT = new Uint8Array(128).map((_, c) => {
  if (c === LT || c === AMP || c === BRACKET || c === GT) return LOOKED_AT;
  if (c === SPACE || c === TAB || c === LF) return SPACING;
  if (c < 0x20) return REFUSED;
  return PLAIN;
});
// which bytes are name characters: 2 those a name may start with, 1 the others (ASCII only)
const NAMES = new Uint8Array(256).map((_, c) => {
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x3a) return 2;
  if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e) return 1;
  return 0;
});
// what #leaf reads a byte as: 0 what it reads on, 1 the end it looks for (a text's `<`, a
// value's `"`), 2 what it leaves to the general path (markup, an entity, past ASCII, control)
const LEAF_TEXT = new Uint8Array(256).map((_, c) =>
  c === LT ? 1 : c >= 0x80 || (TEXT[c] as number) > SPACING ? 2 : 0,
);
const LEAF_VALUE = new Uint8Array(256).map((_, c) =>
  c === QUOTE ? 1 : c >= 0x80 || c < 0x20 || c === LT || c === AMP ? 2 : 0,
);
// 1 for the whitespace allowed inside a tag (CR, which XML turns into LF, is left to saxes)
const SPACES = new Uint8Array(256).map((_, c) => (c === SPACE || c === TAB || c === LF ? 1 : 0));
// what a byte is in an attribute's value: 0 plain, 1 looked at (& or past ASCII), 2 refused:
// `<`, or a control character (a line break or a tab becomes a space: left to saxes)
const VALUES = new Uint8Array(256).map((_, c) => (c === LT || c < 0x20 ? 2 : c === AMP || c >= 0x80 ? 1 : 0));

/** Whether the character starting at `b[k]` (at least 0x80) is U+FFFE or U+FFFF, which XML refuses. */
const notXmlChar = (b: Uint8Array, k: number) =>
  b[k] === 0xef && b[k + 1] === 0xbf && ((b[k + 2] as number) & 0xfe) === 0xbe;

/** Where the name at `b[i]` (its first byte checked) ends; MORE, or GIVE_UP past ASCII. */
function nameEndAt(b: Uint8Array, i: number, n: number): number {
  let k = i + 1;
  while (k < n && NAMES[b[k] as number] !== 0) k++;
  if (k < n) return (b[k] as number) >= 0x80 ? GIVE_UP : k;
  return k - i > MAX_MARKUP ? GIVE_UP : MORE;
}

/**
 * A name seen in the part: an element's or an attribute's, with what the handler calls it. As
 * an element's, it also remembers what came after it last time (parts repeat the same tags
 * over and over), which is then looked at first.
 */
interface Name {
  readonly bytes: Uint8Array;
  /** Its index in the handler's elements (by local name), or -1. */
  readonly element: number;
  /** Its index in the handler's attributes, or -1. */
  readonly attribute: number;
  /** The element opened next after this one was opened, and after it was closed. */
  afterOpen: Name | null;
  afterClose: Name | null;
  /** The names of the attributes this element had, in their order. */
  readonly attributes: Name[];
  /** As an element #leaf read: its child, and the tags around the child's text. */
  leaf: { inner: Name; start: Uint8Array; end: Uint8Array } | null;
  /**
   * How many times in a row its child's start tag was not the bare tag #leaf reads (a row's
   * first cell has attributes), and how many of its next tags #leaf then leaves alone: as many.
   */
  leafMisses: number;
  leafSkips: number;
}

/** Whether `b[i, end)` is `name`'s bytes. */
function isName(name: Name | null, b: Uint8Array, i: number, end: number): name is Name {
  if (name === null) return false;
  const bytes = name.bytes;
  if (bytes.length !== end - i) return false;
  for (let k = 0; k < bytes.length; k++) if (bytes[k] !== b[i + k]) return false;
  return true;
}

/** Whether `b[k, n)` starts with `bytes`. */
function bytesAt(b: Uint8Array, k: number, n: number, bytes: Uint8Array): boolean {
  if (k + bytes.length > n) return false;
  for (let a = 0; a < bytes.length; a++) if (b[k + a] !== bytes[a]) return false;
  return true;
}

/** The tags around an element's text that #leaf reads: `<v>`, and `</v></c>`. */
function leafTags(outer: Name, inner: Name): NonNullable<Name["leaf"]> {
  const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
  const name = (of: Name) => String.fromCharCode(...of.bytes);
  return {
    inner,
    start: ascii(`<${name(inner)}>`),
    end: ascii(`</${name(inner)}></${name(outer)}>`),
  };
}

// a Map: a name such as `valueOf` or `__proto__` is no entity (saxes's table has no prototype either)
const ENTITIES: ReadonlyMap<string, string> = new Map([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
]);

/** The character an entity's name (between & and ;) stands for; null when saxes must judge it. */
function entity(name: string): string | null {
  const named = ENTITIES.get(name);
  if (named !== undefined) return named;
  let code = Number.NaN;
  if (/^#x[0-9a-fA-F]{1,6}$/.test(name)) code = Number.parseInt(name.slice(2), 16);
  else if (/^#[0-9]{1,7}$/.test(name)) code = Number.parseInt(name.slice(1), 10);
  const isChar =
    code === TAB ||
    code === LF ||
    code === 0x0d ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff);
  return isChar ? String.fromCodePoint(code) : null;
}

/** The longest entity reference read (`&#x10FFFF;` has 10 characters; leading zeros are rare). */
const MAX_ENTITY = 12;

/**
 * The character of the entity reference at `b[k]` (an `&`) and where it ends (its `;`); null
 * when saxes must judge it, MORE when `b` ends before it does.
 */
function entityAt(b: Buffer, k: number, n: number): { character: string; semi: number } | null | typeof MORE {
  const semi = b.indexOf(SEMICOLON, k + 1);
  if (semi < 0 || semi >= n) return n - k > MAX_ENTITY ? null : MORE;
  if (semi - k > MAX_ENTITY) return null;
  const character = entity(b.toString("latin1", k + 1, semi));
  return character === null ? null : { character, semi };
}

/** `b[from, to)` as text, its entities (checked already) decoded. */
function decode(b: Buffer, from: number, to: number): string {
  let out = "";
  let at = from;
  for (let amp = b.indexOf(AMP, at); amp >= 0 && amp < to; amp = b.indexOf(AMP, at)) {
    const semi = b.indexOf(SEMICOLON, amp);
    out += b.toString("utf8", at, amp) + (entity(b.toString("latin1", amp + 1, semi)) as string);
    at = semi + 1;
  }
  return out + b.toString("utf8", at, to);
}

/**
 * Whether the text `b[from, to)` (its entities checked already), cut by a chunk's end, is held
 * back as saxes holds it: up to TEXT_PIECE UTF-16 units, entities decoded. A UTF-8 byte is at
 * most a unit, so only a longer run is counted.
 */
function heldBack(b: Buffer, from: number, to: number): boolean {
  if (to - from <= TEXT_PIECE) return true;
  let units = 0;
  for (let k = from; k < to && units <= TEXT_PIECE; k++) {
    const c = b[k] as number;
    if (c === AMP) {
      const semi = b.indexOf(SEMICOLON, k);
      units += (entity(b.toString("latin1", k + 1, semi)) as string).length;
      k = semi;
    } else if ((c & 0xc0) !== 0x80) units += c >= 0xf0 ? 2 : 1;
  }
  return units <= TEXT_PIECE;
}

/** The XML declaration saxes accepts without a word, in the forms writers write. */
const DECLARATION =
  /^<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*(["'])1\.0\1(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*(["'])(?:yes|no)\3)?[ \t\n]*\?>$/;

/** The most names of one first byte and length the scanner tells apart. */
const MAX_NAMES = 64;

/** The short values of attributes kept as strings, by a hash of their bytes (a cell's type: "s"). */
const SHORT_VALUES = 256;

class Scanner implements ScannedTag {
  readonly #handler: ScanHandler;
  readonly #elements: ReadonlyMap<string, number>;
  readonly #attributes: ReadonlyMap<string, number>;
  /** The names seen, by their first byte and their length (its last 4 bits). */
  readonly #names: Name[][] = Array.from({ length: 128 << 4 }, () => []);
  /** The open elements: `#depth` of them. */
  #stack: Name[] = new Array<Name>(16);
  #depth = 0;
  /** The element opened or closed last, and whether it was closed. */
  #last: Name | null = null;
  #lastClosed = false;
  #sawRoot = false;
  #closedRoot = false;
  /** Whether anything was read: the XML declaration may only come first. */
  #started = false;
  /** Whether the first bytes were looked at for a byte order mark (one, as the decoder drops one). */
  #bomChecked = false;
  /** The `]` just before, in character data (`]]>` is refused there). */
  #brackets = 0;
  // the tag being read: its attributes' names, and where the values of the handler's are in #b
  #b: Buffer = Buffer.alloc(0);
  readonly #tagNames: Name[] = [];
  readonly #from: Int32Array;
  readonly #to: Int32Array;
  /** The tag each attribute was last seen in (tags are counted past 2^31 in a part of gigabytes). */
  readonly #stamp: Float64Array;
  readonly #entities: Uint8Array;
  #tag = 0;
  readonly #shortValues: (string | undefined)[] = new Array(SHORT_VALUES);

  constructor(handler: ScanHandler) {
    this.#handler = handler;
    this.#elements = new Map(handler.elements.map((name, k) => [name, k]));
    this.#attributes = new Map(handler.attributes.map((name, k) => [name, k]));
    const n = handler.attributes.length;
    this.#from = new Int32Array(n);
    this.#to = new Int32Array(n);
    this.#stamp = new Float64Array(n);
    this.#entities = new Uint8Array(n);
  }

  /** Whether the document ended where it may: its root element read and closed. */
  get complete(): boolean {
    return this.#sawRoot && this.#depth === 0;
  }

  /**
   * Reads `b` from its start; returns where what is left begins (a tag or an entity cut by
   * `end`, or the bytes past `end`, to be read again with what follows), or GIVE_UP. `last`:
   * nothing follows.
   */
  scan(b: Buffer, end: number, last: boolean): number {
    this.#b = b;
    let i = 0;
    if (!this.#bomChecked && end > 0) {
      if (b[0] === 0xef) {
        // a byte order mark, which the decoder before saxes drops
        if (end < 3) return last ? GIVE_UP : 0;
        if (b[1] === 0xbb && b[2] === 0xbf) i = 3;
      }
      this.#bomChecked = true;
    }
    while (i < end) {
      const next = b[i] === LT ? this.#markup(b, i, end) : this.#text(b, i, end, last);
      if (next === GIVE_UP) return GIVE_UP;
      if (next === MORE) return last ? GIVE_UP : i;
      if (next === i) return i; // an entity or a wanted text cut by the end
      i = next;
      this.#started = true;
      // the part ends where the handler has enough: what follows is not judged (see parseXml)
      if (this.#handler.done) return i;
    }
    return i;
  }

  // ── character data ──

  /** Character data from `i` to the next `<`; returns where it ended. */
  #text(b: Buffer, i: number, n: number, last: boolean): number {
    const inRoot = this.#depth > 0;
    const wanted = inRoot && this.#handler.wantsText;
    let brackets = this.#brackets;
    let decoded: string | null = null; // the run as text once it had an entity
    let from = i;
    let k = i;
    for (; k < n; k++) {
      const c = b[k] as number;
      if (c >= 0x80) {
        if (!inRoot || notXmlChar(b, k)) return GIVE_UP;
        brackets = 0;
        continue;
      }
      const kind = TEXT[c] as number;
      if (kind === PLAIN) {
        if (!inRoot) return GIVE_UP; // text outside the root element
        brackets = 0;
        continue;
      }
      if (kind === SPACING) {
        brackets = 0;
        continue;
      }
      if (c === LT) break;
      if (kind === REFUSED || !inRoot) return GIVE_UP;
      if (c === BRACKET) {
        brackets++;
        continue;
      }
      if (c === GT) {
        if (brackets >= 2) return GIVE_UP; // "]]>"
        brackets = 0;
        continue;
      }
      // an entity
      brackets = 0;
      const found = entityAt(b, k, n);
      if (found === null || (found === MORE && last)) return GIVE_UP;
      if (found === MORE) {
        // cut by the end: read again with what follows, and the run before it with it (held
        // back, see below) or told now
        if (wanted && heldBack(b, i, k)) return i;
        if (wanted) this.#tell(b, from, k, decoded);
        this.#brackets = 0;
        return k;
      }
      if (wanted) decoded = (decoded ?? "") + b.toString("utf8", from, k) + found.character;
      from = found.semi + 1;
      k = found.semi;
    }
    // a run the chunk's end cuts is held back, as saxes holds it, until it ends or grows past a
    // piece: a handler that has enough (a cell over the limit) then stops where saxes would
    if (wanted && k === n && !last && heldBack(b, i, k)) return i;
    this.#brackets = k < n ? 0 : brackets;
    if (wanted) this.#tell(b, from, k, decoded);
    return k;
  }

  #tell(b: Buffer, from: number, to: number, decoded: string | null): void {
    if (decoded !== null) this.#handler.text(decoded + b.toString("utf8", from, to));
    else if (to > from) this.#handler.textBytes(b, from, to);
  }

  // ── markup ──

  /** The markup at `i` (a `<`); returns where it ended, MORE or GIVE_UP. */
  #markup(b: Buffer, i: number, n: number): number {
    if (i + 1 >= n) return MORE;
    const c = b[i + 1] as number;
    if (c === SLASH) return this.#closeTag(b, i + 2, n);
    if (c === QUESTION) return this.#declaration(b, i, n);
    if (NAMES[c] === 2) {
      const leaf = this.#leaf(b, i, n);
      return leaf === NOT_LEAF ? this.#openTag(b, i + 1, n) : leaf;
    }
    return GIVE_UP; // a comment, CDATA, a DOCTYPE, a name outside ASCII, or no tag at all
  }

  #declaration(b: Buffer, i: number, n: number): number {
    if (this.#started) return GIVE_UP;
    const end = b.indexOf("?>", i);
    if (end < 0 || end + 2 > n) return n - i > 256 ? GIVE_UP : MORE;
    return DECLARATION.test(b.toString("latin1", i, end + 2)) ? end + 2 : GIVE_UP;
  }

  #openTag(b: Buffer, i: number, n: number): number {
    const nameEnd = nameEndAt(b, i, n);
    if (nameEnd < 0) return nameEnd;
    const last = this.#last;
    const expected = last === null ? null : this.#lastClosed ? last.afterClose : last.afterOpen;
    const name = isName(expected, b, i, nameEnd) ? expected : this.#name(b, i, nameEnd);
    if (name === null) return GIVE_UP;
    const hints = name.attributes;
    const tag = ++this.#tag;
    const names = this.#tagNames;
    const froms = this.#from;
    const tos = this.#to;
    const stamps = this.#stamp;
    const entities = this.#entities;
    let count = 0;
    let k = nameEnd;
    for (;;) {
      if (k >= n) return MORE;
      let c = b[k] as number;
      if (c === GT || c === SLASH) break;
      // whitespace, then an attribute (or the tag's end)
      if (SPACES[c] === 0) return GIVE_UP;
      while (++k < n && SPACES[b[k] as number] === 1);
      if (k >= n) return MORE;
      c = b[k] as number;
      if (c === GT || c === SLASH) break;
      if (NAMES[c] !== 2) return GIVE_UP;
      const attributeEnd = nameEndAt(b, k, n);
      if (attributeEnd < 0) return attributeEnd;
      const hint = count < hints.length ? (hints[count] as Name) : null;
      const attribute = isName(hint, b, k, attributeEnd) ? hint : this.#name(b, k, attributeEnd);
      if (attribute === null) return GIVE_UP;
      if (attribute !== hint && count <= hints.length) hints[count] = attribute;
      // many attributes are left to saxes, which refuses more than it keeps (MAX_ATTRIBUTES)
      if (count >= MAX_ATTRIBUTES) return GIVE_UP;
      for (let a = 0; a < count; a++) if (names[a] === attribute) return GIVE_UP;
      names[count++] = attribute;
      k = attributeEnd;
      if (b[k] !== EQUALS) {
        while (k < n && SPACES[b[k] as number] === 1) k++;
        if (k >= n) return MORE;
        if (b[k] !== EQUALS) return GIVE_UP;
      }
      let quote = b[++k];
      if (quote !== QUOTE && quote !== APOSTROPHE) {
        while (k < n && SPACES[b[k] as number] === 1) k++;
        if (k >= n) return MORE;
        quote = b[k];
        if (quote !== QUOTE && quote !== APOSTROPHE) return GIVE_UP;
      }
      const from = k + 1;
      let decoded = 0;
      for (k = from; ; k++) {
        if (k >= n) return MORE;
        const v = b[k] as number;
        if (v === quote) break;
        const kind = VALUES[v];
        if (kind === 0) continue;
        if (kind === 2) return GIVE_UP;
        if (v >= 0x80) {
          if (notXmlChar(b, k)) return GIVE_UP;
        } else {
          const found = entityAt(b, k, n);
          if (found === null || found === MORE) return found === null ? GIVE_UP : MORE;
          decoded = 1;
          k = found.semi;
        }
      }
      const wanted = attribute.attribute;
      if (wanted >= 0) {
        froms[wanted] = from;
        tos[wanted] = k;
        entities[wanted] = decoded;
        stamps[wanted] = tag;
      }
      k++; // past the quote: whitespace or the tag's end must follow
    }
    let end: number;
    let empty = false;
    if (b[k] === SLASH) {
      if (k + 1 >= n) return MORE;
      if (b[k + 1] !== GT) return GIVE_UP;
      empty = true;
      end = k + 2;
    } else end = k + 1;
    if (this.#closedRoot) return GIVE_UP; // a second root element
    this.#sawRoot = true;
    if (last !== null) {
      if (this.#lastClosed) last.afterClose = name;
      else last.afterOpen = name;
    }
    this.#last = name;
    this.#lastClosed = empty;
    const element = name.element;
    if (element >= 0) this.#handler.openElement(element, this);
    if (empty) {
      if (element >= 0) this.#handler.closeElement(element);
      if (this.#depth === 0) this.#closedRoot = true;
    } else {
      if (this.#depth === this.#stack.length) this.#stack = this.#stack.concat(new Array<Name>(this.#depth));
      this.#stack[this.#depth++] = name;
    }
    return end;
  }

  /**
   * The element at `i` (a `<`) read whole, when it has the shape most of a sheet has — a cell
   * with its value, `<c r="A2" t="s"><v>12</v></c>` — and is the element that came after the
   * last one the last time: its attributes one space apart, in double quotes, without entities
   * or bytes past ASCII; one child without attributes, the one it had the last time, holding
   * character data without markup or entities, or nothing; both closed. The handler is told
   * what #openTag, #text and #closeTag would tell it. Returns where the element ended, or
   * NOT_LEAF, having told nothing (it may have learnt a name, a hint, and where the values of
   * the tag #openTag then reads are), for the general path to read it or find what is wrong.
   */
  #leaf(b: Buffer, i: number, n: number): number {
    const last = this.#last;
    if (last === null || this.#depth === 0) return NOT_LEAF;
    const outer = this.#lastClosed ? last.afterClose : last.afterOpen;
    const inner = outer === null ? null : outer.afterOpen;
    if (outer === null || inner === null) return NOT_LEAF;
    if (outer.leafSkips > 0) {
      outer.leafSkips--;
      return NOT_LEAF;
    }
    // the outer element's name, then its attributes up to the >
    let k = i + 1;
    const outerName = outer.bytes;
    // (a byte must follow the name: `>` or a space, not more of a longer name)
    if (k + outerName.length >= n || !bytesAt(b, k, n, outerName)) return NOT_LEAF;
    k += outerName.length;
    // the attributes are stamped with the tag they will have (#openTag stamps the same ones
    // with the same tag, should it read the element instead)
    const tag = this.#tag + 1;
    const hints = outer.attributes;
    const names = this.#tagNames;
    let count = 0;
    for (;;) {
      if (k >= n) return NOT_LEAF;
      const c = b[k] as number;
      if (c === GT) break;
      if (c !== SPACE || k + 1 >= n || NAMES[b[k + 1] as number] !== 2) return NOT_LEAF;
      const start = k + 1;
      k = start + 1;
      while (k < n && NAMES[b[k] as number] !== 0) k++;
      if (k + 2 >= n || b[k] !== EQUALS || b[k + 1] !== QUOTE || count === LEAF_ATTRIBUTES) return NOT_LEAF;
      const hint = count < hints.length ? (hints[count] as Name) : null;
      const attribute = isName(hint, b, start, k) ? hint : this.#name(b, start, k);
      if (attribute === null) return NOT_LEAF;
      if (attribute !== hint && count <= hints.length) hints[count] = attribute;
      for (let a = 0; a < count; a++) if (names[a] === attribute) return NOT_LEAF;
      names[count++] = attribute;
      const from = k + 2;
      for (k = from; k < n; k++) {
        const kind = LEAF_VALUE[b[k] as number] as number;
        if (kind === 0) continue;
        if (kind === 1) break;
        return NOT_LEAF;
      }
      if (k >= n) return NOT_LEAF;
      const wanted = attribute.attribute;
      if (wanted >= 0) {
        this.#from[wanted] = from;
        this.#to[wanted] = k;
        this.#entities[wanted] = 0;
        this.#stamp[wanted] = tag;
      }
      k++;
    }
    // the child's start tag, its character data, its end tag, then the outer one's
    if (outer.leaf?.inner !== inner) outer.leaf = leafTags(outer, inner);
    const { start: innerStart, end: ends } = outer.leaf;
    k++;
    if (!bytesAt(b, k, n, innerStart)) {
      // an element that is seldom read whole (a row) is seldom tried
      if (k + innerStart.length < n)
        outer.leafSkips = outer.leafMisses = Math.min(2 * outer.leafMisses + 1, MAX_LEAF_SKIPS);
      return NOT_LEAF;
    }
    outer.leafMisses = 0;
    const from = k + innerStart.length;
    for (k = from; k < n; k++) {
      const kind = LEAF_TEXT[b[k] as number] as number;
      if (kind === 0) continue;
      if (kind === 1) break;
      return NOT_LEAF;
    }
    const to = k;
    if (!bytesAt(b, to, n, ends)) return NOT_LEAF;
    const end = to + ends.length;
    // read: now told, up to where the handler has enough (where the general path would stop)
    const handler = this.#handler;
    this.#tag = tag;
    this.#last = outer;
    this.#lastClosed = true;
    if (handler.leaf?.(outer.element, inner.element, this, b, from, to)) {
      this.#tag++;
      if (to > from) this.#brackets = 0;
      return end;
    }
    if (outer.element >= 0) handler.openElement(outer.element, this);
    if (handler.done) return from - innerStart.length;
    this.#tag++; // the child's, which has no attributes
    if (inner.element >= 0) handler.openElement(inner.element, this);
    if (handler.done) return from;
    if (to > from) {
      this.#brackets = 0; // as #text leaves it
      if (handler.wantsText) handler.textBytes(b, from, to);
      if (handler.done) return to;
    }
    if (inner.element >= 0) handler.closeElement(inner.element);
    if (handler.done) return to + inner.bytes.length + 3; // past `</v>`
    if (outer.element >= 0) handler.closeElement(outer.element);
    return end;
  }

  /** The end tag whose name starts at `i`: the open element's, or saxes must judge it. */
  #closeTag(b: Buffer, i: number, n: number): number {
    if (this.#depth === 0) return GIVE_UP;
    const open = this.#stack[this.#depth - 1] as Name;
    const name = open.bytes;
    const length = name.length;
    if (i + length >= n) return i + length - n > MAX_MARKUP ? GIVE_UP : MORE;
    for (let k = 0; k < length; k++) if (b[i + k] !== name[k]) return GIVE_UP;
    let k = i + length;
    if (b[k] !== GT) {
      // spaces may come before the >; anything else means another name
      while (k < n && SPACES[b[k] as number] === 1) k++;
      if (k >= n) return MORE;
      if (b[k] !== GT) return GIVE_UP;
    }
    if (--this.#depth === 0) this.#closedRoot = true;
    this.#last = open;
    this.#lastClosed = true;
    if (open.element >= 0) this.#handler.closeElement(open.element);
    return k + 1;
  }

  /**
   * The name `b[i, end)`, the same object each time it is seen; null past MAX_NAMES names that
   * look alike (a part that makes up names is left to saxes, whose cost does not grow with them).
   */
  #name(b: Buffer, i: number, end: number): Name | null {
    const length = end - i;
    const seen = this.#names[((b[i] as number) << 4) | (length & 15)] as Name[];
    for (let k = 0; k < seen.length; k++) {
      const name = seen[k] as Name;
      const bytes = name.bytes;
      if (bytes.length !== length) continue;
      let at = 1;
      while (at < length && bytes[at] === b[i + at]) at++;
      if (at === length) return name;
    }
    if (seen.length === MAX_NAMES) return null;
    const text = b.toString("latin1", i, end);
    const colon = text.indexOf(":");
    const name: Name = {
      bytes: new Uint8Array(b.subarray(i, end)),
      element: this.#elements.get(colon < 0 ? text : text.slice(colon + 1)) ?? -1,
      attribute: this.#attributes.get(text) ?? -1,
      afterOpen: null,
      afterClose: null,
      attributes: [],
      leaf: null,
      leafMisses: 0,
      leafSkips: 0,
    };
    seen.push(name);
    return name;
  }

  // ── the tag being opened, as the handler reads it ──

  value(attribute: number): string | undefined {
    if (this.#stamp[attribute] !== this.#tag) return undefined;
    const b = this.#b;
    const from = this.#from[attribute] as number;
    const to = this.#to[attribute] as number;
    if (this.#entities[attribute]) return decode(b, from, to);
    if (to - from > 4) return b.toString("utf8", from, to);
    // a short value (a cell's type) is made once
    let hash = to - from;
    for (let k = from; k < to; k++) {
      const c = b[k] as number;
      if (c >= 0x80) return b.toString("utf8", from, to);
      hash = (hash * 31 + c) & (SHORT_VALUES - 1);
    }
    const kept = this.#shortValues[hash];
    if (kept !== undefined && kept.length === to - from) {
      let k = 0;
      while (k < kept.length && kept.charCodeAt(k) === b[from + k]) k++;
      if (k === kept.length) return kept;
    }
    const text = b.toString("utf8", from, to);
    this.#shortValues[hash] = text;
    return text;
  }

  number(attribute: number): number {
    if (this.#stamp[attribute] !== this.#tag) return Number.NaN;
    const b = this.#b;
    const from = this.#from[attribute] as number;
    const to = this.#to[attribute] as number;
    const whole = wholeNumber(b, from, to);
    return whole >= 0 ? whole : Number(this.value(attribute));
  }

  code(attribute: number): number {
    if (this.#stamp[attribute] !== this.#tag) return 0;
    const from = this.#from[attribute] as number;
    if (this.#to[attribute] !== from + 1 || this.#entities[attribute]) return -1;
    const c = this.#b[from] as number;
    return c < 0x80 ? c : -1;
  }

  column(attribute: number): number {
    if (this.#stamp[attribute] !== this.#tag) return -1;
    const b = this.#b;
    const from = this.#from[attribute] as number;
    const to = this.#to[attribute] as number;
    if (this.#entities[attribute]) return columnIndex(decode(b, from, to));
    let index = 0;
    let k = from;
    for (; k < to; k++) {
      const c = (b[k] as number) | 0x20; // lower case
      if (c < 0x61 || c > 0x7a) break;
      index = index * 26 + (c - 0x60);
    }
    return k === from ? -1 : index - 1;
  }
}
