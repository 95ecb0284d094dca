// csv-parse's Parser, as Node takes it. A browser build takes _csvParse.browser.ts in place of
// this module (the sibling convention): the package's main entry needs Node's stream.

export { Parser } from "csv-parse";
