// A workbook part's XML, parsed as it streams (saxes): element names without their namespace
// prefix, attributes as given, text decoded. What is not well-formed rejects with saxes's words.
// Memory stays bounded whatever a part holds: saxes keeps a text node until the node ends, so a
// text node is handed on in pieces as it grows, and markup that grows without end (an attribute,
// a name, a comment) rejects; a handler that has seen enough ends the parse, and what comes
// after that point is not judged as XML, even in the chunk being read (a chunk that is not
// UTF-8 still fails as a whole).

import { SaxesParser } from "saxes";

/** What a part's parser is told, in document order. */
export interface XmlHandler {
  open(name: string, attributes: Readonly<Record<string, string>>): void;
  /** Character data: a text node or CDATA section may come in several pieces. */
  text?(text: string): void;
  close?(name: string): void;
  /** True once the handler needs nothing more: the parse ends at the chunk being read. */
  readonly done?: boolean;
}

/** How many characters of a text node saxes may keep before they are handed on. */
export const TEXT_PIECE = 64 * 1024;
/** The longest name, attribute value, comment or declaration read; past it the part is refused. */
export const MAX_MARKUP = 1 << 20;
/** The most attributes an element may have: Excel's have a dozen. */
export const MAX_ATTRIBUTES = 10_000;

// saxes's states (saxes.js, 6.0.0) in which what it keeps in `text` is character data
const S_TEXT = 13;
const S_ENTITY = 14;
const S_CDATA = 20;
const S_CDATA_ENDING_2 = 22;

/** What saxes keeps between chunks: fields its types call private, read here to bound them. */
interface SaxesKept {
  state: number;
  entityReturnState?: number;
  text: string;
  name: string;
  entity: string;
  attribList: unknown[];
}

const local = (name: string) => {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
};

/**
 * Parses `chunks` (UTF-8 bytes) into `handler`; `onBytes` is told how many bytes each chunk had.
 * Rejects when the XML is not well-formed or not UTF-8, or when its markup grows past MAX_MARKUP.
 */
export async function parseXml(
  chunks: AsyncIterable<Uint8Array>,
  handler: XmlHandler,
  onBytes?: (bytes: number) => void,
): Promise<void> {
  const parser = new SaxesParser({ position: false });
  const kept = parser as unknown as SaxesKept;
  if (typeof kept.text !== "string" || typeof kept.state !== "number") {
    throw new Error("saxes no longer keeps its pending text in `text` and `state`");
  }
  let failure: Error | null = null;
  parser.on("error", (error) => {
    // the parse ends where the handler has enough: what follows it in the chunk is not judged
    if (!handler.done) failure ??= error;
  });
  parser.on("opentag", (node) => handler.open(local(node.name), node.attributes as Record<string, string>));
  const text = handler.text?.bind(handler);
  if (text) {
    parser.on("text", text);
    parser.on("cdata", text);
  }
  const { close } = handler;
  if (close) parser.on("closetag", (node) => close.call(handler, local(node.name)));
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for await (const chunk of chunks) {
    parser.write(decoder.decode(chunk, { stream: true }));
    if (failure) throw failure;
    onBytes?.(chunk.length);
    if (handler.done) return;
    if (kept.text.length > TEXT_PIECE) handOn(kept, text);
    if (handler.done) return;
    if (
      kept.text.length > MAX_MARKUP ||
      kept.name.length > MAX_MARKUP ||
      kept.entity.length > MAX_MARKUP ||
      kept.attribList.length > MAX_ATTRIBUTES
    ) {
      throw new Error(
        `an XML name, attribute, comment or declaration is longer than ${MAX_MARKUP} characters`,
      );
    }
  }
  parser.write(decoder.decode());
  parser.close();
  if (failure) throw failure;
}

/** The character data saxes keeps of the text node it is in, handed on (or dropped when unheard). */
function handOn(kept: SaxesKept, text: ((text: string) => void) | undefined): void {
  const { state } = kept;
  const inText =
    state === S_TEXT ||
    (state === S_ENTITY && kept.entityReturnState === S_TEXT) ||
    (state >= S_CDATA && state <= S_CDATA_ENDING_2);
  if (!inText) return;
  const pending = kept.text;
  kept.text = "";
  text?.(pending);
}
