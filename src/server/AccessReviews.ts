// Access-review campaigns and their executions, from a seed file; the list in buckets as the
// interface gives it; and each finished execution's report archive — a ZIP with a CSV and a
// PDF per application — generated a few seconds after it finishes (reportFileId stays null
// until then). An execution's state follows the clock: it is in progress until its
// completion time, then completed, ended early or archived.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { stringify } from "csv-stringify/sync";
import { zipSync } from "fflate";
import PDFDocument from "pdfkit";
import type { Execution, ExecutionList, ExecutionState } from "../http/operations.js";
import { type BlobStore, hasControlCharacter } from "./BlobStore.js";
import type { Database } from "./Database.js";

/** One application of a campaign, with how many of its users are reviewed. */
export interface SeedApplication {
  name: string;
  users: number;
}

/** An execution in the seed: times absolute (ISO 8601) or relative to the first start. */
export interface SeedExecution {
  id: number;
  /** What it is once finished: completed, endedEarly (concluded by an admin) or archived. */
  state: Exclude<ExecutionState, "inProgress"> | "inProgress";
  startTime?: string;
  startedSecondsAgo?: number;
  completionTime?: string;
  completesInSeconds?: number;
}

/** The seed file. */
export interface Seed {
  campaigns: { id: number; name: string; applications: SeedApplication[]; executions: SeedExecution[] }[];
}

interface Row {
  id: number;
  campaign_id: number;
  campaign_name: string;
  final_state: string;
  start_time: Date;
  completion_time: Date | null;
  report_file_id: number | null;
  applications?: SeedApplication[];
}

/** A seed file that cannot be used: the message says what is wrong where. */
export class SeedError extends Error {
  override readonly name = "SeedError";
}

/** Reads and checks a seed file; throws a SeedError that says what is wrong where. */
export function readSeed(path: string): Seed {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new SeedError(`cannot read the seed ${path}: ${(error as Error).message}`);
  }
  return checkSeed(parsed, path);
}

/** Checks a seed object. */
export function checkSeed(seed: unknown, where = "the seed"): Seed {
  const fail = (at: string, what: string): never => {
    throw new SeedError(`${where}: ${at} ${what}`);
  };
  const campaigns = (seed as Seed | null)?.campaigns;
  if (!Array.isArray(campaigns)) fail("campaigns", "must be an array");
  (campaigns as unknown[]).forEach((c, i) => {
    const campaign = c as Seed["campaigns"][number];
    const at = `campaigns[${i}]`;
    if (!Number.isSafeInteger(campaign?.id) || campaign.id < 1)
      fail(`${at}.id`, "must be a whole number ≥ 1");
    if (typeof campaign.name !== "string" || campaign.name === "")
      fail(`${at}.name`, "must be a non-empty string");
    if (!Array.isArray(campaign.applications) || campaign.applications.length === 0) {
      fail(`${at}.applications`, "must list the applications reviewed, as {name, users}");
    }
    campaign.applications.forEach((a, k) => {
      if (typeof a?.name !== "string" || a.name === "" || !Number.isSafeInteger(a.users) || a.users < 0) {
        fail(`${at}.applications[${k}]`, 'must be {"name": "...", "users": N}');
      }
    });
    if (!Array.isArray(campaign.executions)) fail(`${at}.executions`, "must be an array");
    campaign.executions.forEach((e, k) => {
      const ex = `${at}.executions[${k}]`;
      if (!Number.isSafeInteger(e?.id) || e.id < 1) fail(`${ex}.id`, "must be a whole number ≥ 1");
      if (!["inProgress", "completed", "endedEarly", "archived"].includes(e.state)) {
        fail(`${ex}.state`, "must be inProgress, completed, endedEarly or archived");
      }
      if ((e.startTime === undefined) === (e.startedSecondsAgo === undefined)) {
        fail(ex, "needs startTime (ISO 8601) or startedSecondsAgo");
      }
      if (e.startTime !== undefined && Number.isNaN(Date.parse(e.startTime)))
        fail(`${ex}.startTime`, "is not a date-time");
      if (e.completionTime !== undefined && Number.isNaN(Date.parse(e.completionTime))) {
        fail(`${ex}.completionTime`, "is not a date-time");
      }
      const finished = e.completionTime !== undefined || e.completesInSeconds !== undefined;
      if (e.state !== "inProgress" && !finished)
        fail(ex, `is ${e.state}: it needs completionTime or completesInSeconds`);
      if (e.state === "inProgress" && finished)
        fail(ex, "is inProgress: give its final state instead, with completesInSeconds");
    });
  });
  return seed as Seed;
}

/** Access reviews over one database and blob store. */
export class AccessReviews {
  readonly #db: Database;
  readonly #blobs: BlobStore;
  readonly #reportDelayMs: number;

  constructor(db: Database, blobs: BlobStore, reportDelayMs: number) {
    this.#db = db;
    this.#blobs = blobs;
    this.#reportDelayMs = reportDelayMs;
  }

  /** Adds the seed's campaigns and executions that are not there yet (relative times from `now`). */
  async load(seed: Seed, now: number): Promise<void> {
    for (const campaign of seed.campaigns) {
      await this.#db.query("INSERT INTO campaigns (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", [
        campaign.id,
        campaign.name,
      ]);
      for (const e of campaign.executions) {
        const start =
          e.startTime !== undefined
            ? new Date(e.startTime)
            : new Date(now - (e.startedSecondsAgo ?? 0) * 1000);
        const completion =
          e.completionTime !== undefined
            ? new Date(e.completionTime)
            : e.completesInSeconds !== undefined
              ? new Date(now + e.completesInSeconds * 1000)
              : null;
        await this.#db.query(
          `INSERT INTO executions (id, campaign_id, final_state, start_time, completion_time, applications)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
          [e.id, campaign.id, e.state, start, completion, JSON.stringify(campaign.applications)],
        );
      }
    }
  }

  /** The executions in buckets, newest first, at most `limit` each; finished ones after `completedAfter` only. */
  async list(limit: number, completedAfter: Date | null, now: number): Promise<ExecutionList> {
    const at = new Date(now);
    const finished = async (states: string[]) =>
      (
        await this.#db.query<Row>(
          `SELECT e.id, e.campaign_id, c.name AS campaign_name, e.final_state, e.start_time, e.completion_time, e.report_file_id
           FROM executions e JOIN campaigns c ON c.id = e.campaign_id
           WHERE e.completion_time <= $1 AND e.final_state = ANY($2) AND ($3::timestamptz IS NULL OR e.completion_time > $3)
           ORDER BY e.completion_time DESC, e.id DESC LIMIT $4`,
          [at, states, completedAfter, limit],
        )
      ).rows.map((row) => execution(row, at));
    const { rows: running } = await this.#db.query<Row>(
      `SELECT e.id, e.campaign_id, c.name AS campaign_name, e.final_state, e.start_time, e.completion_time, e.report_file_id
       FROM executions e JOIN campaigns c ON c.id = e.campaign_id
       WHERE e.completion_time IS NULL OR e.completion_time > $1
       ORDER BY e.start_time DESC, e.id DESC LIMIT $2`,
      [at, limit],
    );
    return {
      completedExecutions: await finished(["completed", "endedEarly"]),
      archivedExecutions: await finished(["archived"]),
      inProgressExecutions: running.map((row) => execution(row, at)),
    };
  }

  /**
   * Generates the report archives that are due (finished at least the report delay ago, none
   * yet); each is claimed first, so two servers on one data directory never both make it.
   * Resolves to how many were made.
   */
  async generateDue(now: number): Promise<number> {
    const at = new Date(now);
    const { rows } = await this.#db.query<Row>(
      `UPDATE executions e SET report_claimed_at = $1
       FROM campaigns c
       WHERE c.id = e.campaign_id AND e.report_file_id IS NULL AND e.completion_time IS NOT NULL
         AND e.completion_time <= $2 AND (e.report_claimed_at IS NULL OR e.report_claimed_at < $3)
       RETURNING e.id, e.campaign_id, c.name AS campaign_name, e.final_state, e.start_time, e.completion_time,
         e.report_file_id, e.applications`,
      [at, new Date(now - this.#reportDelayMs), new Date(now - 60_000)],
    );
    for (const row of rows) {
      const zip = await reportArchive(row);
      const path = `reports/execution-${row.id}.zip`;
      await this.#blobs.writeBytes(path, zip);
      const { rows: file } = await this.#db.query<{ id: number }>(
        "INSERT INTO files (path, type, content_type, size) VALUES ($1, 'accessReviewReport', 'application/zip', $2) RETURNING id",
        [path, zip.length],
      );
      await this.#db.query("UPDATE executions SET report_file_id = $2 WHERE id = $1", [
        row.id,
        (file[0] as { id: number }).id,
      ]);
    }
    return rows.length;
  }
}

function execution(row: Row, now: Date): Execution {
  const done = row.completion_time !== null && row.completion_time <= now;
  return {
    id: row.id,
    campaignId: row.campaign_id,
    campaignName: row.campaign_name,
    state: done ? (row.final_state as ExecutionState) : "inProgress",
    startTime: row.start_time.toISOString(),
    completionTime: done ? (row.completion_time as Date).toISOString() : null,
    reportFileId: done ? row.report_file_id : null,
  };
}

const REVIEWERS = ["Dana Levi", "Sam Okafor", "Priya Raman", "Jonas Berg"];

interface Decision {
  email: string;
  decision: "keep" | "revoke" | "not reviewed";
  reviewer: string;
  reviewedAt: string;
}

/** The decisions of one application in one execution: made up, but the same every time. */
function decisions(row: Row, app: SeedApplication, partial: boolean): Decision[] {
  const start = row.start_time.getTime();
  const span = Math.max(1, (row.completion_time as Date).getTime() - start);
  const slug =
    app.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "app";
  return Array.from({ length: app.users }, (_, i) => {
    const h = createHash("sha256").update(`${row.id}/${app.name}/${i}`).digest();
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

/** The ZIP of an execution: `<application>.csv` and `<application>.pdf` for each application reviewed. */
async function reportArchive(row: Row): Promise<Uint8Array> {
  const archived = row.final_state === "archived";
  const apps = row.applications ?? [];
  // an archived execution was stopped part way: only the first half of its applications got reviews
  const reviewed = archived ? apps.slice(0, Math.ceil(apps.length / 2)) : apps;
  const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
  const mtime = row.completion_time as Date;
  for (const app of reviewed) {
    const list = decisions(row, app, archived);
    const base = [...app.name]
      .map((c) => (/[\\/:*?"<>|]/.test(c) || hasControlCharacter(c) ? "_" : c))
      .join("");
    const csv = stringify(
      list.map((d) => [d.email, d.decision, d.reviewer, d.reviewedAt]),
      {
        header: true,
        columns: ["email", "decision", "reviewer", "reviewedAt"],
      },
    );
    entries[`${base}.csv`] = [new TextEncoder().encode(csv), { mtime }];
    entries[`${base}.pdf`] = [await pdf(row, app, list, archived), { mtime }];
  }
  return zipSync(entries, { level: 6 });
}

function pdf(row: Row, app: SeedApplication, list: Decision[], partial: boolean): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      margin: 50,
      info: {
        Title: `${row.campaign_name} — ${app.name}`,
        Producer: "syncfile",
        CreationDate: row.completion_time as Date,
      },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on("error", reject);
    const count = (d: Decision["decision"]) => list.filter((x) => x.decision === d).length;
    doc.fontSize(18).text(`Access review: ${app.name}`);
    doc.moveDown(0.5).fontSize(11);
    doc.text(`Campaign: ${row.campaign_name} (execution ${row.id})`);
    doc.text(`From ${row.start_time.toISOString()} to ${(row.completion_time as Date).toISOString()}`);
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
