// Node's Buffer and isUtf8, imported from here rather than taken as globals: a browser build takes
// buffer.browser.ts in place of this module (the sibling convention), which has neither.

export { Buffer, isUtf8 } from "node:buffer";
