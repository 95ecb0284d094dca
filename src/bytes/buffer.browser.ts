// Buffer and isUtf8 in a browser build: the `buffer` package (Node's Buffer API in plain
// JavaScript) and a strict TextDecoder. TypeScript reads "buffer" as Node's own module, so the
// types agree by declaration; that the package does what the core asks of it, the browser
// bundle's test shows (test/unit/browser.test.ts).

import { Buffer as BufferPackage } from "buffer";
import type { Buffer as NodeBuffer, isUtf8 as nodeIsUtf8 } from "./buffer.js";

export const Buffer: typeof NodeBuffer = BufferPackage;
export type Buffer = NodeBuffer;

const strict = new TextDecoder("utf-8", { fatal: true });

/** Whether `input` is entirely valid UTF-8 (an incomplete last character is not). */
export const isUtf8: typeof nodeIsUtf8 = (input) => {
  try {
    strict.decode(input);
    return true;
  } catch {
    return false;
  }
};
