// A job's source made a file: the newest file matching a path or glob (left for the next run
// while it is still being written), a command's standard output, or an HTTP GET's body — copied
// into the run's own temporary folder, with its size and SHA-256, so that what is validated,
// compared and pushed is one set of bytes that nothing changes under the run. A source only
// yields bytes: it validates nothing, keeps no state and retries nothing of the job's own.

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { redactText, redactUrl } from "syncfile/internal/text/redact.js";
import { glob } from "tinyglobby";
import { loadDriver } from "./_driver.js";
import { describeSource } from "./describeSource.js";
import { SourceError } from "./SourceError.js";
import type { SourceSpec as JobSource } from "./SourceSpec.js";
import { type SourceRecord, writeRecords } from "./writeRecords.js";

export { SourceError };

/** The source's bytes, in the run's folder. */
export interface SourceFile {
  /** The copy in the run's folder. */
  path: string;
  /** The name the source gives it (its format is told by it): people-2024-07-05.csv. */
  name: string;
  bytes: number;
  sha256: string;
  /** Where it came from, for the run's record: a path, a command, a URL (its secrets removed). */
  from: string;
}

/** What a source gave: its file, or nothing yet (no file matches, or the newest is still being written). */
export type Fetched = { kind: "file"; file: SourceFile } | { kind: "waiting"; reason: string };

/** How long a command's standard error is kept for its message. */
const STDERR_TAIL = 2000;

/** The bytes of `source`, copied into the folder `into`; `now` for how long a file has been still. */
export async function fetchSource(
  source: JobSource,
  into: string,
  options: { now?: () => number; signal?: AbortSignal } = {},
): Promise<Fetched> {
  const { signal } = options;
  switch (source.kind) {
    case "file":
      return fetchFile(source, into, options.now ?? Date.now);
    case "command":
      return { kind: "file", file: await fetchCommand(source, into, signal) };
    case "http":
      return { kind: "file", file: await fetchHttp(source, into, signal) };
    case "s3":
      return fetchObject(source, into, options.now ?? Date.now, signal);
    case "sql": {
      const { fetchSql } = await loadDriver("sql", ["pg", "pg-copy-streams"], () => import("./sql.js"));
      const target = join(into, "source.csv");
      let copied: { bytes: number; sha256: string } | null = null;
      await fetchSql(
        source,
        async (rows) => {
          copied = await copyCounting(rows, target, "the query failed");
        },
        signal,
      );
      return {
        kind: "file",
        file: {
          path: target,
          name: "source.csv",
          ...(copied as unknown as { bytes: number; sha256: string }),
          from: describeSource(source),
        },
      };
    }
    case "ldap": {
      const { ldapRecords } = await loadDriver("ldap", ["ldapts"], () => import("./ldap.js"));
      return recordsFile(ldapRecords(source, signal), into, describeSource(source));
    }
    case "scim": {
      const { scimRecords } = await import("./scim.js");
      return recordsFile(scimRecords(source, signal), into, describeSource(source));
    }
    case "json-api": {
      const { jsonApiRecords } = await import("./jsonApi.js");
      return recordsFile(jsonApiRecords(source, signal), into, describeSource(source));
    }
  }
}

/** Records made the CSV file the job reads, counted and hashed. */
async function recordsFile(
  records: AsyncIterable<SourceRecord>,
  into: string,
  from: string,
): Promise<Fetched> {
  const target = join(into, "source.csv");
  try {
    const { bytes, sha256 } = await writeRecords(records, target);
    return { kind: "file", file: { path: target, name: "source.csv", bytes, sha256, from } };
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError(`${from} could not be written down: ${redactText((error as Error).message)}`);
  }
}

/** An object of a bucket, once it has settled; or nothing yet. */
async function fetchObject(
  source: Extract<JobSource, { kind: "s3" }>,
  into: string,
  now: () => number,
  signal: AbortSignal | undefined,
): Promise<Fetched> {
  const { fetchS3 } = await loadDriver("s3", ["@aws-sdk/client-s3"], () => import("./s3.js"));
  let file: SourceFile | null = null;
  const found = await fetchS3(
    source,
    now,
    async (body, name, size, where) => {
      const target = join(into, name);
      const copied = await copyCounting(body, target, `the object ${where} was cut short`);
      if (size >= 0 && copied.bytes !== size) {
        throw new SourceError(`the object ${where} was cut short: ${copied.bytes} of ${size} bytes`);
      }
      file = { path: target, name, ...copied, from: where };
    },
    signal,
  );
  if (found.kind === "waiting") return found;
  return { kind: "file", file: file as unknown as SourceFile };
}

/** The newest file matching the path (a glob), once its size and time have stood still long enough. */
async function fetchFile(
  source: Extract<JobSource, { kind: "file" }>,
  into: string,
  now: () => number,
): Promise<Fetched> {
  let matches: string[];
  try {
    matches = await glob(source.path, { absolute: true, onlyFiles: true, expandDirectories: false });
  } catch (error) {
    throw new SourceError(`cannot look for ${source.path}: ${(error as Error).message}`);
  }
  if (matches.length === 0) return { kind: "waiting", reason: `no file matches ${source.path}` };
  const found = await Promise.all(
    matches.map(async (path) => ({ path, stats: await stat(path).catch(() => null) })),
  );
  const newest = found
    .filter((f) => f.stats !== null)
    .sort((a, b) => (b.stats?.mtimeMs ?? 0) - (a.stats?.mtimeMs ?? 0) || a.path.localeCompare(b.path))[0];
  if (!newest?.stats) return { kind: "waiting", reason: `no file matches ${source.path}` };
  const still = (now() - newest.stats.mtimeMs) / 1000;
  if (still < source.settleSeconds) {
    return {
      kind: "waiting",
      reason: `${newest.path} changed ${Math.max(0, Math.floor(still))} s ago: it may still be being written (settle: ${source.settleSeconds} s)`,
    };
  }
  const target = join(into, basename(newest.path));
  const copied = await copyCounting(
    () => createReadStream(newest.path),
    target,
    `cannot read ${newest.path}`,
  );
  // written to while it was copied: the copy is not one state of the file
  const after = await stat(newest.path).catch(() => null);
  if (after === null || after.size !== newest.stats.size || after.mtimeMs !== newest.stats.mtimeMs) {
    return { kind: "waiting", reason: `${newest.path} changed while it was read: it is still being written` };
  }
  return { kind: "file", file: { path: target, name: basename(newest.path), ...copied, from: newest.path } };
}

/** A command's standard output; a non-zero exit, a signal or an output cut short fails it. */
async function fetchCommand(
  source: Extract<JobSource, { kind: "command" }>,
  into: string,
  signal: AbortSignal | undefined,
): Promise<SourceFile> {
  const [program, ...args] = source.command as [string, ...string[]];
  // a database URL among the arguments: its password reaches no message and no record
  const said = redactText(source.command.join(" "));
  const child = spawn(program, args, {
    cwd: source.cwd,
    stdio: ["ignore", "pipe", "pipe"],
    ...(signal ? { signal } : {}),
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text: string) => {
    stderr = (stderr + text).slice(-STDERR_TAIL);
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, killed) => resolve({ code, signal: killed }));
  });
  const target = join(into, "source.out");
  let copied: { bytes: number; sha256: string };
  try {
    [copied] = await Promise.all([
      copyCounting(() => child.stdout, target, `cannot read the output of ${said}`),
      ended,
    ]);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SourceError(
      code === "ENOENT"
        ? `cannot run ${said}: ${program} is not there`
        : `cannot run ${said}: ${(error as Error).message}`,
    );
  }
  const end = await ended;
  if (end.code !== 0) {
    const why = end.signal ? `was stopped by ${end.signal}` : `exited with ${end.code}`;
    const tail =
      stderr.trim() === "" ? "" : `: ${redactText(stderr.trim().split("\n").slice(-3).join(" / "))}`;
    throw new SourceError(`${said} ${why}${tail}`);
  }
  return { path: target, name: "source.out", ...copied, from: said };
}

/** An HTTP GET's body; a status that is not 2xx, or a body cut short, fails it. */
async function fetchHttp(
  source: Extract<JobSource, { kind: "http" }>,
  into: string,
  signal: AbortSignal | undefined,
): Promise<SourceFile> {
  const from = redactUrl(source.url);
  let response: Response;
  try {
    response = await fetch(source.url, {
      headers: { ...source.headers },
      redirect: "follow",
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new SourceError(`cannot GET ${from}: ${redactText(cause ?? (error as Error).message)}`);
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new SourceError(`GET ${from} answered ${response.status} ${response.statusText}`.trim());
  }
  const name = basename(new URL(response.url || source.url).pathname) || "source.out";
  const target = join(into, "source.out");
  const copied = await copyCounting(
    () => Readable.fromWeb(response.body as import("node:stream/web").ReadableStream),
    target,
    `the body of GET ${from} was cut short`,
  );
  const length = response.headers.get("content-length");
  if (
    length !== null &&
    response.headers.get("content-encoding") === null &&
    Number(length) !== copied.bytes
  ) {
    throw new SourceError(`the body of GET ${from} was cut short: ${copied.bytes} of ${length} bytes`);
  }
  return { path: target, name, ...copied, from };
}

/** Copies what `open` streams into `target`, counting its bytes and hashing them on the way. */
async function copyCounting(
  open: () => NodeJS.ReadableStream,
  target: string,
  failure: string,
): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Uint8Array, _encoding, done) {
      bytes += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(open(), count, createWriteStream(target, { flags: "wx", mode: 0o600 }));
  } catch (error) {
    throw new SourceError(`${failure}: ${redactText((error as Error).message)}`);
  }
  return { bytes, sha256: hash.digest("hex") };
}
