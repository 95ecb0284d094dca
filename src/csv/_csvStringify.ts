// csv-stringify's stringify, as Node takes it. A browser build takes _csvStringify.browser.ts in
// place of this module (the sibling convention): the package's main entry uses the global Buffer.

export { stringify } from "csv-stringify/sync";
