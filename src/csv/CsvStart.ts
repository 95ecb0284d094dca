// The start of a CSV file: held until the header line's break, then a file that is not text
// (ZIP, .xls, PDF) refused, the byte-order mark skipped, UTF-16 refused, and the delimiter and
// line break chosen from the header line — what the parser of the rest (in this thread or a
// worker) needs to know.

import { Buffer } from "../bytes/buffer.js";
import type { Code } from "../report/catalog.js";
import type { FindingDetails } from "../report/Finding.js";
import { mayBeSignature, signatureOf } from "../text/fileSignature.js";
import type { CsvParserOptions } from "./CsvParser.js";

/** The bytes to parse (after any byte-order mark), and how. */
export interface CsvBody {
  bytes: Buffer;
  options: CsvParserOptions;
}

const BOM = [0xef, 0xbb, 0xbf];
/** How long to wait for the header's line break before deciding the delimiter anyway. */
const HEAD_LIMIT = 65536;

/** Push-based: `push(chunk, end)` until it returns the body (or stops). */
export class CsvStart {
  readonly #onFinding: (code: Code, details: FindingDetails) => void;
  readonly #maxRecordBytes: number;
  #head: Buffer | null = null;
  #stopped = false;

  constructor(onFinding: (code: Code, details: FindingDetails) => void, maxRecordBytes: number) {
    this.#onFinding = onFinding;
    this.#maxRecordBytes = maxRecordBytes;
  }

  /** True when the file cannot be read as UTF-8 CSV (it is UTF-16). */
  get stopped(): boolean {
    return this.#stopped;
  }

  /**
   * The start of the file, given in pieces: held until the header's line break (or the end),
   * then the byte-order mark is skipped, UTF-16 refused and the delimiter chosen. Returns the
   * bytes after the mark to parse from, with the parser's options, or null while waiting or
   * stopped (UTF-16: a finding).
   */
  push(chunk: Uint8Array, end: boolean): CsvBody | null {
    const data: Buffer = this.#head ? Buffer.concat([this.#head, chunk]) : Buffer.from(chunk);
    this.#head = null;
    if (!end && ((data.indexOf(0x0a) === -1 && data.length < HEAD_LIMIT) || mayBeSignature(data))) {
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
    let body = data;
    let offset = 0;
    if (BOM.every((b, k) => data[k] === b)) {
      offset = 3;
      body = data.subarray(3);
    } else if ((data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0xfe && data[1] === 0xff)) {
      this.#stopped = true;
      this.#onFinding("csv.encoding", {
        location: { line: 1, column: 1, offset: 0 },
        row: 0,
        params: { detail: "the file is UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8" },
        hint: "save the file as UTF-8 (in a spreadsheet: CSV UTF-8); with iconv: iconv -f utf-16 -t utf-8 in.csv > out.csv",
      });
      return null;
    }
    const lf = body.indexOf(0x0a);
    const firstLine = body.subarray(0, Math.max(0, lf)).toString("utf8");
    const delimiter = guessDelimiter(firstLine.length > 0 ? firstLine : body.toString("utf8"));
    const recordDelimiter =
      lf > 0 && body[lf - 1] === 0x0d ? "\r\n" : lf === -1 && body.includes(0x0d) ? "\r" : "\n";
    return {
      bytes: body,
      options: { delimiter, recordDelimiter, maxRecordBytes: this.#maxRecordBytes, offset },
    };
  }
}

/** `,` unless the header line has more `;` or tabs (outside quotes) than commas. */
function guessDelimiter(line: string): string {
  const count = (c: string) => line.replace(/"[^"]*"/g, "").split(c).length - 1;
  const candidates = [",", ";", "\t"].map((c) => [c, count(c)] as const);
  const best = candidates.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ",";
}
