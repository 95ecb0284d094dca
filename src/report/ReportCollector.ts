// Collects findings with limits: keeps at most `maxErrors` errors and as many warnings,
// and exact totals per code beyond that. Findings beyond the limit are never built.

import { type Code, catalog } from "./catalog.js";
import { findingValue } from "./describe.js";
import type { Finding, FindingDetails, Severity } from "./Finding.js";
import type { Report, ReportStats } from "./Report.js";

/** Limits of a collector. */
export interface CollectorOptions {
  /** How many errors (and, separately, warnings) to keep. */
  maxErrors: number;
  /** Treat warnings as errors. */
  strict: boolean;
}

/** Renders `{name}` placeholders; an absent param leaves the placeholder visible, which tests catch. */
export function renderTemplate(
  template: string,
  params: Readonly<Record<string, string | number>> = {},
): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** A finding of `code` rendered from the catalog. */
export function buildFinding(code: Code, severity: Severity, d: FindingDetails): Finding {
  const entry = catalog[code];
  const finding: Finding = { code, severity, message: renderTemplate(entry.message, d.params) };
  const hint = d.hint ?? renderTemplate(entry.hint, d.params);
  if (hint) finding.hint = hint;
  if (d.pointer !== undefined) finding.pointer = d.pointer;
  if (d.location) {
    finding.line = d.location.line;
    // a CSV finding names its row and field instead of a column
    if (d.row === undefined) finding.column = d.location.column;
    finding.offset = d.location.offset;
  }
  if (d.row !== undefined) finding.row = d.row;
  if (d.cell !== undefined) finding.cell = d.cell;
  if (d.field !== undefined) finding.field = d.field;
  const value = findingValue(d.value);
  if (value !== undefined) finding.value = value;
  return finding;
}

/** What a collector has collected: the findings it kept, in order, and the count of each code. */
export interface CollectedFindings {
  findings: Finding[];
  byCode: Record<string, number>;
}

/** Accumulates findings during one pass and produces the report at the end. */
export class ReportCollector {
  readonly #options: CollectorOptions;
  readonly #findings: Finding[] = [];
  readonly #byCode: Record<string, number> = Object.create(null);
  #errors = 0;
  #warnings = 0;
  #keptErrors = 0;
  #keptWarnings = 0;

  constructor(options: CollectorOptions) {
    this.#options = options;
  }

  /** The severity `code` gets in this pass (`strict` turns warnings into errors). */
  severityOf(code: Code): Severity {
    return this.#options.strict ? "error" : catalog[code].severity;
  }

  /** Total errors so far, kept or not. */
  get errorCount(): number {
    return this.#errors;
  }

  /**
   * Counts one finding of `code`; calls `details` to build it only when it is kept,
   * so locating and rendering cost nothing past the limit.
   */
  add(code: Code, details: FindingDetails | (() => FindingDetails)): void {
    if (!this.#counted(code)) return;
    const d = typeof details === "function" ? details() : details;
    this.#findings.push(buildFinding(code, this.severityOf(code), d));
  }

  /** What was collected so far (the findings are this collector's own). */
  collected(): CollectedFindings {
    return { findings: this.#findings, byCode: { ...this.#byCode } };
  }

  /**
   * Adds what another collector with the same options collected, as if its findings were
   * added here in its order: the ones it kept, then the ones it only counted (`byCode`
   * counts both). Nothing it did not keep could be kept here: this one has had its own
   * limit's worth of findings by then.
   */
  append({ findings, byCode }: CollectedFindings): void {
    const rest: Record<string, number> = { ...byCode };
    for (const finding of findings) {
      rest[finding.code] = (rest[finding.code] as number) - 1;
      if (this.#counted(finding.code as Code)) this.#findings.push(finding);
    }
    for (const [code, count] of Object.entries(rest))
      for (let i = 0; i < count; i++) this.#counted(code as Code);
  }

  /** Counts one finding of `code`; whether it is kept. */
  #counted(code: Code): boolean {
    const severity = this.severityOf(code);
    this.#byCode[code] = (this.#byCode[code] ?? 0) + 1;
    if (severity === "error") {
      this.#errors++;
      if (this.#keptErrors >= this.#options.maxErrors) return false;
      this.#keptErrors++;
    } else {
      this.#warnings++;
      if (this.#keptWarnings >= this.#options.maxErrors) return false;
      this.#keptWarnings++;
    }
    return true;
  }

  /** The report of this pass. */
  toReport(meta: { file: string | null; format: "json" | "csv" | "xlsx"; stats: ReportStats }): Report {
    const kept = this.#findings.length;
    const total = this.#errors + this.#warnings;
    return {
      reportVersion: 1,
      valid: this.#errors === 0,
      file: meta.file,
      format: meta.format,
      stats: meta.stats,
      counts: { error: this.#errors, warning: this.#warnings, byCode: { ...this.#byCode } },
      truncated: kept < total,
      suppressed: total - kept,
      findings: this.#findings,
    };
  }
}
