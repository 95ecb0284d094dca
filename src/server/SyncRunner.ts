// A sync: the stored file streamed through the library (validate and normalise in one pass),
// its sync-ready records handed to the syncs repository, which keeps them until the file is
// known valid; a valid file's records are loaded under the new sync and applied at once. The
// run says how it went as an outcome (done, invalid with its report, busy, or why the file
// cannot be synced); the route turns that into a status. Before it applies, a sync is compared
// with the account's state (the history keeps what it changed), and the guard refuses one that
// would take away more users than the server's maxDeletes, unless the caller allows it.

import { setImmediate } from "node:timers/promises";
import { normalize, normalizeFile } from "syncfile/internal/convert/convert.js";
import { type Change, noChanges, takesAway } from "syncfile/internal/diff/Change.js";
import { changesOf, DiffSide, partitionsFor, Tally } from "syncfile/internal/diff/compare.js";
import type { SyncChanges, SyncSummary } from "syncfile/internal/http/operations.js";
import type { DocumentWriter } from "syncfile/internal/model/DocumentWriter.js";
import type { RateTable } from "syncfile/internal/model/money.js";
import {
  isNormalizedLicenseUser,
  type NormalizedValues,
  type NotAnObject,
} from "syncfile/internal/model/normalize.js";
import { parallelFor } from "syncfile/internal/pass/runPass.js";
import type { Report } from "syncfile/internal/report/Report.js";
import type {
  CurrentSync,
  FilesRepository,
  StoredFile,
  SyncRows,
  SyncsRepository,
} from "./repositories/types.js";
import type { ObjectStore } from "./storage/types.js";

/** How prices are read and shown by this server. */
export interface CurrencyOptions {
  displayCurrency: string;
  sourceCurrency: string;
  rates?: RateTable;
}

/** The users a refusal of the guard names. */
const NAMED_DELETES = 20;
/** The changes stored a statement. */
const CHANGES_A_STATEMENT = 2000;

/** How a sync went. */
export type SyncOutcome =
  | { outcome: "done"; summary: SyncSummary }
  | { outcome: "invalid"; report: Report }
  | { outcome: "busy"; syncId: number; startedAt: Date }
  | { outcome: "refused"; syncId: number; maxDeletes: number; changes: SyncChanges; takenAway: string[] }
  | { outcome: "noFile" }
  | { outcome: "notData"; type: string }
  | { outcome: "noBytes"; path: string };

/** Runs syncs against the repositories and the blob store. */
export class SyncRunner {
  readonly #files: FilesRepository;
  readonly #syncs: SyncsRepository;
  readonly #blobs: ObjectStore;
  readonly #currency: CurrencyOptions;
  readonly #maxDeletes: number;

  /** `maxDeletes`: the most users a sync may take away unless allowed to; 0, any number. */
  constructor(
    files: FilesRepository,
    syncs: SyncsRepository,
    blobs: ObjectStore,
    currency: CurrencyOptions,
    maxDeletes = 0,
  ) {
    this.#files = files;
    this.#syncs = syncs;
    this.#blobs = blobs;
    this.#currency = currency;
    this.#maxDeletes = maxDeletes;
  }

  /** The guard's threshold (0: off), said in an account's syncs list so a dry run can judge by it. */
  get maxDeletes(): number {
    return this.#maxDeletes;
  }

  /**
   * Syncs file `fileId` into app account `appAccount` for API key `syncedBy` (its place from 1 in
   * the server's list; the history names it); `allowDeletes` passes the guard.
   */
  async run(
    fileId: number,
    appAccount: number,
    format: "json" | "csv",
    { allowDeletes = false, syncedBy = null }: { allowDeletes?: boolean; syncedBy?: number | null } = {},
  ): Promise<SyncOutcome> {
    const started = performance.now();
    const file = await this.#files.file(fileId);
    if (!file) return { outcome: "noFile" };
    if (file.type !== "customIntegrationData") return { outcome: "notData", type: file.type };
    const size = await this.#blobs.size(file.path, file.pin);
    if (size === null) return { outcome: "noBytes", path: file.path };
    const lock = await this.#syncs.start(fileId, appAccount, format, syncedBy);
    if ("busy" in lock) return { outcome: "busy", ...lock.busy };
    const { syncId } = lock;
    let collector: RowCollector | null = null;
    try {
      // the file's records go to the rows to load, and to the side its comparison reads: an
      // account's first sync has nothing to compare with, and keeps no side (the lock holds
      // the account's state as it is until this sync applies)
      const previous = await this.#syncs.currentSync(appAccount);
      const side = previous ? new DiffSide(partitionsFor(size)) : null;
      collector = new RowCollector(this.#syncs.rows(syncId, this.#currency.displayCurrency), side);
      const { displayCurrency } = this.#currency;
      const report = await this.#normalize(file, format, size, collector);
      if (!report.valid) {
        await this.#syncs.end(syncId, "invalid");
        return { outcome: "invalid", report };
      }
      await this.#syncs.load(collector.rows);
      const { takenAway, ...changes } = await this.#compare(syncId, appAccount, previous, collector);
      const maxDeletes = this.#maxDeletes;
      if (maxDeletes > 0 && changes.deletes > maxDeletes && !allowDeletes) {
        await this.#syncs.end(syncId, "refused");
        return { outcome: "refused", syncId, maxDeletes, changes, takenAway };
      }
      const summary: SyncSummary = {
        idSync: syncId,
        idFile: fileId,
        idAppAccount: appAccount,
        format,
        users: collector.rows.users,
        activeUsers: collector.activeUsers,
        licenses: collector.rows.licenses,
        licenseUsers: collector.rows.licenseUsers,
        warnings: report.counts.warning,
        displayCurrency,
        durationMs: Math.round(performance.now() - started),
        changes,
      };
      await this.#syncs.apply(syncId, appAccount, summary);
      return { outcome: "done", summary };
    } catch (error) {
      await this.#syncs.end(syncId, "failed").catch(() => {});
      throw error;
    } finally {
      collector?.rows.dispose();
      collector?.side?.dispose();
      await this.#syncs.release(syncId).catch(() => {});
    }
  }

  /**
   * The normalising pass over the stored `file` (`size` bytes) into `writer`; a large file's
   * is parsed on a worker thread unless `oneThread`.
   */
  async #normalize(
    file: StoredFile,
    format: "json" | "csv",
    size: number,
    writer: DocumentWriter<NormalizedValues>,
    oneThread = false,
  ): Promise<Report> {
    const { displayCurrency, sourceCurrency, rates } = this.#currency;
    const options = {
      format,
      file: file.path,
      // the service reads its own layout only: an export is read through a profile or a
      // mapping on the client (push, the page), which uploads the JSON it makes
      ...(format === "csv" ? { profile: "none" } : {}),
      parallel: !oneThread && parallelFor("auto", size),
      displayCurrency,
      sourceCurrency,
      ...(rates ? { rates } : {}),
    };
    // a file on this machine's disk is read by the worker itself (its name is the path in the report)
    const local = this.#blobs.localFile?.(file.path);
    return local !== undefined
      ? normalizeFile(local, writer, options)
      : normalize(await this.#blobs.read(file.path, file.pin), writer, options);
  }

  /**
   * The account's state read into a side: the file of the sync that made it, read again from
   * the storage (a pass over a file is faster than reading millions of rows back), or, when
   * its bytes are gone, its rows read back from the database a page at a time.
   */
  async #readState(previous: CurrentSync, partitions: number): Promise<DiffSide> {
    const file = await this.#files.file(previous.fileId);
    const size = file ? await this.#blobs.size(file.path, file.pin) : null;
    if (file && size !== null) {
      const side = new DiffSide(partitions);
      try {
        // in this thread: a second thread's memory (its heap, its chunks), on top of the sync's,
        // took the server past 400 MB on a 1 GB file, and saved no time
        if ((await this.#normalize(file, previous.format, size, side, true)).valid) return side;
      } catch {
        // the stored file cannot be read now: its rows can
      }
      side.dispose();
    }
    const side = new DiffSide(partitions);
    try {
      await this.#syncs.readState(previous.syncId, side);
      return side;
    } catch (error) {
      side.dispose();
      throw error;
    }
  }

  /**
   * What sync `syncId` (loaded, not applied) changes in `appAccount`'s state (made by sync
   * `previous`), compared with the file's records as `syncfile diff` compares two files; the
   * changes stored a batch at a time, the thread given back between steps (requests are
   * answered meanwhile). An account's first sync adds all it holds.
   */
  async #compare(
    syncId: number,
    appAccount: number,
    previous: CurrentSync | null,
    collector: RowCollector,
  ): Promise<SyncChanges & { takenAway: string[] }> {
    const after = collector.side;
    if (previous === null || after === null) {
      const counts = noChanges();
      counts["user.added"] = collector.rows.users;
      counts["license.added"] = collector.rows.licenses;
      counts["assignment.granted"] = collector.rows.licenseUsers;
      const changes = { previousSync: null, counts, deletes: 0 };
      await this.#syncs.recordChanges(syncId, appAccount, changes);
      return { ...changes, takenAway: [] };
    }
    const before = await this.#readState(previous, after.partitions);
    try {
      const takenAway: string[] = [];
      let batch: Change[] = [];
      let stored = 0;
      const tally = new Tally((change) => {
        batch.push(change);
        if (takesAway(change) && takenAway.length < NAMED_DELETES) takenAway.push(change.email);
      });
      const store = async () => {
        for (let i = 0; i < batch.length; i += CHANGES_A_STATEMENT) {
          const some = batch.slice(i, i + CHANGES_A_STATEMENT);
          await this.#syncs.addChanges(syncId, stored, some);
          stored += some.length;
        }
        batch = [];
      };
      for (const _ of changesOf(before, after, false, tally.tell)) {
        await store();
        await setImmediate();
      }
      await store();
      const changes = { previousSync: previous.syncId, counts: tally.counts, deletes: tally.deletes };
      await this.#syncs.recordChanges(syncId, appAccount, changes);
      return { ...changes, takenAway };
    } finally {
      before.dispose();
    }
  }
}

/**
 * The DocumentWriter a sync's pass writes to: counts the active users, numbers each license's
 * holders, and hands the records to the repository's rows. A value the pass could not
 * normalise (handed on as read) it skips: only a file with errors has one, and such a file's
 * rows are never loaded.
 */
class RowCollector implements DocumentWriter<NormalizedValues> {
  activeUsers = 0;
  readonly #perLicense = new Map<number, number>();

  constructor(
    readonly rows: SyncRows,
    /** The file's side of the comparison with the account's state; null when it has none. */
    readonly side: DiffSide | null,
  ) {}

  user(u: NormalizedValues["user"]): void {
    if (notAnObject(u)) return;
    if (u.status === "active") this.activeUsers++;
    this.rows.user(u);
    this.side?.user(u);
  }

  license(index: number, l: NormalizedValues["license"]): void {
    if (notAnObject(l)) return;
    this.rows.license(index, l);
    this.side?.license(index, l);
  }

  licenseUser(licenseIndex: number, holder: NormalizedValues["licenseUser"]): void {
    if (!isNormalizedLicenseUser(holder)) return;
    const index = this.#perLicense.get(licenseIndex) ?? 0;
    this.#perLicense.set(licenseIndex, index + 1);
    this.rows.licenseUser(licenseIndex, index, holder);
    this.side?.licenseUser(licenseIndex, holder);
  }

  end(): void {
    this.side?.end();
  }
}

function notAnObject<T extends object>(value: T | NotAnObject): value is NotAnObject {
  return typeof value !== "object" || value === null || Array.isArray(value);
}
