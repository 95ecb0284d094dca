// ajv-formats' plugin, for the places that compile a schema at run time (the server's seed) and
// the tests. The data file's validators are compiled ahead of time and do not load it.

import addFormatsPlugin from "ajv-formats";

/** ajv-formats' plugin (CommonJS: its default export arrives as the module object or the function). */
export const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ??
  addFormatsPlugin) as typeof addFormatsPlugin.default;
