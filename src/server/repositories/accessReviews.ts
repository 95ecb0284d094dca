// The SQL of access reviews: campaigns and executions from the seed, the executions by bucket,
// and the claim and registration of their report archives.

import type { Seed, SeedApplication } from "../seed.js";
import type { Sql } from "./Database.js";
import type { AccessReviewsRepository, Bucket, DueReport, StoredExecution } from "./types.js";

interface Row {
  id: number;
  campaign_id: number;
  campaign_name: string;
  final_state: StoredExecution["finalState"];
  start_time: Date;
  completion_time: Date | null;
  report_file_id: number | null;
  applications?: SeedApplication[];
}

const COLUMNS = `e.id, e.campaign_id, c.name AS campaign_name, e.final_state, e.start_time, e.completion_time, e.report_file_id`;

/** Access reviews in a PostgreSQL database. */
export class SqlAccessReviewsRepository implements AccessReviewsRepository {
  readonly #db: Sql;

  constructor(db: Sql) {
    this.#db = db;
  }

  async addSeed(seed: Seed, now: Date): Promise<void> {
    const seconds = (s: number) => new Date(now.getTime() + s * 1000);
    await this.#db.transaction(async (tx) => {
      for (const campaign of seed.campaigns) {
        await tx.query("INSERT INTO campaigns (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", [
          campaign.id,
          campaign.name,
        ]);
        for (const e of campaign.executions) {
          const start =
            e.startTime !== undefined ? new Date(e.startTime) : seconds(-(e.startedSecondsAgo ?? 0));
          const completion =
            e.completionTime !== undefined
              ? new Date(e.completionTime)
              : e.completesInSeconds !== undefined
                ? seconds(e.completesInSeconds)
                : null;
          await tx.query(
            `INSERT INTO executions (id, campaign_id, final_state, start_time, completion_time, applications)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
            [e.id, campaign.id, e.state, start, completion, JSON.stringify(campaign.applications)],
          );
        }
      }
    });
  }

  async executions(
    limit: number,
    completedAfter: Date | null,
    now: Date,
  ): Promise<Record<Bucket, StoredExecution[]>> {
    // the three buckets in one statement: one round trip for the most called read
    const finished = `FROM executions e JOIN campaigns c ON c.id = e.campaign_id
       WHERE e.completion_time <= $1 AND ($2::timestamptz IS NULL OR e.completion_time > $2)`;
    const { rows } = await this.#db.query<Row & { bucket: Bucket }>(
      `(SELECT 'completed' AS bucket, ${COLUMNS} ${finished} AND e.final_state IN ('completed', 'endedEarly')
         ORDER BY e.completion_time DESC, e.id DESC LIMIT $3)
       UNION ALL
       (SELECT 'archived', ${COLUMNS} ${finished} AND e.final_state = 'archived'
         ORDER BY e.completion_time DESC, e.id DESC LIMIT $3)
       UNION ALL
       (SELECT 'running', ${COLUMNS} FROM executions e JOIN campaigns c ON c.id = e.campaign_id
         WHERE e.completion_time IS NULL OR e.completion_time > $1
         ORDER BY e.start_time DESC, e.id DESC LIMIT $3)`,
      [now, completedAfter, limit],
    );
    const buckets: Record<Bucket, StoredExecution[]> = { completed: [], archived: [], running: [] };
    for (const row of rows) buckets[row.bucket].push(stored(row));
    return buckets;
  }

  async claimReports(now: Date, dueBefore: Date, staleBefore: Date): Promise<DueReport[]> {
    const { rows } = await this.#db.query<Row>(
      `UPDATE executions e SET report_claimed_at = $1
       FROM campaigns c
       WHERE c.id = e.campaign_id AND e.report_file_id IS NULL AND e.completion_time IS NOT NULL
         AND e.completion_time <= $2 AND (e.report_claimed_at IS NULL OR e.report_claimed_at < $3)
       RETURNING ${COLUMNS}, e.applications`,
      [now, dueBefore, staleBefore],
    );
    return rows.map((row) => ({
      ...stored(row),
      completionTime: row.completion_time as Date,
      applications: row.applications ?? [],
    }));
  }

  async attachReport(id: number, path: string, size: number): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: number }>(
        "INSERT INTO files (path, type, content_type, size) VALUES ($1, 'accessReviewReport', 'application/zip', $2) RETURNING id",
        [path, size],
      );
      await tx.query("UPDATE executions SET report_file_id = $2 WHERE id = $1", [id, rows[0]?.id]);
    });
  }
}

function stored(row: Row): StoredExecution {
  return {
    id: row.id,
    campaignId: row.campaign_id,
    campaignName: row.campaign_name,
    finalState: row.final_state,
    startTime: row.start_time,
    completionTime: row.completion_time,
    reportFileId: row.report_file_id,
  };
}
