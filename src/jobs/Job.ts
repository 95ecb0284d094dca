// A job as a run uses it: read from a job file (readJobFile.ts), its paths absolute, its secrets
// read and known to the redaction, its defaults filled in.

import type { MappingDocument } from "syncfile/internal/mapping/MappingDocument.js";
import type { SourceSpec } from "../sources/SourceSpec.js";

/** How a run ends: what its record says, its exit code and its notifications follow from. */
export type Outcome = "synced" | "unchanged" | "refused" | "failed" | "invalid" | "recovered";

/** Where a job's data is. */
export type JobSource = SourceSpec;

/** Whom a run is told to, and of which outcomes. */
export type JobNotification =
  | { kind: "webhook"; url: string; on: readonly Outcome[] }
  | { kind: "email"; to: readonly string[]; from: string | null; smtp: string; on: readonly Outcome[] };

/** One app account kept in sync from one source. */
export interface Job {
  name: string;
  source: JobSource;
  /** The profile or mapping the source is read through; neither: as its header decides. */
  read: { profile?: string; mapping?: { path: string; document: MappingDocument } };
  /** How the source's bytes are read; null: by the file's name, else JSON. */
  format: "json" | "csv" | "xlsx" | null;
  service: { url: string; apiKey: string; appAccount: number };
  guard: { maxDeletes: number | null; allowEmpty: boolean };
  /** live: push; staging: everything but the push. */
  mode: "live" | "staging";
  schedule: { cron: string; timezone: string | null } | null;
  notify: readonly JobNotification[];
  /** The job's state folder. */
  state: string;
  keepDays: number;
}
