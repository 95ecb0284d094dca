// The project's own server for tests: started on a free port over real HTTP, with a clock
// the test moves, and plain fetch calls (not the client) for the interface's steps.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  closeSync,
  constants,
  cpSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type ServerOptions, type SyncfileServer } from "../../src/server/index.js";
import { Database } from "../../src/server/repositories/Database.js";
import { cli, root } from "./paths.js";
import { BACKEND, createTestDatabase } from "./postgres.js";
import type { FaultyProxy } from "./proxy.js";
import { stopS3, type TestBucket, testBucket } from "./s3.js";

/** A clock a test moves by hand. */
export class TestClock {
  now: number;

  constructor(start = Date.parse("2026-11-21T10:00:00Z")) {
    this.now = start;
  }

  readonly read = () => this.now;

  advance(ms: number): void {
    this.now += ms;
  }
}

/**
 * The client's clock over a TestClock: a wait moves the time forward by its length at once,
 * so that waits of minutes take no time (the limiter reads the time again after each wait).
 */
export function clientClock(clock: TestClock): { now(): number; sleep(ms: number): Promise<void> } {
  return {
    now: () => clock.now,
    sleep: async (ms: number) => {
      clock.advance(Math.max(0, ms));
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

export const KEY = "test-key-1";
export const OTHER_KEY = "test-key-2";

const made: string[] = [];
let template: Promise<string> | null = null;

/**
 * A fresh data directory, with an empty database copied from a template made once (creating a
 * PostgreSQL cluster takes seconds; copying a closed one, milliseconds).
 */
export async function dataDir(): Promise<string> {
  if (BACKEND === "postgres") {
    const dir = mkdtempSync(join(tmpdir(), "syncfile-server-test-")); // blobs only: the metadata is in PostgreSQL
    made.push(dir);
    return dir;
  }
  return embeddedDataDir();
}

/**
 * A fresh data directory with an empty embedded database, whichever backend the project
 * tests: copied from the run's template (test/support/templateSetup.ts), or from one made
 * here when no global setup made it.
 */
export async function embeddedDataDir(): Promise<string> {
  const shared = process.env.SYNCFILE_TEST_TEMPLATE;
  template ??= shared
    ? Promise.resolve(shared)
    : (async () => {
        const dir = mkdtempSync(join(tmpdir(), "syncfile-server-template-"));
        made.push(dir);
        await (await Database.open(dir)).close();
        return dir;
      })();
  const dir = mkdtempSync(join(tmpdir(), "syncfile-server-test-"));
  made.push(dir);
  cpSync(join(await template, "db"), join(dir, "db"), { recursive: true });
  return dir;
}

/** Where the test servers keep their files: on disk, or (with PostgreSQL) in a bucket. */
export const STORAGE: "disk" | "s3" = BACKEND === "postgres" ? "s3" : "disk";

/** The buckets the tests made, by location (s3://name/) and by the URL of each server that uses one. */
const buckets = new Map<string, TestBucket>();

/** Deletes every data directory and bucket the tests made (afterAll). */
export async function removeDataDirs(): Promise<void> {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  template = null;
  buckets.clear();
  await stopS3();
}

/** A new bucket (see test/support/s3.ts); a server given its `url` as storage is known to use it. */
export async function bucket(): Promise<TestBucket> {
  const made = await testBucket();
  buckets.set(`s3://${made.name}/`, made);
  return made;
}

/** The test bucket the server at `base` keeps its files in, or null when it keeps them on disk. */
export function bucketOf(base: string): TestBucket | null {
  return buckets.get(base) ?? null;
}

/**
 * A server on a free port with the test keys, a test clock and no background report timer; on
 * the backend the test project runs (in the e2e-postgres project: a new PostgreSQL database and
 * a new bucket).
 */
export async function startServer(
  options: Partial<ServerOptions> & { clock?: () => number } = {},
): Promise<SyncfileServer> {
  const server = await createServer({
    dataDir: options.dataDir ?? (await dataDir()),
    ...(BACKEND === "postgres"
      ? { database: await createTestDatabase(), storage: (await bucket()).url }
      : {}),
    port: 0,
    apiKeys: [KEY, OTHER_KEY],
    backgroundReports: false,
    reportDelayMs: 5000,
    ...options,
  });
  const used = buckets.get(server.storage); // s3://name/, as the server says where its files are
  if (used) buckets.set(server.url, used);
  return server;
}

/**
 * Where the storage requests of the server at `base` pass when a client reaches the server
 * through `proxy`: `proxy` itself for the disk storage (its URLs point back at the server, and
 * so through the proxy), the bucket's proxy for S3; and the request line of a storage `method`.
 */
export function storageTraffic(
  base: string,
  proxy: FaultyProxy,
): { proxy: FaultyProxy; line(method: "GET" | "PUT"): RegExp } {
  const stored = bucketOf(base);
  return stored
    ? { proxy: stored.proxy, line: (method) => new RegExp(`^${method} /${stored.name}/`) }
    : { proxy, line: (method) => new RegExp(`^${method} /storage/`) };
}

/** Deletes the stored object at `path` of the server at `base` (with data directory `data`). */
export async function removeObject(base: string, data: string, path: string): Promise<void> {
  const stored = bucketOf(base);
  if (stored) await stored.remove(path);
  else rmSync(join(data, "blobs", path));
}

/** The emails of the users the service at `base` shows for `account` (its active ones), sorted, every page. */
export async function shownEmails(base: string, account: number): Promise<string[]> {
  const emails: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await call(base, "GET", `/v1.0/appAccounts/${account}/users?limit=1000&offset=${offset}`);
    const users = (page.body.users as { email: string }[] | undefined) ?? [];
    emails.push(...users.map((u) => u.email));
    if (users.length < 1000) return emails.sort();
  }
}

/** fetch against `base` with the key (unless `key: null`), JSON in and out. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: {
    key?: string | null;
    json?: unknown;
    body?: string;
    headers?: Record<string, string>;
    redirect?: "manual" | "follow";
  } = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers; text: string }> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const key = options.key === undefined ? KEY : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined = options.body;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    redirect: options.redirect ?? "manual",
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {}
  return { status: response.status, body: parsed, headers: response.headers, text };
}

/**
 * The upload procedure (docs/serve.md, its endpoints):
 * upload URL, PUT to storage, register; resolves to the file id.
 */
export async function upload(
  base: string,
  name: string,
  bytes: Uint8Array | string,
  options: { contentType?: string; type?: string } = {},
): Promise<number> {
  return (await uploadFile(base, name, bytes, options)).id;
}

/** The upload procedure; resolves to the file's id and its path in storage. */
export async function uploadFile(
  base: string,
  name: string,
  bytes: Uint8Array | string,
  options: { contentType?: string; type?: string } = {},
): Promise<{ id: number; filePath: string }> {
  const contentType = options.contentType ?? (name.endsWith(".csv") ? "text/csv" : "application/json");
  const url = await call(
    base,
    "GET",
    `/v1.0/files/url?name=${encodeURIComponent(name)}&type=${encodeURIComponent(contentType)}`,
  );
  if (url.status !== 200) throw new Error(`upload URL: ${url.status} ${url.text}`);
  const { url: target, filePath } = url.body.uploadFileParameters as { url: string; filePath: string };
  // a copy of its own, an ArrayBuffer's (the DOM's fetch, which the page's tests see, wants that)
  const body = typeof bytes === "string" ? bytes : new Uint8Array(bytes);
  const put = await fetch(target, { method: "PUT", headers: { "content-type": contentType }, body });
  if (put.status !== 200) throw new Error(`storage PUT: ${put.status} ${await put.text()}`);
  const registered = await call(base, "POST", "/v1.0/files", {
    json: { path: filePath, type: options.type ?? "customIntegrationData" },
  });
  if (registered.status !== 200) throw new Error(`register: ${registered.status} ${registered.text}`);
  return { id: registered.body.id as number, filePath };
}

/** A valid data file of `n` users (each 2nd holding one of 5 licenses), about 150 bytes a user. */
export function bigDocument(n: number, domain = "example.com"): string {
  const users: string[] = [];
  const holders: string[][] = [[], [], [], [], []];
  for (let i = 0; i < n; i++) {
    users.push(
      JSON.stringify({
        id: String(i),
        email: `user${i}@${domain}`,
        firstName: "Ada",
        lastName: `L${i}`,
        status: i % 10 === 0 ? "deleted" : "active",
      }),
    );
    if (i % 2 === 0) (holders[i % 5] as string[]).push(JSON.stringify({ email: `user${i}@${domain}` }));
  }
  const licenses = holders.map(
    (h, k) => `{"name":"Plan ${k}","pricePerUser":${1000 + k},"users":[${h.join(",")}]}`,
  );
  return `{"users":[${users.join(",\n")}],"licenses":[${licenses.join(",")}]}`;
}

/** `syncfile serve` as a child process; resolves once it listens, with its URL. */
export function serveProcess(
  data: string,
  env: NodeJS.ProcessEnv = {},
  args: string[] = [],
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "serve", "--port", "0", "--data", data, ...args], {
      cwd: root,
      // no drain after SIGTERM unless a test asks for one: it stops at once
      env: { ...process.env, SYNCFILE_API_KEYS: `${KEY},${OTHER_KEY}`, SYNCFILE_DRAIN_DELAY: "0", ...env },
    });
    let out = "";
    const onData = (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      const url = m[1] as string;
      const storage = args[args.indexOf("--storage") + 1];
      const used =
        args.includes("--storage") && storage ? buckets.get(`s3://${new URL(storage).hostname}/`) : undefined;
      if (used) buckets.set(url, used);
      resolve({ child, url, output: () => out });
    };
    // the log on standard output, what serve prints for people (its address) on standard error
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`serve exited (${code}) before listening:\n${out}`)));
  });
}

/**
 * A stored data file whose bytes the test hands over when it chooses: its blob is replaced by a
 * named pipe, so a sync of it opens the pipe — holding the service's one-sync lock, taken
 * before the file is read — and reads only once `release()` writes the document. Nothing
 * depends on how fast the machine is: the test waits for `opened`, and the sync ends when
 * the test says. After the release the blob is the document again, for later syncs.
 */
export interface HeldFile {
  /** The registered file's id. */
  id: number;
  /** Resolves once a sync has opened the file: that sync holds the lock. */
  opened: Promise<void>;
  /** Writes the document to the sync that opened the file and ends it; resolves once written. */
  release(): Promise<void>;
  /** Gives up the pipe without writing (no sync opened it, or its server died): nothing stays blocked. */
  abandon(): void;
}

/** Uploads `document` into the server on `data` and holds it back (see HeldFile). */
export async function heldFile(base: string, data: string, document: string): Promise<HeldFile> {
  const { id, filePath } = await uploadFile(base, "held.json", document);
  const stored = bucketOf(base);
  if (stored) {
    // in a bucket: the proxy holds back the answer to the sync's GET of the object
    const key = filePath.split("/").map(encodeURIComponent).join("/").replace(/[.]/g, "\\.");
    const held = stored.proxy.holdNext(new RegExp(`^GET /${stored.name}/${key}[?]`));
    return { id, opened: held.seen, release: async () => held.release(), abandon: held.release };
  }
  const blob = join(data, "blobs", filePath);
  rmSync(blob);
  execFileSync("mkfifo", [blob]);
  // open() of a pipe for writing waits for its reader: the sync that opens the blob
  const writer = open(blob, "w");
  let released = false;
  const restore = () => {
    const regular = `${blob}.regular`;
    writeFileSync(regular, document);
    renameSync(regular, blob);
  };
  const release = async () => {
    if (released) return;
    released = true;
    const fd = await writer;
    try {
      await fd.writeFile(document);
    } finally {
      await fd.close();
    }
    restore();
  };
  const abandon = () => {
    if (released) return;
    released = true;
    // a reader of our own lets a pending open() for writing complete; then both close
    closeSync(openSync(blob, constants.O_RDONLY | constants.O_NONBLOCK));
    writer.then((fd) => fd.close()).catch(() => {});
    restore();
  };
  return { id, opened: writer.then(() => {}), release, abandon };
}

/**
 * Starts a sync of a held file (see HeldFile) and resolves once it holds the service, with
 * its answer (after `release()`).
 */
export async function holdSync(
  base: string,
  data: string,
  idAppAccount = 901,
): Promise<{
  answer: Promise<{ status: number; body: Record<string, unknown>; headers: Headers }>;
  release(): Promise<void>;
}> {
  const held = await heldFile(base, data, bigDocument(1000));
  const answer = call(base, "PUT", "/v1.0/services/sync/custom", {
    key: OTHER_KEY,
    json: { idFile: held.id, idAppAccount },
  });
  const early = answer.then((a) => {
    throw new Error(`the held sync answered before it read its file: ${a.status} ${a.text}`);
  });
  try {
    await Promise.race([held.opened, early]);
  } catch (error) {
    held.abandon();
    throw error;
  } finally {
    early.catch(() => {});
  }
  return { answer, release: held.release };
}
