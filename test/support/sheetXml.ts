// Worksheet and shared-strings parts written as spreadsheet writers write them, and as they
// write them less often: attributes in any order and quoting, namespace prefixes, entities and
// character references, non-ASCII text, rich and phonetic runs, elements the reader skips, and
// now and then what only a full XML parser judges (a comment, CDATA, a processing instruction,
// a CR) — then, perhaps, one byte changed. For the differential property of the sheet scanner.

import fc from "fast-check";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

/** Texts of cells and strings: entities, references, non-ASCII, Excel's _xHHHH_, brackets. */
const textArb = fc
  .array(
    fc.oneof(
      {
        arbitrary: fc.constantFrom(
          "a",
          "Ada",
          " ",
          "  ",
          "\t",
          "\n",
          "0",
          "42",
          "1.5",
          "&amp;",
          "&lt;",
          "&gt;",
          "&quot;",
          "&apos;",
          "&#65;",
          "&#x1F600;",
          "&#xe9;",
          "é",
          "日本",
          "😀",
          "_x000D_",
          "]",
          "]]",
          "@",
          "x@example.com",
        ),
        weight: 30,
      },
      // what XML refuses in text: a character reference to no character, an unknown entity, ]]>
      { arbitrary: fc.constantFrom("&#0;", "&#xFFFE;", "&bogus;", "&valueOf;", ">", "\uFFFF"), weight: 1 },
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(""));

/** A number cell's stored value, as writers store them and as they never should. */
const numberArb = fc.oneof(
  fc.constantFrom("", "0", "7", "007", "45000", "45000.5", "1E+3", "-3", " 12 ", "12a", "1.0000000000000002"),
  fc.nat().map(String),
  fc.bigInt({ min: 0n, max: 10n ** 17n }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
);

const quoteArb = fc.constantFrom('"', "'");
const eqArb = fc.constantFrom("=", "=", "=", " = ", "\t=");
const spaceArb = fc.constantFrom(" ", " ", " ", "  ", "\n", "\t", " \n ");

/** Attributes as written: any order, either quote, spaces around `=`. */
function attributes(pairs: readonly [string, string][]): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.shuffledSubarray([...pairs], { minLength: pairs.length }),
      fc.array(fc.tuple(quoteArb, eqArb, spaceArb)),
    )
    .map(([order, styles]) =>
      order
        .map(([name, value], k) => {
          const [q, eq, sp] = styles[k] ?? ['"', "=", " "];
          return `${sp}${name}${eq}${q}${q === '"' ? value.replace(/"/g, "&quot;") : value.replace(/'/g, "&apos;")}${q}`;
        })
        .join(""),
    );
}

const columnArb = fc.oneof(
  { arbitrary: fc.constantFrom("A", "B", "C", "Z", "AA", "b", "XFD", "", "1"), weight: 10 },
  { arbitrary: fc.integer({ min: 0, max: 25 }).map((n) => String.fromCharCode(65 + n)), weight: 10 },
  // past Excel's last column: damage
  { arbitrary: fc.constantFrom("XFE", "ZZZZ"), weight: 1 },
);

interface Names {
  /** The prefix of the main namespace's elements: "" or "x:". */
  p: string;
}

function cellArb(row: number, names: Names): fc.Arbitrary<string> {
  const { p } = names;
  const typeArb = fc.constantFrom(undefined, "s", "s", "str", "inlineStr", "b", "e", "n", "d", "weird");
  return fc
    .record({
      column: fc.option(columnArb, { freq: 4 }),
      type: typeArb,
      style: fc.option(fc.constantFrom("0", "1", "2", "3", "x", ""), { freq: 2 }),
      value: fc.option(fc.oneof(numberArb, textArb, fc.constantFrom("2024-03-01", "2024-03-01T10:00:00Z")), {
        freq: 4,
      }),
      formula: fc.option(textArb, { freq: 6 }),
      inline: fc.option(
        fc.array(
          fc.tuple(fc.constantFrom("t", "r", "rPh"), textArb, fc.boolean()).map(([kind, text, preserve]) => {
            const t = `<${p}t${preserve ? ' xml:space="preserve"' : ""}>${text}</${p}t>`;
            if (kind === "t") return t;
            if (kind === "r") return `<${p}r><${p}rPr><${p}b/></${p}rPr>${t}</${p}r>`;
            return `<${p}rPh sb="0" eb="1">${t}</${p}rPh>`;
          }),
          { maxLength: 3 },
        ),
        { freq: 3 },
      ),
      selfClosing: fc.boolean(),
      extra: fc.option(fc.constantFrom(' cm="1"', ' vm="1"', ` ph="1"`), { freq: 5 }),
    })
    .chain((cell) => {
      const pairs: [string, string][] = [];
      if (cell.column !== null) pairs.push(["r", `${cell.column}${row}`]);
      if (cell.type !== undefined) pairs.push(["t", cell.type]);
      if (cell.style !== null) pairs.push(["s", cell.style]);
      return attributes(pairs).map((attrs) => {
        const open = `<${p}c${attrs}${cell.extra ?? ""}`;
        if (cell.selfClosing) return `${open}/>`;
        let inside = "";
        if (cell.formula !== null) inside += `<${p}f>${cell.formula}</${p}f>`;
        if (cell.value !== null) inside += `<${p}v>${cell.value}</${p}v>`;
        if (cell.inline !== null) inside += `<${p}is>${cell.inline.join("")}</${p}is>`;
        return `${open}>${inside}</${p}c>`;
      });
    });
}

function rowArb(names: Names): fc.Arbitrary<string> {
  const { p } = names;
  return fc
    .record({
      r: fc.option(
        fc.oneof(fc.integer({ min: 1, max: 30 }).map(String), fc.constantFrom("0", "abc", "2.5")),
        {
          freq: 5,
        },
      ),
      spans: fc.boolean(),
      number: fc.integer({ min: 1, max: 30 }),
    })
    .chain(({ r, spans, number }) =>
      fc
        .tuple(fc.array(cellArb(number, names), { maxLength: 5 }), spaceArb, fc.boolean())
        .map(([cells, sp, pretty]) => {
          const attrs = `${r === null ? "" : ` r="${r}"`}${spans ? ' spans="1:5" x14ac:dyDescent="0.25"' : ""}`;
          if (cells.length === 0) return `<${p}row${attrs}/>`;
          const glue = pretty ? sp : "";
          return `<${p}row${attrs}>${glue}${cells.join(glue)}${glue}</${p}row>`;
        }),
    );
}

/**
 * A row as Excel writes most of them: cells one after the other, each `<c r s t><v>…</v></c>`
 * in double quotes — now and then with what takes a cell off that shape (an entity, a byte
 * past ASCII, a bracket, an attribute in single quotes or with an entity, a cell without a
 * value or without its `<v>`, a child of another name).
 */
function excelRowArb(names: Names): fc.Arbitrary<string> {
  const { p } = names;
  const valueArb = fc.oneof(
    { arbitrary: fc.oneof(fc.nat({ max: 6 }).map(String), numberArb), weight: 12 },
    { arbitrary: textArb, weight: 2 },
    { arbitrary: fc.constant(""), weight: 1 },
  );
  const cellArb = fc
    .record({
      column: fc.option(columnArb, { freq: 8 }),
      style: fc.option(fc.constantFrom("0", "1", "2", "3", "x"), { freq: 2 }),
      type: fc.option(fc.constantFrom("s", "s", "str", "b", "e", "n", "d"), { freq: 3 }),
      value: valueArb,
      odd: fc.oneof(
        { arbitrary: fc.constant(""), weight: 12 },
        {
          arbitrary: fc.constantFrom(
            ...[" t='s'", ' t="&#115;"', ' cm="1"', ' r="A1"', "\n", " ", ' x = "1"', "/"],
            ...["f", "v2", "empty", "</v></c >", "</v></cc>", "</v ></c>", "</v </c>"],
          ),
          weight: 1,
        },
      ),
    })
    .map((cell) => (row: number) => {
      let attrs = "";
      if (cell.column !== null) attrs += ` r="${cell.column}${row}"`;
      if (cell.style !== null) attrs += ` s="${cell.style}"`;
      if (cell.type !== null && !cell.odd.startsWith(" t")) attrs += ` t="${cell.type}"`;
      if (cell.odd.startsWith(" ")) attrs += cell.odd;
      if (cell.odd === "\n") attrs = attrs.replace(/ /g, "\n");
      if (cell.odd === "/") return `<${p}c${attrs}/>`;
      if (cell.odd === "empty") return `<${p}c${attrs}></${p}c>`;
      const child = cell.odd === "f" ? "f" : cell.odd === "v2" ? "is" : "v";
      const end = cell.odd.startsWith("</") ? cell.odd.replace(/<\//g, `</${p}`) : `</${p}${child}></${p}c>`;
      return `<${p}c${attrs}><${p}${child}>${cell.value}${end}`;
    });
  return fc
    .tuple(fc.integer({ min: 1, max: 30 }), fc.array(cellArb, { minLength: 1, maxLength: 8 }), fc.boolean())
    .map(
      ([row, cells, spans]) =>
        `<${p}row r="${row}"${spans ? ' spans="1:8"' : ""}>${cells.map((cell) => cell(row)).join("")}</${p}row>`,
    );
}

/** What only a full XML parser judges, or what the reader skips, put between elements: rarely. */
const asideArb = fc.oneof(
  { arbitrary: fc.constant(""), weight: 40 },
  {
    arbitrary: fc.constantFrom(
      "<!-- a comment -->",
      "<![CDATA[1 < 2]]>",
      "<?pi data?>",
      "\r\n",
      "<extLst><ext uri='{x}'><x14:id>1</x14:id></ext></extLst>",
      "<mergeCells count='1'><mergeCell ref='A1:B1'/></mergeCells>",
    ),
    weight: 2,
  },
);

const declarationArb = fc.constantFrom(
  "",
  "",
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n',
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n',
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n',
  "<?xml version='1.0'?>",
  '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\r\n',
  '<?xml version="1.1"?>',
  ' <?xml version="1.0"?>',
);

/** A worksheet part's text. */
export const sheetXmlArb: fc.Arbitrary<string> = fc
  .record({ prefixed: fc.boolean(), declaration: declarationArb })
  .chain(({ prefixed, declaration }) => {
    const names = { p: prefixed ? "x:" : "" };
    const { p } = names;
    const xmlns = prefixed
      ? ` xmlns:x="${MAIN}" xmlns:x14ac="urn:x14ac"`
      : ` xmlns="${MAIN}" xmlns:r="urn:r" xmlns:x14ac="urn:x14ac"`;
    return fc
      .tuple(
        fc.array(fc.tuple(fc.oneof(rowArb(names), excelRowArb(names), excelRowArb(names)), asideArb), {
          maxLength: 8,
        }),
        asideArb,
        fc.constantFrom(
          "",
          `<${p}dimension ref="A1:C3"/>`,
          `<${p}sheetViews><${p}sheetView workbookViewId="0"/></${p}sheetViews>`,
        ),
      )
      .map(
        ([rows, aside, before]) =>
          `${declaration}<${p}worksheet${xmlns}>${before}<${p}sheetData>${rows.map(([row, a]) => row + a).join("")}</${p}sheetData>${aside}</${p}worksheet>`,
      );
  });

/**
 * A worksheet part of rows as Excel writes most of them (see excelRowArb), and nothing else:
 * where a changed byte most often lands in a cell of the usual shape.
 */
export const excelSheetXmlArb: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom("", "x:"), fc.array(fc.nat(), { minLength: 1, maxLength: 6 }))
  .chain(([p, rows]) =>
    fc.tuple(...rows.map(() => excelRowArb({ p }))).map((written) => {
      const xmlns = p === "" ? ` xmlns="${MAIN}"` : ` xmlns:x="${MAIN}"`;
      return `<${p}worksheet${xmlns}><${p}sheetData>${written.join("")}</${p}sheetData></${p}worksheet>`;
    }),
  );

/** A shared strings part's text. */
export const sharedStringsXmlArb: fc.Arbitrary<string> = fc
  .tuple(
    declarationArb,
    fc.array(
      fc.tuple(
        fc.array(
          // a bare <t> most often, as Excel writes most items: the scanner then reads them whole
          fc
            .tuple(fc.constantFrom("bare", "bare", "t", "r", "rPh", "phoneticPr"), textArb)
            .map(([kind, text]) => {
              if (kind === "bare") return `<t>${text}</t>`;
              if (kind === "t") return `<t xml:space="preserve">${text}</t>`;
              if (kind === "r") return `<r><rPr><sz val="11"/><rFont val="Calibri"/></rPr><t>${text}</t></r>`;
              if (kind === "rPh") return `<rPh sb="0" eb="1"><t>${text}</t></rPh>`;
              return '<phoneticPr fontId="1"/>';
            }),
          { maxLength: 3 },
        ),
        asideArb,
      ),
      { maxLength: 8 },
    ),
  )
  .map(
    ([declaration, items]) =>
      `${declaration}<sst xmlns="${MAIN}" count="${items.length}">${items.map(([runs, a]) => `<si>${runs.join("")}</si>${a}`).join("")}</sst>`,
  );

/**
 * A shared strings part as Excel writes most of them: items of one bare `<t>` of plain text,
 * which the scanner reads whole, and now and then one it cannot (an entity, a rich or a
 * phonetic run).
 */
export const excelSharedStringsXmlArb: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      {
        arbitrary: fc
          .array(fc.constantFrom("Ada", "user_7@example.com", "Lovelace", " ", "active", "_x000D_", "0"), {
            maxLength: 4,
          })
          .map((words) => `<si><t>${words.join("")}</t></si>`),
        weight: 8,
      },
      { arbitrary: textArb.map((text) => `<si><t>${text}</t></si>`), weight: 2 },
      {
        arbitrary: textArb.map((text) => `<si><t>a</t><rPh sb="0" eb="1"><t>${text}</t></rPh></si>`),
        weight: 1,
      },
      { arbitrary: textArb.map((text) => `<si><r><t>${text}</t></r></si>`), weight: 1 },
    ),
    { minLength: 1, maxLength: 10 },
  )
  .map(
    (items) =>
      `<sst xmlns="${MAIN}" count="${items.length}" uniqueCount="${items.length}">${items.join("")}</sst>`,
  );

/** One change of a part's bytes: a character or a byte deleted, inserted or replaced. */
export const byteMutationArb = fc.option(
  fc.record({
    at: fc.nat(),
    kind: fc.constantFrom("delete", "insert", "replace"),
    bytes: fc.constantFrom(
      ...["<", ">", "/", "=", '"', "'", "&", ";", "#", "x", "]", " ", "\r", "\u0000", "é", "a", "1"].map(
        (c) => Array.from(new TextEncoder().encode(c)),
      ),
      [0xff],
      [0xc3],
      [0x80],
    ),
  }),
  { freq: 2 },
);

/** `text`'s UTF-8 bytes, after `mutation` when there is one. */
export function partBytes(
  text: string,
  mutation: { at: number; kind: string; bytes: number[] } | null,
): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  if (mutation === null || bytes.length === 0) return bytes;
  const at = mutation.at % bytes.length;
  const before = bytes.subarray(0, at);
  const after = bytes.subarray(mutation.kind === "insert" ? at : at + 1);
  const middle = mutation.kind === "delete" ? [] : mutation.bytes;
  return Uint8Array.from([...before, ...middle, ...after]);
}
