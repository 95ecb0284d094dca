// The JSON format: the report object itself, one line per report (JSON Lines).

import type { Report } from "./Report.js";

/** The report as one line of JSON: exactly the object the server returns in a 400 body. */
export function formatJson(report: Report): string {
  return `${JSON.stringify(report)}\n`;
}
