// The start of a CSV file: held until its first lines are in, then a file that is not text
// (ZIP, .xls, PDF) refused, the byte-order mark skipped (UTF-16 text decoded to UTF-8 from
// there on), and the delimiter and line break chosen from those lines — what the parser of the
// rest (in this thread or a worker) needs to know.

import { Buffer } from "../bytes/buffer.js";
import type { Code } from "../report/catalog.js";
import type { FindingDetails } from "../report/Finding.js";
import type { ReportText } from "../report/Report.js";
import { mayBeSignature, signatureOf } from "../text/fileSignature.js";
import { type Utf16, Utf16Decoder } from "../text/Utf16Decoder.js";
import type { CsvParserOptions } from "./CsvParser.js";
import { guessDelimiter } from "./guessDelimiter.js";

/** The bytes to parse (after any byte-order mark), and how. */
export interface CsvBody {
  /** UTF-8: the file's own bytes, or the text decoded from UTF-16. */
  bytes: Buffer;
  options: CsvParserOptions;
  /**
   * For a UTF-16 file, what turns the rest of its bytes into the UTF-8 the parser reads (its
   * `failure`, once set, is where the text stops being UTF-16); null for a UTF-8 file.
   */
  decoder: Utf16Decoder | null;
}

const BOM = [0xef, 0xbb, 0xbf];
const UTF16_BOM_LENGTH = 2;
/** The byte-order marks of UTF-16, and what each says. */
const UTF16_BOMS: readonly { bytes: readonly number[]; encoding: Utf16 }[] = [
  { bytes: [0xff, 0xfe], encoding: "UTF-16LE" },
  { bytes: [0xfe, 0xff], encoding: "UTF-16BE" },
];
/** The lines that are held to choose the delimiter from: the header and the rows after it. */
const HEAD_LINES = 6;
/** How much is held at most while waiting for those lines (of text, decoded). */
const HEAD_LIMIT = 65536;

/** Push-based: `push(chunk, end)` until it returns the body (or stops). */
export class CsvStart {
  readonly #onFinding: (code: Code, details: FindingDetails) => void;
  readonly #maxRecordBytes: number;
  #head: Buffer | null = null;
  #stopped = false;
  /** Set once the file is known to be UTF-16: the head is then its text in UTF-8. */
  #decoder: Utf16Decoder | null = null;

  constructor(onFinding: (code: Code, details: FindingDetails) => void, maxRecordBytes: number) {
    this.#onFinding = onFinding;
    this.#maxRecordBytes = maxRecordBytes;
  }

  /** True when the file cannot be read as CSV (it is not text). */
  get stopped(): boolean {
    return this.#stopped;
  }

  /**
   * The start of the file, given in pieces: held until its first lines (or the end), then the
   * byte-order mark is skipped and the delimiter chosen. Returns the text after the mark to
   * parse from, in UTF-8, with the parser's options, or null while waiting or stopped (a file
   * that is not text: a finding).
   */
  push(chunk: Uint8Array, end: boolean): CsvBody | null {
    if (this.#decoder) return this.#pushText(this.#decoder, chunk, end);
    const data: Buffer = this.#head ? Buffer.concat([this.#head, chunk]) : Buffer.from(chunk);
    this.#head = null;
    if (!end && (data.length < 2 || mayBeSignature(data))) {
      this.#head = data;
      return null;
    }
    const signature = signatureOf(data);
    if (signature) {
      // a ZIP (an Excel workbook), an .xls, a PDF: said as such, not as a header problem
      this.#stopped = true;
      this.#onFinding("file.type", {
        location: { line: 1, column: 1, offset: 0 },
        row: 0,
        params: { what: signature.what },
        hint: signature.hint,
      });
      return null;
    }
    const utf16 = utf16Of(data);
    if (utf16) {
      // Excel's "Unicode Text": its mark says which UTF-16; the parser reads it as UTF-8
      this.#decoder = new Utf16Decoder(utf16.encoding);
      return this.#pushText(this.#decoder, data.subarray(UTF16_BOM_LENGTH), end);
    }
    const bom = BOM.every((b, k) => data[k] === b) ? BOM.length : 0;
    return this.#take(data.subarray(bom), data, end, bom);
  }

  /** The next bytes of a UTF-16 file, decoded onto the head (which is UTF-8 then). */
  #pushText(decoder: Utf16Decoder, chunk: Uint8Array, end: boolean): CsvBody | null {
    const decoded = Buffer.from(decoder.push(chunk));
    const tail = end ? Buffer.from(decoder.end()) : null;
    const parts = [this.#head, decoded, tail].filter((p) => p !== null && p.length > 0) as Buffer[];
    this.#head = null;
    const text = Buffer.concat(parts);
    // where it stops being UTF-16 the head ends: the parser reads up to there and says why
    return this.#take(text, text, end || decoder.failure !== null, UTF16_BOM_LENGTH);
  }

  /**
   * `body`, the UTF-8 text after a byte-order mark of `offset` bytes: while its first lines are
   * not all in, `head` is held (what the next bytes are put after), else the body is returned.
   */
  #take(body: Buffer, head: Buffer, end: boolean, offset: number): CsvBody | null {
    const lines = headLinesEnd(body);
    if (!end && lines === -1 && body.length < HEAD_LIMIT) {
      this.#head = head;
      return null;
    }
    const lf = body.indexOf(0x0a);
    const recordDelimiter =
      lf > 0 && body[lf - 1] === 0x0d ? "\r\n" : lf === -1 && body.includes(0x0d) ? "\r" : "\n";
    // the same lines whatever the chunks: up to the last line break held for, within the limit
    const window = lines === -1 ? body : body.subarray(0, lines + 1);
    const whole = lines === -1 && end;
    const delimiter = guessDelimiter(
      window.subarray(0, HEAD_LIMIT).toString("utf8"),
      recordDelimiter,
      whole && window.length <= HEAD_LIMIT,
    );
    return {
      bytes: body,
      options: { delimiter, recordDelimiter, maxRecordBytes: this.#maxRecordBytes, offset },
      decoder: this.#decoder,
    };
  }
}

/** Whether `bytes`, a file's start, are a UTF-16 byte-order mark. */
export function startsAsUtf16(bytes: Uint8Array): boolean {
  return utf16Of(bytes) !== undefined;
}

/** The UTF-16 form a file's start names by its byte-order mark, if any. */
function utf16Of(bytes: Uint8Array): (typeof UTF16_BOMS)[number] | undefined {
  return UTF16_BOMS.find((bom) => bom.bytes.every((b, k) => bytes[k] === b));
}

/** How the body's text is read, when it is not UTF-8 with commas (null when it is). */
export function textOf(body: CsvBody): ReportText | null {
  const text: ReportText = {
    ...(body.decoder ? { encoding: body.decoder.encoding } : {}),
    ...(body.options.delimiter !== "," ? { delimiter: body.options.delimiter } : {}),
  };
  return Object.keys(text).length > 0 ? text : null;
}

/** Where the HEAD_LINES-th line feed of `bytes` is (-1: fewer). */
function headLinesEnd(bytes: Uint8Array): number {
  let at = -1;
  for (let n = 0; n < HEAD_LINES && (n === 0 || at !== -1); n++) at = bytes.indexOf(0x0a, at + 1);
  return at;
}
