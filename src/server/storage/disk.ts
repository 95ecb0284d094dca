// The default object storage: blobs as files under the data directory, reached through URLs
// of this server (routes/storage.ts) that carry their own authorisation — an HMAC over
// method, path, expiry and content type, with a secret kept in the data directory. A blob is
// written to a temporary file and renamed into place: a half-received upload never exists.

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createReadStream, createWriteStream, mkdirSync, rmSync } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { replaceFile } from "../../_internal/replaceFile.js";
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

/** Blobs on disk, with signed URLs of this server; what was uploaded is noted in `files`. */
export class BlobStore implements ObjectStore {
  readonly location: string;
  readonly #root: string;
  readonly #secret: Buffer;
  readonly #files: FilesRepository;
  readonly #clock: () => number;

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

  async uploadUrl(path: string, contentType: string, ttlMs: number, origin: string): Promise<string> {
    const expires = this.#clock() + ttlMs;
    return storageUrl(origin, path, expires, contentType, this.sign("PUT", path, expires, contentType));
  }

  async downloadUrl(path: string, ttlMs: number, origin: string): Promise<string> {
    const expires = this.#clock() + ttlMs;
    return storageUrl(origin, path, expires, "", this.sign("GET", path, expires));
  }

  uploaded(path: string): Promise<Upload | null> {
    return this.#files.upload(path);
  }

  /** Notes an upload received by this server's storage route. */
  recordUpload(path: string, contentType: string, size: number): Promise<void> {
    return this.#files.recordUpload(path, contentType, size);
  }

  /** The content type a download of `path` is served with. */
  async contentType(path: string): Promise<string> {
    return (await this.#files.contentTypeAt(path)) ?? "application/octet-stream";
  }

  async remove(path: string): Promise<void> {
    rmSync(this.#file(path), { force: true });
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
    if (method === "PUT" && requestContentType !== params.contentType) return "wrong-content-type";
    if (now > params.expires) return "expired";
    return "ok";
  }

  /** Writes `body` to `path` (at most `maxBytes`), replacing what was there; resolves to its size. */
  async receive(path: string, body: Readable, maxBytes: number): Promise<number> {
    const file = this.#file(path);
    mkdirSync(dirname(file), { recursive: true });
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(size > maxBytes ? new TooLarge(maxBytes) : null, chunk);
      },
    });
    return replaceFile(file, async (temporary) => {
      await pipeline(body, count, createWriteStream(temporary, { flags: "wx" }));
      return size;
    });
  }

  /** Writes bytes to `path` (the content type is known from the file's registration). */
  async write(path: string, bytes: Uint8Array, _contentType: string): Promise<void> {
    await this.receive(path, Readable.from([bytes]), Number.MAX_SAFE_INTEGER);
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
