// Documents as syntax trees, so that generated JSON can have duplicate keys, any key order,
// raw number spellings and any whitespace; with fast-check arbitraries for data files.

import fc from "fast-check";

/**
 * A JSON value as written: objects keep their entries (duplicates allowed), numbers their
 * spelling. `mark` asks `serialize` to report where the node (or, for an entry, its key) lands.
 */
export type Ast = ({ obj: Entry[] } | { arr: Ast[] } | { raw: string }) & { mark?: boolean };
export type Entry = [key: string, value: Ast, markKey?: boolean | undefined];

export const obj = (entries: Entry[]): Ast => ({ obj: entries });
export const arr = (items: Ast[]): Ast => ({ arr: items });
export const str = (s: string): Ast => ({ raw: JSON.stringify(s) });
export const num = (n: number | string): Ast => ({ raw: String(n) });

/** Serialises `ast`, putting `spaces[k % spaces.length]` in the k-th gap between tokens. */
export function serialize(ast: Ast, spaces: readonly string[] = [""]): string {
  return serializeMarked(ast, spaces).text;
}

/** Like `serialize`, and the index in the text of the marked node or key (-1 when none). */
export function serializeMarked(
  ast: Ast,
  spaces: readonly string[] = [""],
): { text: string; marked: number } {
  let k = 0;
  let length = 0;
  let marked = -1;
  const gap = () => spaces[k++ % spaces.length] ?? "";
  const out: string[] = [];
  const push = (...parts: string[]) => {
    for (const part of parts) {
      out.push(part);
      length += part.length;
    }
  };
  const walk = (node: Ast): void => {
    if (node.mark) marked = length;
    if ("raw" in node) push(node.raw);
    else if ("arr" in node) {
      push("[", gap());
      node.arr.forEach((item, i) => {
        if (i > 0) push(gap(), ",", gap());
        walk(item);
      });
      push(gap(), "]");
    } else {
      push("{", gap());
      node.obj.forEach(([key, value, markKey], i) => {
        if (i > 0) push(gap(), ",", gap());
        if (markKey) marked = length;
        push(JSON.stringify(key), gap(), ":", gap());
        walk(value);
      });
      push(gap(), "}");
    }
  };
  push(gap());
  walk(ast);
  push(gap());
  return { text: out.join(""), marked };
}

/** Whitespace between tokens, including none, CRLF and tabs. */
export const spacesArb = fc.array(fc.constantFrom("", " ", "\n", "  ", "\r\n", "\t", "\n    "), {
  minLength: 1,
  maxLength: 8,
});

/** Strings that stress the scanner: quotes, backslashes, escapes, non-ASCII, astral, brackets. */
export const textArb = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
  fc.constantFrom(
    "ada@example.com",
    "Ada@Example.COM",
    'quote"inside',
    "back\\slash",
    "line\nbreak",
    "tab\tand\u0001control",
    "é@ü.example",
    "😀 emoji",
    '{not [a] "structure"}',
    "ends with backslash\\",
    "",
  ),
);

const anyJson: fc.Arbitrary<Ast> = fc.letrec<{ value: Ast }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    textArb.map(str),
    fc
      .oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
      .map((n) => num(JSON.stringify(n))),
    fc.constantFrom("true", "false", "null", "1.50e3", "-0", "123456789012345678901", "0.1").map(num),
    fc.array(tie("value"), { maxLength: 3 }).map(arr),
    fc.array(fc.tuple(fc.string({ maxLength: 6 }), tie("value")), { maxLength: 3 }).map(obj),
  ),
})).value;

const entries = (known: Record<string, fc.Arbitrary<Ast>>): fc.Arbitrary<Entry[]> =>
  fc
    .tuple(
      fc.subarray(Object.keys(known)),
      fc.array(fc.tuple(fc.constantFrom("__proto__", "extra", "Email", "x"), anyJson), { maxLength: 2 }),
    )
    .chain(([keys, extra]) =>
      fc
        .tuple(...keys.map((key) => (known[key] as fc.Arbitrary<Ast>).map((v): Entry => [key, v])))
        .chain((pairs) =>
          fc.shuffledSubarray([...pairs, ...extra], { minLength: pairs.length + extra.length }),
        ),
    );

const userArb: fc.Arbitrary<Ast> = fc.oneof(
  {
    weight: 5,
    arbitrary: entries({
      email: textArb.map(str),
      id: fc.oneof(textArb.map(str), fc.constantFrom("42", "123456789012345678901", "1.50e3").map(num)),
      firstName: textArb.map(str),
      status: fc.constantFrom("active", "deleted", "Active").map(str),
      roles: fc.array(textArb.map(str), { maxLength: 3 }).map(arr),
      lastUsedDate: fc.constantFrom("2024-02-29", "2024-02-30", "", "2024-07-05T20:43:14Z").map(str),
    }).map(obj),
  },
  { weight: 1, arbitrary: anyJson },
);

const licenseUserArb: fc.Arbitrary<Ast> = fc.oneof(
  {
    weight: 5,
    arbitrary: entries({
      email: textArb.map(str),
      licenseStatus: fc.constantFrom("active", "inactive", "gone").map(str),
    }).map(obj),
  },
  { weight: 1, arbitrary: anyJson },
);

const licenseArb: fc.Arbitrary<Ast> = fc.oneof(
  {
    weight: 5,
    arbitrary: entries({
      name: textArb.map(str),
      pricePerUser: fc.oneof(fc.nat().map(num), fc.constantFrom("12.5", "-1", "1e2").map(num)),
      unassignedAmount: fc.nat(99).map(num),
      users: fc.oneof(fc.array(licenseUserArb, { maxLength: 4 }).map(arr), anyJson),
    }).map(obj),
  },
  { weight: 1, arbitrary: anyJson },
);

/** Any document of about the right shape, valid or not. */
export const documentArb: fc.Arbitrary<Ast> = entries({
  users: fc.oneof(
    { weight: 6, arbitrary: fc.array(userArb, { maxLength: 5 }).map(arr) },
    { weight: 1, arbitrary: anyJson },
  ),
  licenses: fc.oneof(
    { weight: 6, arbitrary: fc.array(licenseArb, { maxLength: 3 }).map(arr) },
    { weight: 1, arbitrary: anyJson },
  ),
}).map(obj);

/** One character-level edit: delete, insert or replace at a position (taken modulo the length). */
export const mutationArb = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom("delete", "insert", "replace"),
  char: fc.constantFrom("{", "}", "[", "]", ",", ":", '"', "\\", " ", "a", "1", "-", "t", "\n"),
});

export function mutate(text: string, m: { at: number; kind: string; char: string }): string {
  if (text.length === 0) return m.char;
  const at = m.at % text.length;
  if (m.kind === "delete") return text.slice(0, at) + text.slice(at + 1);
  if (m.kind === "insert") return text.slice(0, at) + m.char + text.slice(at);
  return text.slice(0, at) + m.char + text.slice(at + 1);
}

/** The bytes of a generated document, serialised with `spaces`, after one mutation when given. */
export function documentBytes(
  ast: Ast,
  spaces: readonly string[],
  m: { at: number; kind: string; char: string } | null,
): Uint8Array {
  const text = serialize(ast, spaces);
  return new TextEncoder().encode(m ? mutate(text, m) : text);
}
