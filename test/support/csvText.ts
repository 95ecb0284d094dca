// CSV files for property tests: valid documents written by the CSV writer, and the same
// bytes with a fragment that breaks naive readers inserted somewhere.

import fc from "fast-check";
import { CsvWriter, pipeDocument } from "../../src/index.js";
import { stream, utf8 } from "./chunks.js";
import { serialize } from "./jsonAst.js";
import { modelAst, validModelArb } from "./validDocument.js";

/** The CSV text of a generated valid document. */
export async function csvOf(model: Parameters<typeof modelAst>[0]): Promise<string> {
  let text = "";
  const writer = new CsvWriter((s) => {
    text += s;
  });
  await pipeDocument(stream([utf8(serialize(modelAst(model)))]), writer, { format: "json" });
  return text;
}

/** Fragments that matter to a CSV reader. */
const FRAGMENT = fc.constantFrom<Uint8Array>(
  utf8('"'),
  utf8('""'),
  utf8(","),
  utf8(";"),
  utf8("\n"),
  utf8("\r\n"),
  utf8("\r"),
  utf8("\n\n"),
  utf8('x"y'),
  utf8("=1+1"),
  utf8("é"),
  new Uint8Array([0xff]),
  new Uint8Array([0xc3]),
  new Uint8Array([0xef, 0xbb, 0xbf]),
  new Uint8Array([0xe2, 0x82]),
);

/** What a generated CSV file is made of. */
export interface CsvSpec {
  model: Parameters<typeof modelAst>[0];
  crlf: boolean;
  insert: [at: number, fragment: Uint8Array] | null;
}

/** A valid document's CSV, sometimes with CRLF line ends, sometimes with a fragment inserted. */
export const csvSpecArb: fc.Arbitrary<CsvSpec> = fc.record({
  model: validModelArb,
  crlf: fc.boolean(),
  insert: fc.option(fc.tuple(fc.nat(), FRAGMENT), { freq: 2 }),
});

/** The bytes of `spec`. */
export async function csvBytes(spec: CsvSpec): Promise<Uint8Array> {
  let text = await csvOf(spec.model);
  if (spec.crlf) text = text.replace(/\n/g, "\r\n");
  const bytes = utf8(text);
  if (!spec.insert) return bytes;
  const [at, fragment] = spec.insert;
  const k = at % (bytes.length + 1);
  const out = new Uint8Array(bytes.length + fragment.length);
  out.set(bytes.subarray(0, k));
  out.set(fragment, k);
  out.set(bytes.subarray(k), k + fragment.length);
  return out;
}
