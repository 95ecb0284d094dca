// csv-parse's Parser in a browser build: the bundle the package ships for browsers (the same
// code, with what it needs of Node's stream and Buffer built in).

import { Parser as BrowserParser } from "csv-parse/browser/esm";
import type { Parser as NodeParser } from "./_csvParse.js";

export const Parser: typeof NodeParser = BrowserParser;
