// syncfile in a browser: what a page (or its Web Worker) needs to validate and convert a File
// with the same code as the CLI: JSON and CSV pushed through Validation and Conversion, a
// workbook (.xlsx) read from the File itself, by position as a ZIP is, by validateWorkbook and
// convertWorkbook. Re-exports only. A browser build resolves each module X.ts that has a sibling
// X.browser.ts to the sibling (the platform seams: spills in memory, the `buffer` package, the
// browser bundles of csv-parse and csv-stringify, the ZIP reader); nothing on this path imports a
// Node module, which test/unit/browser.test.ts holds by bundling it for the browser.

export type { BytesOut } from "./bytes/TextOut.js";
export { Conversion } from "./convert/Conversion.js";
export { convertWorkbook } from "./convert/convertWorkbook.js";
export type { ConvertOptions } from "./convert/options.js";
export {
  CHANGE_KINDS,
  type Change,
  type ChangeCounts,
  defaultMaxDeletes,
  takesAway,
} from "./diff/Change.js";
export type { DiffResult } from "./diff/compare.js";
export { countLines, describeChange, totalOf } from "./diff/counts.js";
export { type DiffBlob, diffBlobs } from "./diff/diffBlobs.js";
export type { InputFormat, ValidateOptions } from "./pass/options.js";
export { type CatalogEntry, type Code, catalog, isCode } from "./report/catalog.js";
export { excerptFrom, excerptWindow } from "./report/excerptFrom.js";
export type { Finding, Severity, SourceLocation } from "./report/Finding.js";
export { formatHtml, type HtmlFormatOptions } from "./report/formatHtml.js";
export { formatJson } from "./report/formatJson.js";
export { type Excerpt, formatBytes, formatText, type TextFormatOptions } from "./report/formatText.js";
export type { Report, ReportOutput, ReportStats } from "./report/Report.js";
export { Validation } from "./validate/Validation.js";
export { validateWorkbook } from "./validate/validateWorkbook.js";
