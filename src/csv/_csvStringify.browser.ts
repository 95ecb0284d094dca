// csv-stringify's stringify in a browser build: the bundle the package ships for browsers (the
// same code, with a Buffer of its own built in).

import { stringify as browserStringify } from "csv-stringify/browser/esm/sync";
import type { stringify as nodeStringify } from "./_csvStringify.js";

export const stringify: typeof nodeStringify = browserStringify;
