// syncfile: the library. Re-exports only.

export type { BytesOut, TextOut } from "./bytes/TextOut.js";
export type { Check, CheckContext, FindingSpec } from "./checks/Check.js";
export { defaultChecks } from "./checks/defaultChecks.js";
export { Conversion } from "./convert/Conversion.js";
export { convertFile, convertStream, normalize, pipeDocument } from "./convert/convert.js";
export { convertWorkbook } from "./convert/convertWorkbook.js";
export type { ConvertOptions, PipeOptions } from "./convert/options.js";
export { CanonicalRows, CsvWriter, type CsvWriterOptions } from "./csv/CsvWriter.js";
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
export { JsonWriter } from "./json/JsonWriter.js";
export { mappingProblems } from "./mapping/checkMapping.js";
export type { MappingDocument } from "./mapping/MappingDocument.js";
export { detectProfile, PROFILES, profileNamed } from "./mapping/profiles.js";
export { type MappingDocumentProblem, MappingError, readMapping } from "./mapping/readMapping.js";
export type {
  DataRecord,
  LicenseRecord,
  LicenseUserRecord,
  Place,
  RecordBase,
  UserRecord,
  ValuePath,
} from "./model/DataRecord.js";
export type { DocumentValues, DocumentWriter } from "./model/DocumentWriter.js";
export { deriveLicenseStatus, type LicenseStatus } from "./model/deriveLicenseStatus.js";
export { currencyOf, type MoneyOptions, PriceConverter, type RateTable } from "./model/money.js";
export {
  isNormalizedLicenseUser,
  type NormalizedLicense,
  type NormalizedLicenseUser,
  type NormalizedUser,
  type NormalizedValues,
  type NotAnObject,
  normalizeLicense,
  normalizeLicenseUser,
  normalizeUser,
} from "./model/normalize.js";
export type { InputFormat, ValidateOptions } from "./pass/options.js";
export { type CatalogEntry, type Code, catalog, isCode } from "./report/catalog.js";
export { excerptFrom, excerptWindow } from "./report/excerptFrom.js";
export type { Finding, Severity, SourceLocation } from "./report/Finding.js";
export { formatGithub } from "./report/formatGithub.js";
export { formatHtml, type HtmlFormatOptions } from "./report/formatHtml.js";
export { formatJson } from "./report/formatJson.js";
export { formatSarif, SARIF_SCHEMA } from "./report/formatSarif.js";
export { type Excerpt, formatBytes, formatText, type TextFormatOptions } from "./report/formatText.js";
export type { Report, ReportMapping, ReportOutput, ReportStats } from "./report/Report.js";
export { readExcerpts } from "./report/readExcerpts.js";
export { knownProperties, schemas } from "./schema/schemas.js";
export { type RecordEvent, type RecordSource, readRecords } from "./validate/readRecords.js";
export { Validation } from "./validate/Validation.js";
export {
  type ByteSource,
  validateFile,
  validateStream,
  validateText,
  validateWebStream,
} from "./validate/validate.js";
export { validateWorkbook } from "./validate/validateWorkbook.js";
export { type ByteOut, XlsxWriter } from "./xlsx/XlsxWriter.js";
