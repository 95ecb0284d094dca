// Bytes to text for the scanner: strict UTF-8 (a bad byte is a finding at its exact place,
// never U+FFFD), a UTF-8 byte-order mark skipped, UTF-16 recognised, and characters split
// across chunks held back until they are whole.

import type { Code } from "../report/catalog.js";
import type { FindingDetails } from "../report/Finding.js";
import { mayBeSignature, signatureOf } from "../text/fileSignature.js";
import { findInvalidUtf8, incompleteTail } from "../text/utf8.js";

const BOM = [0xef, 0xbb, 0xbf];

/** What the decoder feeds: the scanner, or what carries the text to the thread where it runs. */
export interface TextSink {
  /** The next piece of text, which is `byteLength` bytes of the source. */
  feed(text: string, byteLength: number): void;
  /** The end of the input (not told after an encoding problem). */
  finish(): void;
  /** The bytes after the text fed so far are not UTF-8 (`detail` says why): reading ends there. */
  encodingError(detail: string): void;
  /** True once reading may stop. */
  readonly stopped: boolean;
}

/**
 * Decodes pushed bytes and feeds the text to `scanner`; a byte that is not UTF-8 goes to the
 * scanner (it is found where the text stops), other problems of the file to `finding`.
 */
export class JsonDecoder {
  readonly #scanner: TextSink;
  readonly #finding: (code: Code, details: FindingDetails) => void;
  readonly #decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  #pending: Uint8Array | null = null;
  #started = false;
  #stopped = false;
  #bytes = 0;

  constructor(scanner: TextSink, finding: (code: Code, details: FindingDetails) => void) {
    this.#scanner = scanner;
    this.#finding = finding;
  }

  /** Bytes pushed so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /** True once an encoding problem or the scanner stopped reading. */
  get stopped(): boolean {
    return this.#stopped || this.#scanner.stopped;
  }

  /** Decodes and scans the next bytes. The chunk may be reused by the caller afterwards. */
  push(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    if (this.stopped) return;
    let data = chunk;
    if (this.#pending) {
      data = new Uint8Array(this.#pending.length + chunk.length);
      data.set(this.#pending);
      data.set(chunk, this.#pending.length);
      this.#pending = null;
    }
    if (!this.#started) {
      if (
        (data.length < 3 && BOM.slice(0, data.length).every((b, k) => data[k] === b)) ||
        mayBeSignature(data)
      ) {
        this.#pending = copyOf(data); // could still be a byte-order mark, or a ZIP, PDF, …
        return;
      }
      this.#started = true;
      if (this.#notText(data)) return;
      data = this.#skipByteOrderMark(data);
      if (this.stopped) return;
    }
    const tail = incompleteTail(data);
    if (tail > 0) {
      this.#pending = copyOf(data.subarray(data.length - tail));
      data = data.subarray(0, data.length - tail);
    }
    this.#decodeAndScan(data);
  }

  /** The end of the input. */
  end(): void {
    if (this.stopped) return;
    if (!this.#started && this.#pending) {
      const rest = this.#pending;
      this.#pending = null;
      this.#started = true;
      if (this.#notText(rest)) return;
      this.#decodeAndScan(rest);
    } else if (this.#pending) {
      this.#encodingError(
        this.#pending,
        findInvalidUtf8(this.#pending)?.reason ?? "the file ends inside a character",
      );
      return;
    }
    if (!this.stopped) this.#scanner.finish();
  }

  /** Whether the file's first bytes say it is a ZIP, an .xls, a PDF: then that is the finding. */
  #notText(data: Uint8Array): boolean {
    const signature = signatureOf(data);
    if (!signature) return false;
    this.#stopped = true;
    this.#finding("file.type", {
      pointer: "",
      location: { line: 1, column: 1, offset: 0 },
      params: { what: signature.what },
      hint: signature.hint,
    });
    return true;
  }

  #skipByteOrderMark(data: Uint8Array): Uint8Array {
    if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) {
      this.#scanner.feed("", 3);
      return data.subarray(3);
    }
    if ((data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0xfe && data[1] === 0xff)) {
      this.#stopped = true;
      this.#finding("json.encoding", {
        pointer: "",
        location: { line: 1, column: 1, offset: 0 },
        params: { detail: "the file is UTF-16 (it starts with a UTF-16 byte-order mark), not UTF-8" },
        hint: "save the file as UTF-8; with iconv: iconv -f utf-16 -t utf-8 in.json > out.json",
      });
    }
    return data;
  }

  #decodeAndScan(data: Uint8Array): void {
    let text: string;
    try {
      text = this.#decoder.decode(data);
    } catch {
      const bad = findInvalidUtf8(data);
      const at = bad ? bad.index : 0;
      this.#scanner.feed(this.#decoder.decode(data.subarray(0, at)), at);
      if (!this.#scanner.stopped) this.#encodingError(data.subarray(at), bad?.reason ?? "invalid UTF-8");
      return;
    }
    this.#scanner.feed(text, data.length);
  }

  #encodingError(rest: Uint8Array, reason: string): void {
    this.#stopped = true;
    const byte = rest[0] ?? 0;
    const latin1 = byte >= 0xa0 ? ` (in Latin-1 it would be '${String.fromCharCode(byte)}')` : "";
    this.#scanner.encodingError(`the file is not valid UTF-8: ${reason}${latin1}`);
  }
}

/** A copy (Buffer#slice would return a view of a buffer the caller may reuse). */
function copyOf(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}
