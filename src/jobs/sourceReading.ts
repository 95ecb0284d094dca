// How a job's fetched source is read, decided once for a run and for `syncfile pull`: its
// format (the job's, else its name's extension, else its first bytes), and what it is read
// through — the job's profile or mapping; a SCIM endpoint's users, the profile scim; other
// records (a query's rows, an API's users) without either, a mapping of the service's names
// made from their columns.

import { Buffer } from "node:buffer";
import { open } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import type { MappingDocument } from "syncfile/internal/mapping/MappingDocument.js";
import type { InputFormat } from "syncfile/internal/pass/formatOf.js";
import { formatOf } from "syncfile/internal/pass/formatOf.js";
import type { SourceFile } from "../sources/fetchSource.js";
import { recordsMapping } from "../sources/recordsMapping.js";
import { RECORD_SOURCES } from "../sources/SourceSpec.js";
import type { Job } from "./Job.js";

/** How the source is read, or why it cannot be. */
export type SourceReading =
  | {
      ok: true;
      format: InputFormat;
      validation: { profile?: string; mapping?: MappingDocument };
    }
  | { ok: false; message: string };

/** How `job` reads the file its source gave. */
export async function sourceReading(job: Job, source: SourceFile): Promise<SourceReading> {
  const format = job.format ?? (await formatOfSource(source.name, source.path));
  const { profile, mapping } = job.read;
  if (format === "json" && (profile || mapping)) {
    const read = mapping ? `the mapping ${mapping.path}` : `the profile ${profile}`;
    return {
      ok: false,
      message: `the source gave JSON, and the job reads it through ${read}, which reads a CSV file's or a workbook's columns: say format: csv (or xlsx) if it is one, or leave the profile out`,
    };
  }
  if (profile) return { ok: true, format, validation: { profile } };
  if (mapping) return { ok: true, format, validation: { mapping: mapping.document } };
  // a SCIM endpoint's users are read as the built-in profile of the core User schema reads them
  if (job.source.kind === "scim") {
    return { ok: true, format: "csv", validation: { profile: "scim" } };
  }
  if (!(RECORD_SOURCES as readonly string[]).includes(job.source.kind)) {
    return { ok: true, format, validation: {} };
  }
  const header = await headerOf(source.path);
  const made = recordsMapping(header);
  if (made === null) {
    return {
      ok: false,
      message: `the records have no email field (their fields: ${header.slice(0, 12).join(", ")}${header.length > 12 ? ", …" : ""}): ${job.source.kind === "ldap" ? "read a directory's entries through the profile active-directory or ldap, or a mapping" : "name the email (AS email in a query), or read them through a profile or a mapping"}`,
    };
  }
  return { ok: true, format: "csv", validation: { mapping: made } };
}

/** The header of the CSV file a source of records wrote. */
async function headerOf(path: string): Promise<string[]> {
  const file = await open(path, "r");
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
    const text = buffer.subarray(0, bytesRead).toString("utf8");
    const end = text.search(/\r?\n/);
    const rows = parse(end === -1 ? text : text.slice(0, end), { relax_quotes: true }) as string[][];
    return rows[0] ?? [];
  } finally {
    await file.close();
  }
}

/**
 * How to read a source: by its name's extension when it has one we read, else (a command's
 * output, an HTTP body) by its first bytes: a JSON document starts with { or [, a workbook is
 * a ZIP archive, and anything else is read as CSV-like text.
 */
async function formatOfSource(name: string, path: string): Promise<InputFormat> {
  if (/\.(json|csv|tsv|txt|xlsx|xlsm)$/i.test(name)) return formatOf(name);
  const file = await open(path, "r");
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(512), 0, 512, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head.subarray(0, 4).equals(Buffer.from("PK\x03\x04", "latin1"))) return "xlsx";
    const text = head
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .trimStart();
    return text.startsWith("{") || text.startsWith("[") ? "json" : "csv";
  } finally {
    await file.close();
  }
}
