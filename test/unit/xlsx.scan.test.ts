// The sheet scanner and saxes agree: any worksheet or shared-strings part, in any chunking,
// after any one-byte change, gives the same rows, the same cell problems, the same shared
// strings and the same error (the scanner leaves to saxes what it does not know, and saxes
// words what is wrong) — and every byte is counted once for the progress bar.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PartReader } from "../../src/xlsx/_readPart.js";
import { SharedStrings } from "../../src/xlsx/_SharedStrings.js";
import { type CellProblem, readSheet, type SheetContext, SheetRows } from "../../src/xlsx/_SheetRows.js";
import { scanXml } from "../../src/xlsx/_scanXml.js";
import { readStringsPart, SharedStringItems } from "../../src/xlsx/_workbook.js";
import { parseXml } from "../../src/xlsx/_xml.js";
import { chunked, stream, utf8 } from "../support/chunks.js";
import {
  byteMutationArb,
  excelSharedStringsXmlArb,
  excelSheetXmlArb,
  partBytes,
  sharedStringsXmlArb,
  sheetXmlArb,
} from "../support/sheetXml.js";

type Told =
  | { row: number; cells: string[]; problems: [number, CellProblem][] | null }
  | { tooLarge: number; column: number; what: string };

/** What a sheet's rows sink was told, and the error the read ended with. */
async function told(read: (sink: { row: never; tooLarge: never }) => Promise<unknown>) {
  const calls: Told[] = [];
  const sink = {
    row(row: number, cells: string[], problems: ReadonlyMap<number, CellProblem> | null) {
      calls.push({ row, cells: [...cells], problems: problems && [...problems] });
    },
    tooLarge(number: number, column: number, what: string) {
      calls.push({ tooLarge: number, column, what });
    },
  };
  try {
    await read(sink as never);
    return { calls, error: null };
  } catch (error) {
    return { calls, error: (error as Error).message };
  }
}

const STRINGS = ["Active", "Ada <&> Lovelace", "", "日本 😀", "_x000D_"];

function context(maxBytes: number, date1904: boolean): SheetContext {
  const strings = new SharedStrings();
  for (const s of STRINGS) strings.add(s);
  strings.add(null); // a string over the limit
  return { strings, dateStyles: [false, true, false, true], date1904, maxBytes };
}

/**
 * What saxes and what readSheet (the scanner, and saxes where it leaves off) tell of the sheet
 * `xml`, in chunks of `chunk` bytes (default: one), and which of the two read it for readSheet.
 */
async function bothReaders(xml: string, maxBytes: number, chunk = Number.POSITIVE_INFINITY) {
  const bytes = utf8(xml);
  const reference = await told((sink) =>
    parseXml(stream(chunked(bytes, chunk)), new SheetRows(sink, context(maxBytes, false))),
  );
  let reader: PartReader | null = null;
  const ours = await told(async (sink) => {
    reader = await readSheet(async () => stream(chunked(bytes, chunk)), sink, context(maxBytes, false));
  });
  return { reference, ours, reader };
}

const contextArb = fc.record({
  maxBytes: fc.constantFrom(8, 24, 64, 1 << 20),
  date1904: fc.boolean(),
});
const chunkArb = fc.integer({ min: 1, max: 80 });

/**
 * Holds the scanner to saxes on `runs` parts that `xmlArb` makes, `mutationArb` changes, in any
 * chunking and under any limit: the same rows, problems and error, each byte counted once.
 * Resolves how many parts the scanner read to their end itself.
 */
async function agreeOnSheets(
  xmlArb: fc.Arbitrary<string>,
  mutationArb: fc.Arbitrary<Parameters<typeof partBytes>[1]>,
  runs: number,
): Promise<number> {
  let scannedWhole = 0;
  await fc.assert(
    fc.asyncProperty(
      xmlArb,
      mutationArb,
      contextArb,
      chunkArb,
      async (xml, mutation, { maxBytes, date1904 }, chunk) => {
        const bytes = partBytes(xml, mutation);
        const reference = await told((sink) =>
          parseXml(stream(chunked(bytes, chunk)), new SheetRows(sink, context(maxBytes, date1904))),
        );
        let progress = 0;
        const ours = await told(async (sink) => {
          const reader = await readSheet(
            async () => stream(chunked(bytes, chunk)),
            sink,
            context(maxBytes, date1904),
            (n) => {
              progress += n;
            },
          );
          if (reader === "scanned") scannedWhole++;
        });
        expect(ours).toEqual(reference);
        const stoppedEarly = ours.calls.some((c) => "tooLarge" in c);
        if (ours.error === null && !stoppedEarly) expect(progress).toBe(bytes.length);
        expect(progress).toBeLessThanOrEqual(bytes.length);
      },
    ),
    { numRuns: runs },
  );
  return scannedWhole;
}

/**
 * Holds the scanner to saxes on `runs` shared strings parts that `xmlArb` makes, `mutationArb`
 * changes, in any chunking and under any limit: the same strings, or the same error. Resolves
 * how many parts the scanner read to their end itself.
 */
async function agreeOnStrings(
  xmlArb: fc.Arbitrary<string>,
  mutationArb: fc.Arbitrary<Parameters<typeof partBytes>[1]>,
  runs: number,
): Promise<number> {
  let scanned = 0;
  const strings = (s: SharedStrings) => Array.from({ length: s.count }, (_, k) => s.get(k));
  await fc.assert(
    fc.asyncProperty(
      xmlArb,
      mutationArb,
      fc.constantFrom(4, 16, 1 << 20),
      chunkArb,
      async (xml, mutation, maxBytes, chunk) => {
        const bytes = partBytes(xml, mutation);
        const items = new SharedStringItems(maxBytes);
        const reference = await parseXml(stream(chunked(bytes, chunk)), items).then(
          () => ({ strings: strings(items.strings), error: null }),
          (error: Error) => ({ strings: null, error: error.message }),
        );
        const ours = await readStringsPart(async () => stream(chunked(bytes, chunk)), maxBytes).then(
          (s) => ({ strings: strings(s), error: null }),
          (error: Error) => ({ strings: null, error: error.message }),
        );
        expect(ours).toEqual(reference);
        if (await scanXml(stream([bytes]), new SharedStringItems(maxBytes))) scanned++;
      },
    ),
    { numRuns: runs },
  );
  return scanned;
}

describe("the sheet scanner and saxes agree", () => {
  it("on worksheets, any chunking, before and after one byte changed", async () => {
    // the property says something of the scanner only if it reads many parts itself
    expect(await agreeOnSheets(sheetXmlArb, byteMutationArb, 1500)).toBeGreaterThan(1500 / 8);
  });

  it("on cells of the usual shape, read whole, when one byte of them is changed", async () => {
    // most bytes are in cells `<c r s t><v>…</v></c>`, which the scanner reads whole once it has
    // seen two: a changed byte there must take it to the general path, or to saxes, as it should
    const changed = byteMutationArb.filter((m) => m !== null);
    expect(await agreeOnSheets(excelSheetXmlArb, changed, 1500)).toBeGreaterThan(1500 / 8);
  });

  it.each([
    ["U+FFFF in its value", '<c r="C1"><v>1\uFFFF</v></c>'],
    ["U+FFFE in an attribute", '<c r="C1" t="\uFFFE"><v>1</v></c>'],
    ["a control character in its value", '<c r="C1"><v>1\u0001</v></c>'],
  ])("refuses, as saxes does, a cell of the usual shape but for %s", async (_, cell) => {
    const usual = '<c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>';
    const xml = `<worksheet><sheetData><row r="1">${usual}${cell}</row></sheetData></worksheet>`;
    const { reference, ours } = await bothReaders(xml, 1 << 20);
    expect(reference.error).not.toBeNull();
    expect(ours).toEqual(reference);
  });

  // the sheet's handler takes a cell the scanner read whole at once (SheetRows.leaf): what it
  // leaves behind must be what the calls one by one would have left, in sheets the generators
  // seldom make (the cells before each case teach the scanner the usual shape)
  it.each([
    [
      "a cell inside another",
      '<row r="1"><c r="A1" t="inlineStr"><c r="B1" t="s"><v>0</v></c><c r="C1" t="s"><v>1</v></c></c></row>',
      1 << 20,
    ],
    [
      "a <t> after a cell that follows an inline string",
      '<row r="1"><c r="A1" t="inlineStr"><v>x</v></c><c r="B1" t="s"><v>2</v></c><t>more than eight</t></row>',
      8,
    ],
    [
      "text after a cell inside a <v>",
      '<row r="1"><v><c r="A1"><v>1</v></c>more than eight</v><v><c r="B1"><v>2</v></c>more than eight</v></row>',
      8,
    ],
    [
      "a shared string's index longer than the limit",
      '<row r="1"><c r="A1" t="s"><v>2</v></c><c r="B1" t="s"><v>000000002</v></c></row>',
      8,
    ],
  ])("reads %s as the calls one by one do", async (_, row, maxBytes) => {
    const usual = '<row r="9"><c r="A9"><v>1</v></c><c r="B9"><v>2</v></c><c r="C9"><v>3</v></c></row>';
    const xml = `<worksheet><sheetData>${usual}${row}</sheetData></worksheet>`;
    const { reference, ours, reader } = await bothReaders(xml, maxBytes);
    expect(reader).toBe("scanned");
    expect(ours).toEqual(reference);
  });

  it.each([1, 7, 1 << 10])(
    "rejects, as saxes does, a part cut off in a cell over the limit (chunks of %i bytes)",
    async (chunk) => {
      // saxes finds the elements left open before it hands on the cell's text, which is too large
      const xml = `<worksheet><sheetData><row r="1"><c r="A1" t="str"><v>${"x".repeat(100)}`;
      const { reference, ours } = await bothReaders(xml, 64, chunk);
      expect(reference.error).toMatch(/unclosed/);
      expect(ours).toEqual(reference);
    },
  );

  it("on shared strings parts, any chunking, before and after one byte changed", async () => {
    expect(await agreeOnStrings(sharedStringsXmlArb, byteMutationArb, 800)).toBeGreaterThan(800 / 8);
  });

  it("on shared strings as Excel writes them, read whole, when one byte of them is changed", async () => {
    const changed = byteMutationArb.filter((m) => m !== null);
    expect(await agreeOnStrings(excelSharedStringsXmlArb, changed, 800)).toBeGreaterThan(800 / 8);
  });

  // an item the scanner read whole is added at once (SharedStringItems.leaf): it must add what
  // the calls one by one would have added, in parts the generators seldom make
  it.each([
    ["an item inside another", "<si><t>x</t><si><t>c</t></si><si><t>d</t></si></si>"],
    [
      "an item inside a phonetic run",
      '<rPh sb="0" eb="1"><si><t>p</t></si><si><t>q</t></si><si><t>r</t></si></rPh>',
    ],
  ])("adds %s as the calls one by one do", async (_, items) => {
    const xml = `<sst><si><t>a</t></si><si><t>b</t></si>${items}</sst>`;
    const strings = (s: SharedStrings) => Array.from({ length: s.count }, (_, k) => s.get(k));
    const reference = new SharedStringItems(1 << 20);
    await parseXml(stream([utf8(xml)]), reference);
    expect(await scanXml(stream([utf8(xml)]), new SharedStringItems(1 << 20))).toBe(true);
    const ours = await readStringsPart(async () => stream([utf8(xml)]), 1 << 20);
    expect(strings(ours)).toEqual(strings(reference.strings));
  });

  it.each([
    [
      "a comment",
      '<worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>a</t></is></c></row><!-- x --></sheetData></worksheet>',
    ],
    ["a CR", '<worksheet><sheetData><row r="1"><c><v>1</v></c></row>\r\n</sheetData></worksheet>'],
    [
      "a name outside ASCII",
      '<worksheet><sheetData><row r="1"><c><v>1</v></c></row><é/></sheetData></worksheet>',
    ],
  ])("leaves %s to saxes, having told the rows before it once", async (_, xml) => {
    const bytes = utf8(xml);
    const result = await told((sink) =>
      readSheet(async () => stream(chunked(bytes, 5)), sink, context(1 << 20, false)).then((reader) =>
        expect(reader).toBe("parsed"),
      ),
    );
    expect(result).toEqual({
      calls: [{ row: 1, cells: [xml.includes("inlineStr") ? "a" : "1"], problems: null }],
      error: null,
    });
  });

  it.each(["valueOf", "toString", "constructor", "__proto__"])(
    "refuses &%s; as saxes does: no entity, whatever JavaScript objects hold",
    async (name) => {
      const xml = `<worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>a&${name};</t></is></c></row></sheetData></worksheet>`;
      const { reference, ours } = await bothReaders(xml, 1 << 20);
      expect(reference.error).toMatch(/entity/);
      expect(ours).toEqual(reference);
    },
  );

  it.each([[[0xff]], [[0xe0, 0x80]], [[0xed, 0xa0]], [[0xc0]]])(
    "tells no row of a chunk that ends in bytes no character starts with (%j), as saxes tells none",
    async (bad) => {
      const first = Uint8Array.from([
        ...utf8('<worksheet><sheetData><row r="1"><c><v>1</v></c></row><row r="2"><c t="inlineStr"><is><t>'),
        ...bad,
      ]);
      const second = utf8("a</t></is></c></row></sheetData></worksheet>");
      const chunks = () => stream([first, second]);
      const reference = await told((sink) =>
        parseXml(chunks(), new SheetRows(sink, context(1 << 20, false))),
      );
      const ours = await told((sink) => readSheet(async () => chunks(), sink, context(1 << 20, false)));
      expect(reference.calls).toEqual([]);
      expect(ours).toEqual(reference);
    },
  );

  it("holds back a long text cut by a chunk's end as saxes does, counting UTF-16 units, not bytes", async () => {
    // 30 000 characters of 3 bytes: 90 KB, under saxes's piece of 64 Ki units; the cell is over
    // the limit, and the rest of its text is damaged: saxes, holding the text back, finds the
    // damage before the cell is told
    const first = utf8(`<worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>${"日".repeat(30_000)}`);
    const second = utf8("&bogus;</t></is></c></row></sheetData></worksheet>");
    const chunks = () => stream([first, second]);
    const reference = await told((sink) => parseXml(chunks(), new SheetRows(sink, context(1000, false))));
    expect(reference.error).not.toBeNull();
    const ours = await told((sink) => readSheet(async () => chunks(), sink, context(1000, false)));
    expect(ours).toEqual(reference);
  });

  it("counts a cell written again (a repeated reference) in its row's size", async () => {
    const cell = (r: string, text: string) => `<c r="${r}" t="inlineStr"><is><t>${text}</t></is></c>`;
    const row = [
      cell("A2", "x".repeat(30)),
      cell("A2", ""),
      cell("B2", "y".repeat(5)),
      cell("C2", "z".repeat(70)),
    ];
    const xml = `<worksheet><sheetData><row r="2">${row.join("")}</row></sheetData></worksheet>`;
    const result = await told((sink) =>
      readSheet(async () => stream([utf8(xml)]), sink, context(100, false)),
    );
    // 30 + 0 + 5 + 70 = 105 bytes told: past the 100 of the limit, at the cell that takes it there
    expect(result.calls).toEqual([{ tooLarge: 2, column: 2, what: "row" }]);
  });

  it("reads what Excel writes itself, to the end", async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1" spans="1:2"><c r="A1" t="s"><v>1</v></c><c r="B1" s="1"><v>45000</v></c></row></sheetData></worksheet>';
    const result = await told((sink) =>
      readSheet(async () => stream(chunked(utf8(xml), 7)), sink, context(1 << 20, false)).then((reader) =>
        expect(reader).toBe("scanned"),
      ),
    );
    expect(result.calls).toEqual([{ row: 1, cells: ["Ada <&> Lovelace", "2023-03-15"], problems: null }]);
  });
});
