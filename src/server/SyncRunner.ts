// A sync: the stored file streamed through the library (validate and normalise in one pass),
// its sync-ready records kept in spill lists (memory bounded, on disk past a budget); an
// invalid file is a 400 with the report and touches no table; a valid one is loaded under a
// new sync id and made current in one short transaction, so a sync that fails or a server
// that dies halfway leaves the account as it was. One sync at a time: a lock row, 409 while
// another holds it — whichever server process on the data directory started it.

import { SpillList } from "../_internal/SpillList.js";
import { normalize } from "../convert/convert.js";
import type { SyncSummary } from "../http/operations.js";
import type { DocumentWriter } from "../model/DocumentWriter.js";
import type { RateTable } from "../model/money.js";
import { isNormalizedLicenseUser, type NormalizedValues, type NotAnObject } from "../model/normalize.js";
import { parallelFor } from "../validate/pass.js";
import {
  ACCOUNT_LICENSE_USERS,
  ACCOUNT_LICENSES,
  ACCOUNT_TABLES,
  ACCOUNT_USERS,
  type Cell,
} from "./_accountTables.js";
import { HttpError } from "./_http.js";
import type { BlobStore } from "./BlobStore.js";
import { type Database, processAlive, type Queryable } from "./Database.js";

/** How prices are read and shown by this server. */
export interface CurrencyOptions {
  displayCurrency: string;
  sourceCurrency: string;
  rates?: RateTable;
}

const BATCH = 2000;

/** Runs syncs against one database and blob store. */
export class SyncRunner {
  readonly #db: Database;
  readonly #blobs: BlobStore;
  readonly #currency: CurrencyOptions;

  constructor(db: Database, blobs: BlobStore, currency: CurrencyOptions) {
    this.#db = db;
    this.#blobs = blobs;
    this.#currency = currency;
  }

  /** Syncs file `fileId` into app account `appAccount`; throws an HttpError for 400/404/409. */
  async run(fileId: number, appAccount: number, format: "json" | "csv"): Promise<SyncSummary> {
    const started = performance.now();
    const { rows } = await this.#db.query<{ path: string; type: string }>(
      "SELECT path, type FROM files WHERE id = $1",
      [fileId],
    );
    const file = rows[0];
    if (!file) throw new HttpError(404, `file ${fileId} not found: register it with POST /v1.0/files first`);
    if (file.type !== "customIntegrationData") {
      throw new HttpError(
        400,
        `file ${fileId} is of type ${file.type}; a sync needs a file registered as customIntegrationData`,
      );
    }
    const size = await this.#blobs.size(file.path);
    if (size === null)
      throw new HttpError(404, `the bytes of file ${fileId} are gone from storage (${file.path})`);
    const syncId = await this.#lock(fileId, appAccount, format);
    const writer = new RowCollector();
    try {
      const report = await normalize(this.#blobs.read(file.path, { highWaterMark: 1 << 16 }), writer, {
        format,
        file: file.path,
        parallel: parallelFor("auto", size), // a large CSV is parsed on a worker thread

        displayCurrency: this.#currency.displayCurrency,
        sourceCurrency: this.#currency.sourceCurrency,
        ...(this.#currency.rates ? { rates: this.#currency.rates } : {}),
      });
      if (!report.valid) {
        await this.#finish(syncId, "invalid", null);
        throw new HttpError(
          400,
          `the file is invalid: ${report.counts.error} error${report.counts.error === 1 ? "" : "s"}, first: ${report.findings.find((f) => f.severity === "error")?.message ?? "see report"}`,
          { report },
        );
      }
      await this.#load(syncId, writer);
      const summary: SyncSummary = {
        idSync: syncId,
        idFile: fileId,
        idAppAccount: appAccount,
        format,
        users: writer.users.length,
        activeUsers: writer.activeUsers,
        licenses: writer.licenses.length,
        licenseUsers: writer.licenseUsers.length,
        warnings: report.counts.warning,
        displayCurrency: this.#currency.displayCurrency,
        durationMs: 0,
      };
      summary.durationMs = Math.round(performance.now() - started);
      const previous = await this.#db.transaction(async (tx) => {
        const { rows: before } = await tx.query<{ current_sync: number | null }>(
          "SELECT current_sync FROM app_accounts WHERE id = $1 FOR UPDATE",
          [appAccount],
        );
        await tx.query(
          `INSERT INTO app_accounts (id, current_sync, updated_at) VALUES ($1, $2, now())
           ON CONFLICT (id) DO UPDATE SET current_sync = $2, updated_at = now()`,
          [appAccount, syncId],
        );
        await this.#finish(syncId, "applied", summary, tx);
        return before[0]?.current_sync ?? null;
      });
      if (previous !== null) await deleteSyncRows(this.#db, previous);
      return summary;
    } catch (error) {
      if (!(error instanceof HttpError)) {
        await this.#finish(syncId, "failed", null).catch(() => {});
        await deleteSyncRows(this.#db, syncId).catch(() => {});
      }
      throw error;
    } finally {
      writer.dispose();
      await this.#db.query("DELETE FROM sync_lock WHERE sync_id = $1", [syncId]).catch(() => {});
    }
  }

  /** Starts a sync and takes the lock (from a dead holder too); 409 while a live one holds it. */
  async #lock(fileId: number, appAccount: number, format: string): Promise<number> {
    const { rows } = await this.#db.query<{ id: number }>(
      "INSERT INTO syncs (app_account, file_id, format, state, started_at) VALUES ($1, $2, $3, 'running', now()) RETURNING id",
      [appAccount, fileId, format],
    );
    const syncId = (rows[0] as { id: number }).id;
    for (let attempt = 0; attempt < 2; attempt++) {
      const taken = await this.#db.query(
        "INSERT INTO sync_lock (id, sync_id, holder_pid, started_at) VALUES (1, $1, $2, now()) ON CONFLICT (id) DO NOTHING",
        [syncId, process.pid],
      );
      if (taken.rowCount === 1) return syncId;
      const { rows: held } = await this.#db.query<{ sync_id: number; holder_pid: number; started_at: Date }>(
        "SELECT sync_id, holder_pid, started_at FROM sync_lock WHERE id = 1",
      );
      const holder = held[0];
      if (holder && processAlive(holder.holder_pid)) {
        await this.#finish(syncId, "rejected", null);
        throw new HttpError(
          409,
          `another sync is running (sync ${holder.sync_id}, started ${holder.started_at.toISOString()}); only one sync runs at a time: try again when it ends`,
        );
      }
      if (holder) await abandonSync(this.#db, holder.sync_id);
    }
    await this.#finish(syncId, "rejected", null);
    throw new HttpError(409, "another sync is starting; try again in a moment");
  }

  async #finish(
    syncId: number,
    state: string,
    summary: SyncSummary | null,
    on: Queryable = this.#db,
  ): Promise<void> {
    await on.query("UPDATE syncs SET state = $2, finished_at = now(), summary = $3 WHERE id = $1", [
      syncId,
      state,
      summary === null ? null : JSON.stringify(summary),
    ]);
  }

  /** The collected rows into the account tables under `syncId`, in batches. */
  async #load(syncId: number, rows: RowCollector): Promise<void> {
    await inBatches(rows.users, (batch) =>
      this.#db.query(ACCOUNT_USERS.insert, ACCOUNT_USERS.parameters(syncId, {}, batch)),
    );
    const currency = this.#currency.displayCurrency;
    await inBatches(rows.licenses, (batch) =>
      this.#db.query(ACCOUNT_LICENSES.insert, ACCOUNT_LICENSES.parameters(syncId, { currency }, batch)),
    );
    await inBatches(rows.licenseUsers, (batch) =>
      this.#db.query(ACCOUNT_LICENSE_USERS.insert, ACCOUNT_LICENSE_USERS.parameters(syncId, {}, batch)),
    );
  }
}

/** Marks a sync whose server died as abandoned, drops its rows and its lock. */
export async function abandonSync(db: Database, syncId: number): Promise<void> {
  await db.query(
    "UPDATE syncs SET state = 'abandoned', finished_at = now() WHERE id = $1 AND state = 'running'",
    [syncId],
  );
  await deleteSyncRows(db, syncId);
  await db.query("DELETE FROM sync_lock WHERE sync_id = $1", [syncId]);
}

/** At start: locks held by processes that are gone, and the rows of syncs that never finished. */
export async function recoverSyncs(db: Database): Promise<void> {
  const { rows } = await db.query<{ sync_id: number; holder_pid: number }>(
    "SELECT sync_id, holder_pid FROM sync_lock",
  );
  for (const lock of rows) if (!processAlive(lock.holder_pid)) await abandonSync(db, lock.sync_id);
  const { rows: stale } = await db.query<{ id: number }>(
    "SELECT id FROM syncs WHERE state = 'running' AND id NOT IN (SELECT sync_id FROM sync_lock)",
  );
  for (const sync of stale) await abandonSync(db, sync.id);
}

async function deleteSyncRows(db: Queryable, syncId: number): Promise<void> {
  for (const table of ACCOUNT_TABLES) {
    await db.query(`DELETE FROM ${table.name} WHERE sync_id = $1`, [syncId]);
  }
}

/**
 * A DocumentWriter that keeps the sync-ready rows, in memory up to a point and then on disk. A
 * value the pass could not normalise (handed on as read) it skips: only a file with errors has
 * one, and such a file's rows are never loaded.
 */
class RowCollector implements DocumentWriter<NormalizedValues> {
  readonly users = new SpillList<Cell[]>(50_000);
  readonly licenses = new SpillList<Cell[]>(50_000);
  readonly licenseUsers = new SpillList<Cell[]>(50_000);
  activeUsers = 0;
  readonly #perLicense = new Map<number, number>();

  user(u: NormalizedValues["user"]): void {
    if (notAnObject(u)) return;
    if (u.status === "active") this.activeUsers++;
    this.users.push(ACCOUNT_USERS.row(u, this.users.length));
  }

  license(index: number, l: NormalizedValues["license"]): void {
    if (notAnObject(l)) return;
    this.licenses.push(ACCOUNT_LICENSES.row(l, index));
  }

  licenseUser(licenseIndex: number, holder: NormalizedValues["licenseUser"]): void {
    if (!isNormalizedLicenseUser(holder)) return;
    const idx = this.#perLicense.get(licenseIndex) ?? 0;
    this.#perLicense.set(licenseIndex, idx + 1);
    this.licenseUsers.push(ACCOUNT_LICENSE_USERS.row(holder, idx, licenseIndex));
  }

  end(): void {}

  dispose(): void {
    this.users.dispose();
    this.licenses.dispose();
    this.licenseUsers.dispose();
  }
}

function notAnObject<T extends object>(value: T | NotAnObject): value is NotAnObject {
  return typeof value !== "object" || value === null || Array.isArray(value);
}

async function inBatches<T>(rows: Iterable<T>, insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  let batch: T[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === BATCH) {
      await insert(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await insert(batch);
}
