// A workbook part's XML, parsed as it streams (saxes): element names without their namespace
// prefix, attributes as given, text decoded. What is not well-formed rejects with saxes's words.

import { SaxesParser } from "saxes";

/** What a part's parser is told, in document order. */
export interface XmlHandler {
  open(name: string, attributes: Readonly<Record<string, string>>): void;
  text?(text: string): void;
  close?(name: string): void;
}

const local = (name: string) => {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
};

/**
 * Parses `chunks` (UTF-8 bytes) into `handler`; `onBytes` is told how many bytes each chunk had.
 * Rejects when the XML is not well-formed or not UTF-8.
 */
export async function parseXml(
  chunks: AsyncIterable<Uint8Array>,
  handler: XmlHandler,
  onBytes?: (bytes: number) => void,
): Promise<void> {
  const parser = new SaxesParser({ position: false });
  let failure: Error | null = null;
  parser.on("error", (error) => {
    failure ??= error;
  });
  parser.on("opentag", (node) => handler.open(local(node.name), node.attributes as Record<string, string>));
  const { text, close } = handler;
  if (text) {
    parser.on("text", (t) => text.call(handler, t));
    parser.on("cdata", (t) => text.call(handler, t));
  }
  if (close) parser.on("closetag", (node) => close.call(handler, local(node.name)));
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for await (const chunk of chunks) {
    parser.write(decoder.decode(chunk, { stream: true }));
    if (failure) throw failure;
    onBytes?.(chunk.length);
  }
  parser.write(decoder.decode());
  parser.close();
  if (failure) throw failure;
}
