// The two syncs: a registered file, JSON (custom) or CSV (gluu, and its older alias
// custom/csv), into an app account; the sync's outcome as the service answers it.

import type { FastifyInstance, FastifyRequest } from "fastify";
import { ALLOW_DELETES_HEADER } from "syncfile/internal/http/operations.js";
import { badRequest, HttpError } from "../HttpError.js";
import type { SyncOutcome } from "../SyncRunner.js";
import { route, type ServerContext } from "./_context.js";
import { idValue, objectBody } from "./_schemas.js";

const SYNC_BODY = objectBody('{"idFile": <file id>, "idAppAccount": <app account id>}', {
  idFile: idValue("idFile"),
  idAppAccount: idValue("idAppAccount"),
});

export async function syncsRoutes(app: FastifyInstance, { syncs, metrics }: ServerContext): Promise<void> {
  const sync = (format: "json" | "csv") => async (request: FastifyRequest) => {
    const body = request.body as { idFile: number | string; idAppAccount: number | string };
    const fileId = Number(body.idFile);
    const account = Number(body.idAppAccount);
    const allowDeletes = request.headers[ALLOW_DELETES_HEADER] === "true";
    const started = performance.now();
    // each sync counted and logged once, however it ends
    const told = (sync: SyncOutcome | null) => {
      const durationMs = Math.round(performance.now() - started);
      const said = syncLine(sync, fileId, account, format, durationMs);
      metrics.syncs.inc({ outcome: said.outcome });
      metrics.syncSeconds.observe({ outcome: said.outcome }, durationMs / 1000);
      if (sync === null) request.log.error({ sync: said }, "sync");
      else if (sync.outcome === "refused") request.log.warn({ sync: said }, "sync refused by the guard");
      else request.log.info({ sync: said }, "sync");
    };
    let outcome: SyncOutcome;
    try {
      outcome = await syncs.run(fileId, account, format, {
        allowDeletes,
        syncedBy: request.apiKeyNumber ?? null,
      });
    } catch (error) {
      told(null);
      throw error;
    }
    told(outcome);
    return answer(fileId, account, outcome);
  };
  route(app, "syncCustom", { body: SYNC_BODY }, sync("json"));
  route(app, "syncGluu", { body: SYNC_BODY }, sync("csv"));
  // the path syncfile served the CSV sync at before it followed the service's document
  route(app, "syncCustomCsv", { body: SYNC_BODY }, sync("csv"));
}

/** What the log says of a sync: its outcome (null: it failed), counts and duration (no user's email). */
function syncLine(
  sync: SyncOutcome | null,
  idFile: number,
  idAppAccount: number,
  format: string,
  durationMs: number,
) {
  const line = { idFile, idAppAccount, format, durationMs };
  if (sync === null) return { ...line, outcome: "failed" };
  switch (sync.outcome) {
    case "done": {
      const { idSync, users, activeUsers, licenses, licenseUsers, warnings, changes } = sync.summary;
      const compared = changes
        ? { previousSync: changes.previousSync, counts: changes.counts, deletes: changes.deletes }
        : {};
      return {
        ...line,
        outcome: "applied",
        idSync,
        users,
        activeUsers,
        licenses,
        licenseUsers,
        warnings,
        ...compared,
      };
    }
    case "invalid":
      return { ...line, outcome: "invalid", errors: sync.report.counts.error };
    case "busy":
      return { ...line, outcome: "busy", runningSync: sync.syncId };
    case "refused":
      return {
        ...line,
        outcome: "refused",
        idSync: sync.syncId,
        maxDeletes: sync.maxDeletes,
        deletes: sync.changes.deletes,
        counts: sync.changes.counts,
      };
    default:
      return { ...line, outcome: sync.outcome };
  }
}

/** The body of a sync that was done, or the error that says why not. */
function answer(fileId: number, account: number, sync: SyncOutcome) {
  switch (sync.outcome) {
    case "done": // `success: true`, as the service's reference answers, and our summary beside it
      return { success: true, ...sync.summary };
    case "invalid": {
      const { counts, findings } = sync.report;
      const first = findings.find((f) => f.severity === "error")?.message ?? "see report";
      throw badRequest(
        `the file is invalid: ${counts.error} error${counts.error === 1 ? "" : "s"}, first: ${first}`,
        { report: sync.report },
      );
    }
    case "busy":
      throw new HttpError(
        409,
        `another sync is running (sync ${sync.syncId}, started ${sync.startedAt.toISOString()}); only one sync runs at a time: try again when it ends`,
      );
    case "refused": {
      const { deletes, previousSync } = sync.changes;
      const named = sync.takenAway.join(", ");
      throw new HttpError(
        409,
        `the sync would take away ${deletes} users (removed, or deactivated) of the account's state made by sync ${previousSync}, more than this server's --max-deletes ${sync.maxDeletes}; nothing was applied. First: ${named}${deletes > sync.takenAway.length ? ", …" : ""}. Check the file (cut short? a filter? the wrong sheet?); the changes are at GET /v1.0/appAccounts/${account}/syncs/${sync.syncId}/changes; to sync it anyway, send it again with the header ${ALLOW_DELETES_HEADER}: true`,
        {
          guard: {
            idSync: sync.syncId,
            maxDeletes: sync.maxDeletes,
            deletes,
            takenAway: sync.takenAway,
            changes: sync.changes,
          },
        },
      );
    }
    case "noFile":
      throw new HttpError(404, `file ${fileId} not found: register it with POST /v1.0/files first`);
    case "notData":
      throw badRequest(
        `file ${fileId} is of type ${sync.type}; a sync needs a file registered as customIntegrationData`,
      );
    case "noBytes":
      throw new HttpError(404, `the bytes of file ${fileId} are gone from storage (${sync.path})`);
  }
}
