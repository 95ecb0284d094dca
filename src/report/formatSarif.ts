// SARIF 2.1.0, for code-scanning tools (GitHub's upload-sarif among them): one log for every file
// checked, one run of syncfile, a rule per code found and a result per finding kept.

import packageJson from "../../package.json" with { type: "json" };
import { catalog, isCode } from "./catalog.js";
import type { Finding } from "./Finding.js";
import type { Report } from "./Report.js";

/** The OASIS Standard's schema (errata 01), which the log names as its `$schema`. */
export const SARIF_SCHEMA =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

const MIME_TYPES = {
  json: "application/json",
  csv: "text/csv",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;

interface SarifRule {
  id: string;
  shortDescription: { text: string };
  help?: { text: string };
  defaultConfiguration?: { level: "error" | "warning" };
}

interface SarifArtifact {
  location?: { uri: string };
  description?: { text: string };
  length: number;
  mimeType: string;
  properties: Record<string, unknown>;
}

/**
 * The reports as one SARIF 2.1.0 log, pretty-printed. Each file is an artifact (its URI is the
 * name as given, relative to the current directory; an absolute name becomes a `file:` URI);
 * each finding a result with its rule, level, message and place: line and column as a region
 * where the source has them, the JSON pointer, CSV row and column or workbook cell as
 * properties, the cell also as a logical location.
 */
export function formatSarif(reports: readonly Report[]): string {
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  const artifacts: SarifArtifact[] = [];
  const artifactIndex = new Map<string | null, number>();
  const results: unknown[] = [];
  for (const report of reports) {
    let index = artifactIndex.get(report.file);
    if (index === undefined) {
      index = artifacts.push(artifactOf(report)) - 1;
      artifactIndex.set(report.file, index);
    }
    for (const finding of report.findings) {
      let rule = ruleIndex.get(finding.code);
      if (rule === undefined) {
        rule = rules.push(ruleOf(finding.code)) - 1;
        ruleIndex.set(finding.code, rule);
      }
      results.push(resultOf(finding, rule, rules[rule] as SarifRule, report.file, index));
    }
  }
  const log = {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "syncfile", version: packageJson.version, rules } },
        artifacts,
        results,
        columnKind: "utf16CodeUnits",
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function ruleOf(code: string): SarifRule {
  // a report from another version of the service may carry a code this catalog lacks
  if (!isCode(code)) return { id: code, shortDescription: { text: code } };
  const entry = catalog[code];
  return {
    id: code,
    shortDescription: { text: entry.title },
    ...(entry.hint ? { help: { text: entry.hint } } : {}),
    defaultConfiguration: { level: entry.severity },
  };
}

function artifactOf(report: Report): SarifArtifact {
  const { error, warning } = report.counts;
  return {
    ...(report.file === null
      ? { description: { text: "standard input" } }
      : { location: { uri: uriOf(report.file) } }),
    length: report.stats.bytes,
    mimeType: MIME_TYPES[report.format],
    properties: {
      valid: report.valid,
      ...(report.sheet !== undefined ? { sheet: report.sheet } : {}),
      errors: error,
      warnings: warning,
      // findings counted beyond --max-errors, which have no result here
      suppressed: report.suppressed,
    },
  };
}

function resultOf(f: Finding, ruleIndex: number, rule: SarifRule, file: string | null, artifact: number) {
  // the rule's help is the catalog's hint: a finding's own, more specific one goes in its message
  const hint = f.hint && f.hint !== rule.help?.text ? `\nhint: ${f.hint}` : "";
  const region =
    f.line === undefined
      ? undefined
      : { startLine: f.line, ...(f.column !== undefined ? { startColumn: f.column } : {}) };
  const properties = {
    ...(f.pointer !== undefined ? { pointer: f.pointer } : {}),
    ...(f.row !== undefined ? { row: f.row } : {}),
    ...(f.field !== undefined ? { field: f.field } : {}),
    ...(f.cell !== undefined ? { cell: f.cell } : {}),
  };
  return {
    ruleId: f.code,
    ruleIndex,
    level: f.severity,
    message: { text: `${f.message}${hint}` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { ...(file === null ? {} : { uri: uriOf(file) }), index: artifact },
          ...(region ? { region } : {}),
        },
        ...(f.cell !== undefined ? { logicalLocations: [cellLocation(f.cell)] } : {}),
      },
    ],
    ...(Object.keys(properties).length > 0 ? { properties } : {}),
  };
}

/** `Users!E3` as a logical location: the cell, in its sheet. */
function cellLocation(cell: string) {
  const bang = cell.lastIndexOf("!");
  return { name: cell.slice(bang + 1), fullyQualifiedName: cell, kind: "cell" };
}

/**
 * A file name as given, as a URI reference: a relative name stays relative (segments
 * percent-encoded, a leading `./` dropped, so that it reads as a path of the repository), an
 * absolute one becomes a `file:` URI.
 */
export function uriOf(file: string): string {
  const drive = /^([A-Za-z]):[\\/]/.exec(file);
  const path = drive ? file.replace(/\\/g, "/") : file;
  const encode = (p: string) => p.split("/").map(encodeURIComponent).join("/");
  if (drive) return `file:///${drive[1]}:${encode(path.slice(2))}`;
  if (path.startsWith("/")) return `file://${encode(path)}`;
  return encode(path.replace(/^(?:\.\/+)+/, ""));
}
