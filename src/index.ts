// syncfile: the library. Re-exports only: everything of the browser entry (browser.ts, which a
// browser build takes instead of this module), and what only Node runs or only Node needs.

export * from "./browser.js";
export type { TextOut } from "./bytes/TextOut.js";
export type { Check, CheckContext, FindingSpec } from "./checks/Check.js";
export { defaultChecks } from "./checks/defaultChecks.js";
export { convertFile, convertStream, normalize, pipeDocument } from "./convert/convert.js";
export type { PipeOptions } from "./convert/options.js";
export { CanonicalRows, CsvWriter, type CsvWriterOptions } from "./csv/CsvWriter.js";
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
export { formatGithub } from "./report/formatGithub.js";
export { formatSarif, SARIF_SCHEMA } from "./report/formatSarif.js";
export type { ReportMapping } from "./report/Report.js";
export { readExcerpts } from "./report/readExcerpts.js";
export { knownProperties, schemas } from "./schema/schemas.js";
export { type RecordEvent, type RecordSource, readRecords } from "./validate/readRecords.js";
export {
  type ByteSource,
  validateFile,
  validateStream,
  validateText,
  validateWebStream,
} from "./validate/validate.js";
export { type ByteOut, XlsxWriter } from "./xlsx/XlsxWriter.js";
