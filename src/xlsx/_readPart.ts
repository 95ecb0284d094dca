// A large part of a workbook (a sheet, the shared strings) read by the scanner, and where the
// scanner leaves it, by saxes from the start: the scanner knows only what spreadsheet writers
// write, saxes all of XML and how to word what is wrong with it.

import { type ScanHandler, scanXml } from "./_scanXml.js";
import { parseXml, type XmlHandler } from "./_xml.js";

/** Which of the two read a part. */
export type PartReader = "scanned" | "parsed";

/**
 * Reads the part `open` gives (afresh each time it is called) into the handler `handler` makes
 * for the reader's try; `onBytes` hears of each byte of the part once. Resolves to the handler
 * that read the part to its end, and which reader it was; rejects with saxes's error.
 */
export async function readPart<H extends ScanHandler & XmlHandler>(
  open: () => Promise<AsyncIterable<Uint8Array>>,
  handler: (reader: PartReader) => H,
  onBytes?: (bytes: number) => void,
): Promise<{ handler: H; reader: PartReader }> {
  let told = 0;
  const scanning = handler("scanned");
  const scanned = await scanXml(await open(), scanning, (n) => {
    told += n;
    onBytes?.(n);
  });
  if (scanned) return { handler: scanning, reader: "scanned" };
  const parsing = handler("parsed");
  let read = 0;
  await parseXml(await open(), parsing, (n) => {
    read += n;
    if (read <= told) return;
    onBytes?.(read - told);
    told = read;
  });
  return { handler: parsing, reader: "parsed" };
}
