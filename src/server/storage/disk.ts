// The default object storage: blobs as files under the data directory, reached through URLs
// of this server (routes/storage.ts) that carry their own authorisation — an HMAC over
// method, path, expiry and content type, with a secret kept in the data directory. A blob is
// written to a temporary file and renamed into place: a half-received upload never exists.
// Once a file is registered at a path its blob never changes: an upload to that path is
// refused, and the last step of an upload (the rename) and a registration never overlap.

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createReadStream, createWriteStream, mkdirSync, rmSync } from "node:fs";
import { access, constants, rename, rm, stat } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  replaceFile,
  syncFolder,
  syncToDisk,
  temporaryPathBeside,
} from "syncfile/internal/bytes/replaceFile.js";
import { createOnce } from "../_createOnce.js";
import type { FilesRepository, Upload } from "../repositories/types.js";
import { type ObjectStore, validObjectPath } from "./types.js";

/** What a signed URL's parameters say, checked. */
export type Verdict = "ok" | "expired" | "bad-signature" | "wrong-content-type";

/** An upload larger than allowed. */
export class TooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the upload is larger than the limit of ${limit} bytes`);
  }
}

/** An upload to a path whose file is registered: its blob does not change any more. */
export class Registered extends Error {
  constructor(readonly path: string) {
    super(`${path} is registered as a file and cannot change`);
  }
}

/** Blobs on disk, with signed URLs of this server; what was uploaded is noted in `files`. */
export class BlobStore implements ObjectStore {
  readonly location: string;
  readonly #root: string;
  readonly #secret: Buffer;
  readonly #files: FilesRepository;
  readonly #clock: () => number;
  /** Per path, the end of the last step that must not overlap another (see #exclusive). */
  readonly #busy = new Map<string, Promise<unknown>>();

  private constructor(dataDir: string, files: FilesRepository, clock: () => number) {
    this.location = dataDir;
    this.#root = join(dataDir, "blobs");
    mkdirSync(this.#root, { recursive: true });
    this.#secret = readOrCreateSecret(join(dataDir, "signing-secret"));
    this.#files = files;
    this.#clock = clock;
  }

  /** The store of `dataDir`; the signing secret is created on first use. */
  static open(dataDir: string, files: FilesRepository, clock: () => number): BlobStore {
    return new BlobStore(dataDir, files, clock);
  }

  async uploadUrl(path: string, contentType: string | null, ttlMs: number, origin: string): Promise<string> {
    const expires = this.#clock() + ttlMs;
    // signed for no content type (""): a PUT with any is taken
    const type = contentType ?? "";
    return storageUrl(origin, path, expires, type, this.sign("PUT", path, expires, type));
  }

  async downloadUrl(path: string, ttlMs: number, origin: string): Promise<string> {
    const expires = this.#clock() + ttlMs;
    return storageUrl(origin, path, expires, "", this.sign("GET", path, expires));
  }

  registerUpload<T>(path: string, register: (upload: Upload) => Promise<T>): Promise<T | null> {
    return this.#exclusive(path, async () => {
      const upload = await this.#files.upload(path);
      return upload && register(upload);
    });
  }

  /**
   * Receives an upload through a URL of this server: `body` (at most `maxBytes`) becomes the
   * blob at `path` and is noted as uploaded with `contentType`; resolves to its size. Refused
   * with Registered once a file is registered at `path` — checked before the body is read, so
   * a replayed URL is told at once, and again as the blob is put in place.
   */
  async accept(path: string, contentType: string, body: Readable, maxBytes: number): Promise<number> {
    if (await this.#files.registered(path)) throw new Registered(path);
    const file = this.#file(path);
    mkdirSync(dirname(file), { recursive: true });
    const temporary = temporaryPathBeside(file);
    try {
      const size = await this.#copy(body, temporary, maxBytes);
      // on the disk before it counts as uploaded: a power cut never leaves an upload empty
      await syncToDisk(temporary);
      await this.#exclusive(path, async () => {
        if (await this.#files.registered(path)) throw new Registered(path);
        await rename(temporary, file);
        await syncFolder(dirname(file));
        await this.#files.recordUpload(path, contentType, size);
      });
      return size;
    } finally {
      await rm(temporary, { force: true }); // after the rename there is nothing left to remove
    }
  }

  /** The content type a download of `path` is served with. */
  async contentType(path: string): Promise<string> {
    return (await this.#files.contentTypeAt(path)) ?? "application/octet-stream";
  }

  async remove(path: string): Promise<void> {
    rmSync(this.#file(path), { force: true });
  }

  /** The blobs' folder is there and writable (a full disk shows at the write itself). */
  async ping(): Promise<void> {
    await access(this.#root, constants.W_OK);
  }

  close(): void {}

  /** The signature of a URL that allows `method` on `path` until `expires` (ms since the epoch). */
  sign(method: "GET" | "PUT", path: string, expires: number, contentType = ""): string {
    return createHmac("sha256", this.#secret)
      .update(`${method}\n${path}\n${expires}\n${contentType}`)
      .digest("hex");
  }

  /** Checks a signed request: the signature first, then the content type it was signed for, then the expiry. */
  verify(
    method: "GET" | "PUT",
    path: string,
    params: { expires: number; contentType: string; signature: string },
    requestContentType: string | null,
    now: number,
  ): Verdict {
    const expected = Buffer.from(this.sign(method, path, params.expires, params.contentType), "hex");
    const given = Buffer.from(/^[0-9a-f]{64}$/.test(params.signature) ? params.signature : "", "hex");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "bad-signature";
    if (method === "PUT" && params.contentType !== "" && requestContentType !== params.contentType)
      return "wrong-content-type";
    if (now > params.expires) return "expired";
    return "ok";
  }

  /** Writes bytes to `path`, replacing what was there (a generated archive, registered after). */
  async write(path: string, bytes: Uint8Array, _contentType: string): Promise<null> {
    const file = this.#file(path);
    mkdirSync(dirname(file), { recursive: true });
    await replaceFile(file, (temporary) =>
      this.#copy(Readable.from([bytes]), temporary, Number.MAX_SAFE_INTEGER),
    );
    return null;
  }

  /** Copies `body` (at most `maxBytes`, else TooLarge) to the new file `to`; resolves to its size. */
  async #copy(body: Readable, to: string, maxBytes: number): Promise<number> {
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(size > maxBytes ? new TooLarge(maxBytes) : null, chunk);
      },
    });
    await pipeline(body, count, createWriteStream(to, { flags: "wx" }));
    return size;
  }

  /**
   * Runs `work` once no other work on `path` runs, so that the check-and-rename of an upload
   * and the read-and-register of a registration never interleave (one process holds a data
   * directory, so this is the whole of it).
   */
  async #exclusive<T>(path: string, work: () => Promise<T>): Promise<T> {
    const before = this.#busy.get(path) ?? Promise.resolve();
    const done = before.catch(() => {}).then(work);
    const settled = done.catch(() => {});
    this.#busy.set(path, settled);
    try {
      return await done;
    } finally {
      if (this.#busy.get(path) === settled) this.#busy.delete(path);
    }
  }

  /** The size of the blob at `path`, or null when there is none (a pipe, which tests use to pace a sync, is 0). */
  async size(path: string): Promise<number | null> {
    try {
      const s = await stat(this.#file(path));
      return s.isFile() || s.isFIFO() ? s.size : null;
    } catch {
      return null;
    }
  }

  async read(path: string): Promise<Readable> {
    return createReadStream(this.#file(path), { highWaterMark: 1 << 16 });
  }

  localFile(path: string): string {
    return this.#file(path);
  }

  #file(path: string): string {
    if (!validObjectPath(path)) throw new Error(`not a blob path: ${JSON.stringify(path)}`);
    const file = resolve(this.#root, path);
    if (!file.startsWith(this.#root + sep)) throw new Error(`not a blob path: ${JSON.stringify(path)}`);
    return file;
  }
}

function readOrCreateSecret(path: string): Buffer {
  return Buffer.from(createOnce(path, () => randomBytes(32).toString("hex")).value, "hex");
}

/** A URL of this server's storage route for `path`, signed until `expires` (for a PUT: with its content type). */
function storageUrl(
  origin: string,
  path: string,
  expires: number,
  contentType: string,
  signature: string,
): string {
  const query = new URLSearchParams({ "X-Expires": String(expires), "X-Signature": signature });
  if (contentType) query.set("X-Content-Type", contentType);
  return `${origin}/storage/${path.split("/").map(encodeURIComponent).join("/")}?${query}`;
}
