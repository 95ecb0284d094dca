// The CSV fast path against csv-parse: for any text — regular CSV, quoted cells with
// delimiters, doubled quotes and line ends inside, empty lines, CR LF, and broken input (stray
// quotes, text after a closing quote, an unclosed quote, bad bytes, records past the size
// limit) — cut into any chunks, the fast parser gives the same records at the same places,
// and the same failure, as csv-parse alone.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CsvParser, type CsvParserOptions, type ParseFailure } from "../../src/csv/CsvParser.js";
import type { SourceLocation } from "../../src/report/Finding.js";
import { chunked } from "../support/chunks.js";

type Event = { record: string[]; loc: SourceLocation } | { failure: ParseFailure };

function parse(bytes: Uint8Array, size: number, options: CsvParserOptions): Event[] {
  const events: Event[] = [];
  const parser = new CsvParser(
    {
      record: (cells, loc) => events.push({ record: [...cells], loc }),
      failure: (failure) => events.push({ failure }),
    },
    options,
  );
  for (const piece of chunked(bytes, size)) {
    // the caller may reuse its chunk: give a copy, then spoil it
    const copy = Uint8Array.from(piece);
    parser.push(copy);
    copy.fill(0x41);
  }
  parser.end();
  return events;
}

const PIECES = [
  "a",
  "bc",
  "é",
  "𝄞",
  " ",
  ",",
  ";",
  "\t",
  "\n",
  "\r\n",
  "\r",
  '"',
  '""',
  '"x"',
  '"a,b"',
  '"l1\nl2"',
  "''",
  "=1",
];
const textArb = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((parts) => parts.join(""));
const BAD_BYTES = [[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80]];

const optionsArb = fc.record({
  delimiter: fc.constantFrom(",", ";", "\t"),
  recordDelimiter: fc.constantFrom("\n", "\r\n", "\r"),
  maxRecordBytes: fc.constantFrom(12, 1 << 20),
  offset: fc.constantFrom(0, 3),
});

describe("the CSV fast path", () => {
  it("gives what csv-parse gives: the same records, places and failure, in any chunking", () => {
    fc.assert(
      fc.property(
        textArb,
        fc.option(fc.tuple(fc.nat(), fc.constantFrom(...BAD_BYTES)), { freq: 5 }),
        optionsArb,
        fc.integer({ min: 1, max: 40 }),
        (text, bad, options, size) => {
          let bytes = new TextEncoder().encode(text);
          if (bad) {
            const at = bad[0] % (bytes.length + 1);
            bytes = Uint8Array.from([...bytes.subarray(0, at), ...bad[1], ...bytes.subarray(at)]);
          }
          const reference = parse(bytes, bytes.length + 1, { ...options, fast: false });
          expect(parse(bytes, size, options)).toEqual(reference);
          expect(parse(bytes, bytes.length + 1, options)).toEqual(reference);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("reads a regular file without csv-parse, and hands a broken one over where it breaks", () => {
    const options = { delimiter: ",", recordDelimiter: "\n", maxRecordBytes: 1 << 20, offset: 0 };
    const text = 'email,name\na@example.com,"Lovelace, Ada"\nb@example.com,"say ""hi"""\n';
    const events = parse(new TextEncoder().encode(text), 7, options);
    expect(events.map((e) => ("record" in e ? e.record : e))).toEqual([
      ["email", "name"],
      ["a@example.com", "Lovelace, Ada"],
      ["b@example.com", 'say "hi"'],
    ]);
    const broken = parse(new TextEncoder().encode('a,b\nc,d"e\n'), 3, options);
    expect(broken.at(-1)).toMatchObject({ failure: { kind: "quote", at: { line: 2 } } });
  });
});
