// The report archive of a finished access-review execution: a ZIP with a CSV and a PDF for each
// application reviewed. The decisions are made up, but the same every time for an execution.

import { createHash } from "node:crypto";
import { stringify } from "csv-stringify/sync";
import { zipSync } from "fflate";
import PDFDocument from "pdfkit";
import type { DueReport } from "./repositories/types.js";
import type { SeedApplication } from "./seed.js";
import { hasControlCharacter } from "./storage/types.js";

const REVIEWERS = ["Dana Levi", "Sam Okafor", "Priya Raman", "Jonas Berg"];

interface Decision {
  email: string;
  decision: "keep" | "revoke" | "not reviewed";
  reviewer: string;
  reviewedAt: string;
}

/** The ZIP of an execution: `<application>.csv` and `<application>.pdf` for each application reviewed. */
export async function reportArchive(execution: DueReport): Promise<Uint8Array> {
  const archived = execution.finalState === "archived";
  const apps = execution.applications;
  // an archived execution was stopped part way: only the first half of its applications got reviews
  const reviewed = archived ? apps.slice(0, Math.ceil(apps.length / 2)) : apps;
  const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
  const mtime = execution.completionTime;
  for (const app of reviewed) {
    const list = decisions(execution, app, archived);
    const base = [...app.name]
      .map((c) => (/[\\/:*?"<>|]/.test(c) || hasControlCharacter(c) ? "_" : c))
      .join("");
    const csv = stringify(
      list.map((d) => [d.email, d.decision, d.reviewer, d.reviewedAt]),
      { header: true, columns: ["email", "decision", "reviewer", "reviewedAt"] },
    );
    entries[`${base}.csv`] = [new TextEncoder().encode(csv), { mtime }];
    entries[`${base}.pdf`] = [await pdf(execution, app, list, archived), { mtime }];
  }
  return zipSync(entries, { level: 6 });
}

/** The decisions of one application in one execution. */
function decisions(execution: DueReport, app: SeedApplication, partial: boolean): Decision[] {
  const start = execution.startTime.getTime();
  const span = Math.max(1, execution.completionTime.getTime() - start);
  const slug =
    app.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "app";
  return Array.from({ length: app.users }, (_, i) => {
    const h = createHash("sha256").update(`${execution.id}/${app.name}/${i}`).digest();
    const roll = (h[0] as number) / 256;
    const reviewed = !partial || (h[1] as number) < 160;
    return {
      email: `${slug}.user${i + 1}@acme.example`,
      decision: !reviewed ? "not reviewed" : roll < 0.75 ? "keep" : "revoke",
      reviewer: reviewed ? (REVIEWERS[(h[2] as number) % REVIEWERS.length] as string) : "",
      reviewedAt: reviewed
        ? new Date(start + Math.floor(((h.readUInt32BE(4) % 1000) / 1000) * span)).toISOString()
        : "",
    };
  });
}

function pdf(
  execution: DueReport,
  app: SeedApplication,
  list: Decision[],
  partial: boolean,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      margin: 50,
      info: {
        Title: `${execution.campaignName} — ${app.name}`,
        Producer: "syncfile",
        CreationDate: execution.completionTime,
      },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on("error", reject);
    const count = (d: Decision["decision"]) => list.filter((x) => x.decision === d).length;
    doc.fontSize(18).text(`Access review: ${app.name}`);
    doc.moveDown(0.5).fontSize(11);
    doc.text(`Campaign: ${execution.campaignName} (execution ${execution.id})`);
    doc.text(`From ${execution.startTime.toISOString()} to ${execution.completionTime.toISOString()}`);
    doc.text(
      `Users reviewed: ${list.length - count("not reviewed")} of ${list.length} — kept ${count("keep")}, revoked ${count("revoke")}`,
    );
    if (partial) doc.text("Partial report: the campaign was archived before every review was done.");
    doc.moveDown().fontSize(9);
    for (const d of list.slice(0, 60))
      doc.text(`${d.email}   ${d.decision}   ${d.reviewer}   ${d.reviewedAt}`);
    if (list.length > 60) doc.text(`… and ${list.length - 60} more in ${app.name}.csv`);
    doc.end();
  });
}
