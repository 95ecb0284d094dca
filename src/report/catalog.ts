// Every finding code syncfile can emit: title, severity, message template and fix hint.
// Messages are rendered from these templates; a test proves code and catalog agree.

import { CANONICAL_COLUMNS } from "../schema/csvColumns.js";
import type { Severity } from "./Finding.js";

/** One entry of the catalog. Templates use `{name}` placeholders filled from a finding's params. */
export interface CatalogEntry {
  readonly title: string;
  readonly severity: Severity;
  readonly message: string;
  readonly hint: string;
}

const e = (title: string, severity: Severity, message: string, hint: string): CatalogEntry => ({
  title,
  severity,
  message,
  hint,
});

const DATE_HINT = "write dates as YYYY-MM-DD, e.g. 2024-02-29";
const EMAIL_HINT = "an email looks like name@example.com";
const CENTS_HINT = "prices are whole cents: 12.50 USD is 1250";
// a header row to show: the columns of a user holding a license
const CSV_HEADER_EXAMPLE = "email,firstName,lastName,status,licenseName";

/** The hint of csv.header.missing when the first row holds an email address: it is data, not a header. */
export const CSV_DATA_FIRST_HINT = `the first row looks like data: add a header row, e.g. ${CSV_HEADER_EXAMPLE}`;

/** The catalog: every code, keyed by code. */
export const catalog = {
  // ── malformed JSON ────────────────────────────────────────────────────────
  "json.empty": e(
    "Empty file",
    "error",
    "the file is empty",
    'a data file is a JSON object such as {"users": [{"email": "ada@example.com"}]}',
  ),
  "json.encoding": e(
    "Not UTF-8",
    "error",
    "{detail}",
    "save the file as UTF-8; from Latin-1 or Windows-1252: iconv -f windows-1252 -t utf-8 in.json > out.json",
  ),
  "file.type": e("Not a data file", "error", "the file is {what}", "save the data as JSON or as CSV UTF-8"),
  "json.syntax": e("Invalid JSON", "error", "{detail}", "fix the JSON syntax at this position"),
  "json.depth": e(
    "Nesting too deep",
    "error",
    "the document nests deeper than {limit} levels",
    "a data file needs 5 levels (document, licenses, license, users, user); look for runaway brackets",
  ),
  "json.trailing": e(
    "Content after the document",
    "error",
    "unexpected {found} after the end of the document",
    "a data file holds exactly one JSON object; remove what follows it",
  ),
  "json.key.duplicate": e(
    "Duplicate key",
    "warning",
    "property {key} appears more than once in this object; the last one is used",
    "remove the duplicate property",
  ),
  "json.record.size": e(
    "Record too large",
    "error",
    "this {kind} is larger than the limit of {limit} bytes for one record",
    "a single user or license should be a few hundred bytes; check for a runaway value",
  ),

  // ── malformed CSV ─────────────────────────────────────────────────────────
  "csv.empty": e(
    "Empty file",
    "error",
    "the file is empty: it has no header row",
    `a CSV data file starts with a header row: ${CSV_HEADER_EXAMPLE}`,
  ),
  "csv.encoding": e(
    "Not UTF-8",
    "error",
    "{detail}",
    "save the file as UTF-8 (in a spreadsheet: CSV UTF-8); from Windows-1252: iconv -f windows-1252 -t utf-8 in.csv > out.csv",
  ),
  "csv.quote": e("Broken quotes", "error", "{detail}", "check the quotes of this row"),
  "csv.record.size": e(
    "Row too large",
    "error",
    "this row is larger than the limit of {limit} bytes",
    "a row should be a few hundred bytes; an unclosed quote swallows the rest of the file",
  ),
  "csv.header.missing": e(
    "No email column",
    "error",
    "the header row has no email column",
    "name the column of email addresses email; the first row of the file must be the header",
  ),
  "csv.header.unknown": e(
    "Unknown column",
    "warning",
    "unknown column {name} is ignored",
    `the columns are ${CANONICAL_COLUMNS.join(", ")}`,
  ),
  "csv.header.duplicate": e(
    "Column twice",
    "error",
    "column {name} means the same as column {other}; it is ignored",
    "keep one of the two columns",
  ),
  "csv.header.name": e(
    "Name beside first and last name",
    "warning",
    "column {name} is not split into first and last name: the file has {other}",
    "remove the column {name}, or the first and last name columns to split {name} at its first space",
  ),
  "csv.ragged": e(
    "Wrong number of cells",
    "error",
    "this row has {count} cells but the header has {expected}; the row is skipped",
    "every row needs a cell for each header column, empty or not",
  ),
  "csv.row.short": e(
    "Short rows",
    "warning",
    "{rows} had fewer cells than the header's {expected}, starting with this one ({count}); their missing cells were read as empty",
    "exports leave off a row's trailing empty cells; look at the row if a cell is missing before its end",
  ),
  "csv.row.incomplete": e(
    "Row without subject",
    "error",
    "this row has neither an email nor a license name",
    "a row describes a user (email), a license (licenseName), or a user holding a license (both)",
  ),
  "csv.row.license": e(
    "License value without license",
    "error",
    "{field} is set but the row names no license",
    "add the license name in licenseName, or leave {field} empty",
  ),
  "csv.row.user": e(
    "User without email",
    "error",
    "{field} is set but the row has no email",
    "{field} belongs to a user, and a user is known by its email: add the email (an export may leave it empty; look it up), or leave {field} empty",
  ),
  "csv.roles.format": e(
    "Unreadable roles",
    "error",
    "roles {value} starts with [ but is not a JSON array of strings",
    'write roles as Admin;Editor or Admin, Editor, or as ["Admin", "Editor; Billing"] when a role holds a , or ;',
  ),
  "csv.user.conflict": e(
    "Rows disagree on a user",
    "error",
    "{field} is {value} here but {other} in row {firstRow} (line {firstLine}), where this user first appears",
    "the user columns repeat on every row of a user and must agree; leave them empty on later rows or make them equal",
  ),
  "csv.license.conflict": e(
    "Rows disagree on a license",
    "error",
    "{field} is {value} here but {other} in row {firstRow} (line {firstLine}), where this license first appears",
    "the license columns repeat on every row of a license and must agree; leave them empty on later rows or make them equal",
  ),

  // ── exports read through a mapping (a built-in profile, or --mapping) ─────
  "mapping.header": e(
    "No header the mapping fits",
    "error",
    "no header in {where} has {columns}, the email column of the mapping {mapping}",
    "check that the file is the export the mapping is for; a mapping of yours can say which row holds the header (headerRow) and name the email column as the header does",
  ),
  "mapping.column": e(
    "A column the mapping reads is missing",
    "warning",
    "the header has no column {columns}, which the mapping reads for {field}",
    "check that the file is the export the mapping is for, or take the column out of the mapping",
  ),
  "mapping.status.none": e(
    "No status column",
    "warning",
    "the mapping {mapping} reads no status from this file: every user will be active",
    "export the users' status too, or map the column that holds it to status in a mapping of your own",
  ),
  "mapping.value": e(
    "A value the mapping does not know",
    "error",
    "{value} is not a value the mapping knows here; it knows {known}",
    "correct the cell, or add the value to the mapping's status values (a mapping of your own: syncfile mapping suggest FILE)",
  ),
  "mapping.name": e(
    "A name that cannot be split",
    "warning",
    "the name {value} is not written as {order}: it is kept whole as the first name",
    'correct the cell, or say how the column writes names in the mapping\'s fullName: {"column": "Name", "order": "last, first"}',
  ),
  "mapping.date": e(
    "A date in no form the mapping reads",
    "error",
    "{value} is not a date in the form {forms}",
    "correct the cell, or add its form (or, for a text that means no date, the text) to the mapping's lastUsedDate",
  ),

  // ── Excel workbooks ───────────────────────────────────────────────────────
  "xlsx.corrupt": e(
    "Damaged workbook",
    "error",
    "the workbook cannot be read: {detail}",
    "open it in Excel or LibreOffice and save it again as .xlsx, or save the sheet as CSV UTF-8",
  ),
  "xlsx.sheet.missing": e(
    "No such sheet",
    "error",
    "the workbook has {detail}",
    "name the sheet to read with --sheet",
  ),
  "xlsx.formula.value": e(
    "Formula without a result",
    "error",
    "this cell holds the formula {formula} but no saved result; it is read as empty",
    "open the workbook in Excel or LibreOffice and save it (that stores each formula's result), or paste the column as values",
  ),
  "xlsx.cell.error": e(
    "Error value in a cell",
    "error",
    "this cell holds the error {value}; it is read as empty",
    "fix the formula or the value that gives the error, or clear the cell",
  ),
  "xlsx.cell.size": e(
    "Cell too large",
    "error",
    "this cell is larger than the limit of {limit} bytes",
    "a cell should be a few hundred bytes; check for a runaway value pasted into it",
  ),
  "xlsx.row.size": e(
    "Row too large",
    "error",
    "this row is larger than the limit of {limit} bytes",
    "a row should be a few hundred bytes; check its cells for runaway values",
  ),
  "xlsx.string.index": e(
    "Missing shared string",
    "error",
    "this cell refers to shared string {index}, which the workbook does not have; it is read as empty",
    "the workbook is damaged: open it in Excel or LibreOffice and save it again, or type the cell again",
  ),
  "xlsx.cell.unheaded": e(
    "Value outside the columns",
    "warning",
    "column {column} has no header, so this value is ignored",
    "give the column a header the data file knows, or clear the cell",
  ),

  // ── the document ──────────────────────────────────────────────────────────
  "document.type": e(
    "Not an object",
    "error",
    "the document is {actual}, not an object",
    'wrap the data in an object: {"users": [...], "licenses": [...]}',
  ),
  "document.users.required": e(
    "No users",
    "error",
    "the document has no users property",
    'add "users": [...] with at least one user',
  ),
  "document.users.type": e(
    "users not an array",
    "error",
    "users is {actual}, not an array",
    'write "users": [...]',
  ),
  "document.users.empty": e(
    "No users",
    "error",
    "users is empty",
    "the service needs at least one valid user in every file",
  ),
  "document.users.noneValid": e(
    "No valid user",
    "error",
    "the document has no valid user ({count} with errors)",
    "fix the errors reported for the users: at least one user must be valid",
  ),
  "document.licenses.type": e(
    "licenses not an array",
    "error",
    "licenses is {actual}, not an array",
    'write "licenses": [...] or leave it out',
  ),
  "document.property.unknown": e(
    "Unknown property",
    "warning",
    "unknown top-level property {key} is ignored by the service",
    "the document holds users and licenses only",
  ),

  // ── users ─────────────────────────────────────────────────────────────────
  "user.type": e(
    "User not an object",
    "error",
    "a user is {actual}, not an object",
    'write each user as {"email": ...}',
  ),
  "user.email.required": e("Missing email", "error", "the user has no email", "every user needs an email"),
  "user.email.type": e("Email not a string", "error", "email is {actual}, not a string", EMAIL_HINT),
  "user.email.format": e("Invalid email", "error", "email {value} is not a valid email address", EMAIL_HINT),
  "user.email.duplicate": e(
    "Duplicate email",
    "error",
    "email {value} is already used by the user at {first}",
    "each user appears once; emails are compared case-insensitively",
  ),
  "user.id.type": e(
    "id not a string",
    "error",
    "id is {actual}, not a string",
    'write the id as a string: "15893"',
  ),
  "user.id.number": e(
    "Numeric id",
    "warning",
    "id {value} is a number; ids are strings",
    "quote the id; syncfile keeps every digit, but other tools may round long numbers",
  ),
  "user.firstName.type": e(
    "firstName not a string",
    "error",
    "firstName is {actual}, not a string",
    "write a string or leave it out",
  ),
  "user.lastName.type": e(
    "lastName not a string",
    "error",
    "lastName is {actual}, not a string",
    "write a string or leave it out",
  ),
  "user.externalStatus.type": e(
    "externalStatus not a string",
    "error",
    "externalStatus is {actual}, not a string",
    'externalStatus is free text as the application shows it, e.g. "Suspended"',
  ),
  "user.status.enum": e(
    "Invalid status",
    "error",
    "status {value} is not one of active, deleted",
    "use active or deleted, in lower case; put the application's own wording in externalStatus",
  ),
  "user.roles.type": e(
    "roles not an array",
    "error",
    "roles is {actual}, not an array of strings",
    'write roles as ["Admin", "Editor"]',
  ),
  "user.roles.item": e(
    "Role not a string",
    "error",
    "a role is {actual}, not a string",
    'write roles as ["Admin", "Editor"]',
  ),
  "user.lastUsedDate.type": e(
    "lastUsedDate not a string",
    "error",
    "lastUsedDate is {actual}, not a string",
    DATE_HINT,
  ),
  "user.lastUsedDate.format": e(
    "Invalid date",
    "error",
    "lastUsedDate {value} is not a real calendar date in YYYY-MM-DD form",
    DATE_HINT,
  ),
  "user.lastUsedDate.datetime": e(
    "Date-time instead of date",
    "warning",
    "lastUsedDate {value} is a date-time; only the date {date} is kept",
    DATE_HINT,
  ),
  "user.lastUsedDate.empty": e(
    "Empty date",
    "warning",
    "lastUsedDate is an empty string and is treated as absent",
    "leave lastUsedDate out when it is not known",
  ),
  "user.lastUsedDate.range": e(
    "Year out of range",
    "error",
    "lastUsedDate {value} is in year 0000; the service stores dates of the years 0001 to 9999",
    "year 0000 is no year of the calendar: write the real date, or leave lastUsedDate out",
  ),
  "user.text.nul": e(
    "NUL character",
    "error",
    "{field} holds a NUL character (U+0000) at character {at}, which the service cannot store",
    "remove it: a NUL in text is usually left by a binary export or a file saved as UTF-16",
  ),
  "user.text.surrogate": e(
    "Lone surrogate",
    "error",
    "{field} holds a lone surrogate ({escape}) at character {at}: half of a character, which the service cannot store",
    "write the character itself, or both halves of its escape (\\ud83d\\ude00 for 😀)",
  ),
  "user.property.unknown": e(
    "Unknown property",
    "warning",
    "unknown property {key} is ignored by the service",
    "a user has id, email, firstName, lastName, status, externalStatus, roles and lastUsedDate",
  ),

  // ── licenses ──────────────────────────────────────────────────────────────
  "license.type": e(
    "License not an object",
    "error",
    "a license is {actual}, not an object",
    'write each license as {"name": ...}',
  ),
  "license.name.required": e(
    "Missing name",
    "error",
    "the license has no name",
    "every license needs a name",
  ),
  "license.name.type": e(
    "name not a string",
    "error",
    "name is {actual}, not a string",
    "write the license name as a string",
  ),
  "license.name.empty": e("Empty name", "error", "the license name is empty", "every license needs a name"),
  "license.name.duplicate": e(
    "Duplicate license",
    "error",
    "license {value} is already defined at {first}",
    "list each license once and put all its users in that entry",
  ),
  "license.pricePerUser.type": e(
    "Price not a number",
    "error",
    "pricePerUser is {actual}, not a number of cents",
    CENTS_HINT,
  ),
  "license.pricePerUser.fraction": e(
    "Fractional cents",
    "error",
    "pricePerUser {value} is not a whole number of cents",
    CENTS_HINT,
  ),
  "license.pricePerUser.negative": e(
    "Negative price",
    "error",
    "pricePerUser {value} is negative",
    "a price is 0 or more cents",
  ),
  "license.pricePerUser.range": e(
    "Price too large",
    "error",
    "pricePerUser {value} is too large to be exact",
    CENTS_HINT,
  ),
  "license.unassignedAmount.type": e(
    "unassignedAmount not a number",
    "error",
    "unassignedAmount is {actual}, not a number",
    "unassignedAmount counts licenses that no user holds, e.g. 5",
  ),
  "license.unassignedAmount.fraction": e(
    "Fractional amount",
    "error",
    "unassignedAmount {value} is not a whole number",
    "unassignedAmount counts licenses, e.g. 5",
  ),
  "license.unassignedAmount.negative": e(
    "Negative amount",
    "error",
    "unassignedAmount {value} is negative",
    "unassignedAmount is 0 or more",
  ),
  "license.unassignedAmount.range": e(
    "Amount too large",
    "error",
    "unassignedAmount {value} is too large to be exact",
    "unassignedAmount counts licenses, e.g. 5",
  ),
  "license.users.type": e(
    "License users not an array",
    "error",
    "users of the license is {actual}, not an array",
    'write the license users as [{"email": ...}]',
  ),
  "license.text.nul": e(
    "NUL character",
    "error",
    "{field} holds a NUL character (U+0000) at character {at}, which the service cannot store",
    "remove it: a NUL in text is usually left by a binary export or a file saved as UTF-16",
  ),
  "license.text.surrogate": e(
    "Lone surrogate",
    "error",
    "{field} holds a lone surrogate ({escape}) at character {at}: half of a character, which the service cannot store",
    "write the character itself, or both halves of its escape (\\ud83d\\ude00 for 😀)",
  ),
  "license.property.unknown": e(
    "Unknown property",
    "warning",
    "unknown property {key} is ignored by the service",
    "a license has name, pricePerUser, unassignedAmount and users",
  ),
  "license.user.type": e(
    "License user not an object",
    "error",
    "a license user is {actual}, not an object",
    'write each license user as {"email": "ada@example.com"}',
  ),
  "license.user.email.required": e(
    "Missing email",
    "error",
    "the license user has no email",
    "every license user needs an email",
  ),
  "license.user.email.type": e("Email not a string", "error", "email is {actual}, not a string", EMAIL_HINT),
  "license.user.email.format": e(
    "Invalid email",
    "error",
    "email {value} is not a valid email address",
    EMAIL_HINT,
  ),
  "license.user.email.unknown": e(
    "License user not a user",
    "error",
    "email {value} holds this license but is not among the users",
    "add a user with this email to users, or remove it from the license",
  ),
  "license.user.duplicate": e(
    "User twice in a license",
    "error",
    "email {value} is already listed in this license at {first}",
    "list each user once per license",
  ),
  "license.user.licenseStatus.enum": e(
    "Invalid license status",
    "error",
    "licenseStatus {value} is not one of active, inactive, deleted",
    "use active, inactive or deleted in lower case, or leave it out to derive it from the user's status",
  ),
  "license.user.property.unknown": e(
    "Unknown property",
    "warning",
    "unknown property {key} is ignored by the service",
    "a license user has email and licenseStatus",
  ),
} as const satisfies Record<string, CatalogEntry>;

/** Every code syncfile can emit. */
export type Code = keyof typeof catalog;

/** Whether `code` is in the catalog. */
export function isCode(code: string): code is Code {
  return Object.hasOwn(catalog, code);
}
