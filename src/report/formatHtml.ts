// The report as one self-contained HTML page, to send to whoever owns the data: a banner per
// file, the counts by code, and the findings in a table with their source lines, filtered by
// severity and code. Styles and script are inline and the page's content security policy
// forbids every request, so it opens offline, as an attachment, and fetches nothing.

import { catalog, isCode } from "./catalog.js";
import type { Finding } from "./Finding.js";
import {
  type Excerpt,
  formatBytes,
  groupDigits,
  outputLine,
  pathOf,
  placeOf,
  plural,
  readAsLine,
  recordsOf,
} from "./formatText.js";
import type { Report } from "./Report.js";

/** Options of the HTML format. */
export interface HtmlFormatOptions {
  /** Source excerpts by finding (the CLI reads them from the file); none when absent. */
  excerpts?: ReadonlyMap<Finding, Excerpt>;
  /** Where each code is explained: its code cells link there. None: the codes are not links. */
  codeLink?: (code: string) => string;
}

const POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

/** The page of the report; syncfile serve's page has its own. */
const PAGE_STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 75rem; padding: 1rem 1.5rem; color: #1d1d1f; }`;

/** The report's sections, which syncfile serve's page adopts too. */
export const REPORT_STYLE = `
h1 { font-size: 1.3rem; } h2 { font-size: 1.1rem; margin: 2rem 0 .5rem; overflow-wrap: anywhere; }
.banner { padding: .75rem 1rem; border-radius: .4rem; font-weight: 600; }
.valid { background: #e3f6e8; color: #0b5d23; } .invalid { background: #fde7e7; color: #8c1212; }
.stats { color: #555; margin: .4rem 0 1rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid #ddd; }
th { background: #f4f4f6; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.error { color: #b00020; font-weight: 600; } .warning { color: #8a5a00; font-weight: 600; }
code, pre { font: 13px/1.4 ui-monospace, monospace; }
pre { margin: .4rem 0 0; padding: .4rem .5rem; background: #f6f6f8; overflow-x: auto; white-space: pre; }
pre .gutter { color: #888; user-select: none; }
mark { background: #ffd54f; outline: 1px solid #b58900; }
.hint { color: #444; } .where { color: #666; font-size: .9em; overflow-wrap: anywhere; }
.filters { display: flex; gap: 1rem; flex-wrap: wrap; align-items: center; margin: .5rem 0; }
.note { color: #555; font-style: italic; }
`;

// shows the rows whose severity is ticked and whose code is chosen
const SCRIPT = `
for (const section of document.querySelectorAll("section")) {
  const rows = section.querySelectorAll("tbody.findings tr");
  const boxes = section.querySelectorAll(".filters input[type=checkbox]");
  const code = section.querySelector(".filters select");
  const shown = section.querySelector(".shown");
  if (!code) continue;
  const apply = () => {
    const severities = new Set([...boxes].filter((b) => b.checked).map((b) => b.value));
    let n = 0;
    for (const row of rows) {
      const show = severities.has(row.dataset.severity) && (code.value === "" || code.value === row.dataset.code);
      row.hidden = !show;
      if (show) n++;
    }
    shown.textContent = n + " of " + rows.length + " shown";
  };
  for (const input of [...boxes, code]) input.addEventListener("change", apply);
  apply();
}
`;

/** The reports (one section each) as a complete HTML document. */
export function formatHtml(reports: readonly Report[], options: HtmlFormatOptions = {}): string {
  const title =
    reports.length === 1 ? `${fileOf(reports[0] as Report)} — syncfile report` : "syncfile report";
  return htmlPage(
    title,
    `<h1>syncfile ${reports.some((report) => report.output) ? "conversion" : "validation"} report</h1>
${reports.map((report, i) => reportSection(report, i, options)).join("\n")}
<script>${SCRIPT}</script>`,
  );
}

/**
 * A self-contained page titled `title` holding `body` (HTML), in the report's look: inline
 * styles, and a content security policy that forbids every request.
 */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}${REPORT_STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * One report's section: its banner, the counts by code, the filters and the findings with their
 * source lines (what syncfile serve's page shows too). `index` makes its heading's id.
 */
export function reportSection(report: Report, index: number, options: HtmlFormatOptions = {}): string {
  const { error, warning, byCode } = report.counts;
  const s = report.stats;
  const verdict = report.valid ? "valid" : "invalid";
  const out = [
    `<section aria-labelledby="file-${index}">`,
    `<h2 id="file-${index}">${escapeHtml(fileOf(report))}${report.sheet !== undefined ? `, sheet ${escapeHtml(report.sheet)}` : ""}</h2>`,
    `<div class="banner ${verdict}" role="status">${escapeHtml(`${verdict} — ${plural(error, "error")}, ${plural(warning, "warning")}`)}</div>`,
    `<p class="stats">${escapeHtml(`${String(report.format).toUpperCase()}: ${recordsOf(s)}; ${formatBytes(Number(s.bytes))} in ${s.durationMs} ms`)}</p>`,
  ];
  const readAs = readAsLine(report);
  if (readAs) out.push(`<p class="stats">${escapeHtml(readAs)}</p>`);
  if (report.output) out.push(`<p class="stats">${escapeHtml(outputLine(report.output, report.valid))}</p>`);
  const codes = Object.entries(byCode).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (codes.length > 0) {
    out.push(
      '<table><caption class="note">All findings by code</caption>',
      '<thead><tr><th scope="col">Code</th><th scope="col">Severity</th><th scope="col">What</th><th scope="col">Count</th></tr></thead><tbody>',
      ...codes.map(([code, n]) => {
        const entry = isCode(code) ? catalog[code] : null;
        return `<tr><td>${codeCell(code, options)}</td><td class="${entry?.severity ?? ""}">${entry?.severity ?? ""}</td><td>${escapeHtml(entry?.title ?? "")}</td><td class="n">${escapeHtml(groupDigits(n))}</td></tr>`;
      }),
      "</tbody></table>",
    );
  }
  if (report.findings.length > 0) out.push(filters(report), findingsTable(report, options));
  if (report.truncated) {
    out.push(
      `<p class="note">${escapeHtml(plural(report.suppressed, "more finding"))} not listed (raise --max-errors to see them); the counts above are exact.</p>`,
    );
  }
  out.push("</section>");
  return out.join("\n");
}

function filters(report: Report): string {
  const codes = [...new Set(report.findings.map((f) => f.code))].sort();
  return `<div class="filters">
<span>Show:</span>
<label><input type="checkbox" value="error" checked> errors</label>
<label><input type="checkbox" value="warning" checked> warnings</label>
<label>code <select>
<option value="">every code</option>
${codes.map((code) => `<option>${escapeHtml(code)}</option>`).join("\n")}
</select></label>
<span class="shown" aria-live="polite"></span>
</div>`;
}

function findingsTable(report: Report, options: HtmlFormatOptions): string {
  const rows = report.findings.map((f) => {
    const place = placeOf(f);
    const path = pathOf(f);
    const excerpt = options.excerpts?.get(f);
    const severity = escapeHtml(String(f.severity));
    return `<tr data-severity="${severity}" data-code="${escapeHtml(f.code)}">
<td>${place ? `<code>${escapeHtml(place)}</code>` : ""}${path ? `<div class="where">${escapeHtml(path)}</div>` : ""}</td>
<td class="${severity}">${severity}</td>
<td>${codeCell(f.code, options)}</td>
<td>${escapeHtml(f.message)}${f.hint ? `<div class="hint">hint: ${escapeHtml(f.hint)}</div>` : ""}${excerpt ? source(excerpt, f.column !== undefined) : ""}</td>
</tr>`;
  });
  return `<table>
<thead><tr><th scope="col">Where</th><th scope="col">Severity</th><th scope="col">Code</th><th scope="col">Problem</th></tr></thead>
<tbody class="findings">
${rows.join("\n")}
</tbody>
</table>`;
}

/** The source line, with the character under the caret marked. */
function source(excerpt: Excerpt, marked: boolean): string {
  const { text, caret } = excerpt;
  let line = escapeHtml(text);
  if (marked) {
    const code = text.codePointAt(caret);
    const at = code === undefined ? "" : String.fromCodePoint(code);
    // past the end of the line (a missing value, say): mark the space after it
    line = `${escapeHtml(text.slice(0, caret))}<mark>${at ? escapeHtml(at) : " "}</mark>${escapeHtml(text.slice(caret + at.length))}`;
  }
  return `<pre><span class="gutter">${escapeHtml(String(excerpt.line))} | </span>${line}</pre>`;
}

function codeCell(code: string, options: HtmlFormatOptions): string {
  const text = `<code>${escapeHtml(code)}</code>`;
  return options.codeLink ? `<a href="${escapeHtml(options.codeLink(code))}">${text}</a>` : text;
}

function fileOf(report: Report): string {
  return report.file ?? "stdin";
}

/** `text` safe in HTML text and in a quoted attribute (every value shown passes here: a report may come from another service). */
/** `text` safe in HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
