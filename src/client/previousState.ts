// The state `syncfile push` keeps for the next push of an account (the copy of the file last
// synced from here, and the id of its file), and how the previous state is found from it: read
// through the state-file helper, never through a link; a state file that cannot be read is a
// warning, never a failure.

import { createHash } from "node:crypto";
import { join } from "node:path";
import { describeIoError } from "syncfile/internal/bytes/ioError.js";
import {
  readStateFile,
  stateFileExists,
  stateHome,
  writeStateFile,
} from "syncfile/internal/bytes/stateFile.js";
import type { SyncList } from "syncfile/internal/http/operations.js";
import { ApiError } from "./ApiError.js";
import type { Client } from "./createClient.js";
import type { PreviousState } from "./pushFile.js";

/** Where the last file pushed to this account of this service is kept (without its extension). */
export function pushState(flags: { baseUrl?: string; appAccount: number }): string {
  const dir = stateHome();
  const service = createHash("sha256")
    .update(new URL(flags.baseUrl ?? "").href)
    .digest("hex")
    .slice(0, 16);
  return join(dir, "pushed", `${service}-account-${flags.appAccount}`);
}

/** The account's previous state to compare with, what it is, and what could not be read on the way. */
export interface Previous {
  state: PreviousState;
  label: string;
  warnings: string[];
  /** The service's own guard, when it says one (syncfile serve's syncs list): 0, off. */
  serviceMaxDeletes: number | null;
}

/**
 * The account's previous state: the last file pushed to it from here, unless the service says
 * (syncfile serve's history, GET /v1.0/appAccounts/{id}/syncs) that another file made its
 * state since — then that file, downloaded into `scratch`. A 404 (an account never synced, or
 * a service without that read) leaves the last push from here; any other failure to read it
 * is thrown (a service that cannot be reached is no first push). A state file that cannot be
 * read is a warning: the service's record is compared with where there is one; else the state
 * is lost, and pushFile's guard asks for --allow-deletes.
 */
export async function previousState(
  client: Client,
  appAccount: number,
  state: string,
  scratch: string,
  signal: AbortSignal,
): Promise<Previous> {
  const local = await previousPush(state);
  const fromHere: Previous = {
    state: local,
    label: "the last push to this account from here",
    warnings: [],
    serviceMaxDeletes: null,
  };
  const list = await syncList(client, appAccount, 100, signal);
  // a service without that read (the service's own answers 404), or an account never synced
  if (list === null) return fromHere;
  const serviceMaxDeletes = guardOf(list);
  const current = Array.isArray(list.syncs) ? list.syncs.find((sync) => sync.current) : undefined;
  if (!current) return { ...fromHere, state: null, serviceMaxDeletes };
  const instead = "comparing with the service's record instead";
  const warnings: string[] = [];
  if (local !== null && "lost" in local) warnings.push(stateWarning(local.lost, local.reason, instead));
  const synced = await syncedFile(state).catch((error: Error) => {
    warnings.push(stateWarning(`${state}.synced.json`, describeStateError(error), instead));
    return null;
  });
  if (local !== null && "kept" in local && synced === current.idFile)
    return { ...fromHere, serviceMaxDeletes };
  const saved = await client.downloadFile(current.idFile, join(scratch, `previous.${current.format}`), {
    signal,
  });
  return {
    state: saved.path,
    label: `the service's record of app account ${appAccount} (sync ${current.idSync}, file ${current.idFile})`,
    warnings,
    serviceMaxDeletes,
  };
}

/**
 * The service's own guard for `appAccount` (syncfile serve --max-deletes, in its syncs list),
 * for a push compared with a file of its own (--against); null when the service says none (a
 * 404: an account never synced, which no sync can take users from, or a service without that
 * read). Any other failure is thrown.
 */
export async function serviceGuard(
  client: Client,
  appAccount: number,
  signal: AbortSignal,
): Promise<number | null> {
  const list = await syncList(client, appAccount, 1, signal);
  return list === null ? null : guardOf(list);
}

/** The account's syncs list, or null on a 404. */
async function syncList(
  client: Client,
  appAccount: number,
  limit: number,
  signal: AbortSignal,
): Promise<SyncList | null> {
  try {
    return await client.appAccountSyncs(appAccount, { limit, signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && !signal.aborted) return null;
    throw error;
  }
}

/** The threshold a syncs list says (a service that says none: null). */
function guardOf(list: SyncList): number | null {
  const { maxDeletes } = list as Partial<SyncList>;
  return typeof maxDeletes === "number" && Number.isSafeInteger(maxDeletes) && maxDeletes >= 0
    ? maxDeletes
    : null;
}

/**
 * Keeps, beside the state `saveAs` made (`state`), which file the sync made the account's state
 * from, for the next push to tell whether it still does.
 */
export async function rememberSynced(state: string, idFile: number): Promise<void> {
  await writeStateFile(`${state}.synced.json`, JSON.stringify({ idFile }));
}

/**
 * The id of the file whose sync the last push from here made (kept in `state`.synced.json), or
 * null when there is none; an error when it cannot be read (SyntaxError: empty, cut short, or
 * not what push writes).
 */
async function syncedFile(state: string): Promise<number | null> {
  const text = await readStateFile(`${state}.synced.json`);
  if (text === null) return null;
  const idFile = (JSON.parse(text) as { idFile?: unknown } | null)?.idFile;
  if (typeof idFile !== "number") throw new SyntaxError("no idFile");
  return idFile;
}

/**
 * The last file pushed from here (`state` with .json or .csv): `{kept}`, or `{lost}` when it
 * is a link or cannot be read, or null for a first push.
 */
async function previousPush(state: string): Promise<Exclude<PreviousState, string>> {
  for (const extension of [".json", ".csv"]) {
    const path = `${state}${extension}`;
    try {
      if (await stateFileExists(path)) return { kept: path };
    } catch (error) {
      return { lost: path, reason: describeStateError(error) };
    }
  }
  return null;
}

/** The warning for a state file that cannot be read, and what push does without it. */
export function stateWarning(path: string, reason: string, instead: string): string {
  return `syncfile: warning: the push state ${path} cannot be read (${reason}): ${instead}\n`;
}

/** Why a state file cannot be read or written, in words. */
export function describeStateError(error: unknown): string {
  if (error instanceof SyntaxError) return "empty or cut short: a crash, a full disk?";
  switch ((error as NodeJS.ErrnoException).code) {
    case "ELOOP":
      return "a symbolic link, which syncfile never follows there";
    case "ENOTDIR":
      return "not a folder (a file is in the way)";
    default:
      return describeIoError(error);
  }
}
