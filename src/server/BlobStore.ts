// The object storage: blobs as files under the data directory, reached through URLs that
// carry their own authorisation — an HMAC over method, path, expiry and content type, with
// a secret kept in the data directory (so every server on it signs alike). A blob is written
// to a temporary file and renamed into place: a half-received upload never exists.

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createReadStream, createWriteStream, mkdirSync } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { replaceFile } from "../_internal/replaceFile.js";
import { createOnce } from "./_createOnce.js";

/** Whether `text` holds a control character (U+0000–U+001F, U+007F). */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** What a signed URL's parameters say, checked. */
export type Verdict = "ok" | "expired" | "bad-signature" | "wrong-content-type";

/** An upload larger than allowed. */
export class TooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the upload is larger than the limit of ${limit} bytes`);
  }
}

/** Blobs on disk, with signed URLs. */
export class BlobStore {
  readonly #root: string;
  readonly #secret: Buffer;

  private constructor(root: string, secret: Buffer) {
    this.#root = root;
    this.#secret = secret;
  }

  /** The store of `dataDir`; the signing secret is created on first use. */
  static open(dataDir: string): BlobStore {
    const root = join(dataDir, "blobs");
    mkdirSync(root, { recursive: true });
    return new BlobStore(root, readOrCreateSecret(join(dataDir, "signing-secret")));
  }

  /** Whether `path` is a safe blob path: segments of allowed characters, no `.` or `..`. */
  static validPath(path: string): boolean {
    const segments = path.split("/");
    return (
      path.length > 0 &&
      path.length <= 1024 &&
      segments.every(
        (s) => s !== "" && s !== "." && s !== ".." && !s.includes("\\") && !hasControlCharacter(s),
      )
    );
  }

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
  async write(path: string, body: Readable, maxBytes: number): Promise<number> {
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

  /** Writes bytes to `path`. */
  async writeBytes(path: string, bytes: Uint8Array): Promise<void> {
    const { Readable } = await import("node:stream");
    await this.write(path, Readable.from([bytes]), Number.MAX_SAFE_INTEGER);
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

  /** The blob's bytes, streamed. */
  read(path: string, options: { highWaterMark?: number } = {}): Readable {
    return createReadStream(this.#file(path), options);
  }

  #file(path: string): string {
    if (!BlobStore.validPath(path)) throw new Error(`not a blob path: ${JSON.stringify(path)}`);
    const file = resolve(this.#root, path);
    if (!file.startsWith(this.#root + sep)) throw new Error(`not a blob path: ${JSON.stringify(path)}`);
    return file;
  }
}

function readOrCreateSecret(path: string): Buffer {
  return Buffer.from(createOnce(path, () => randomBytes(32).toString("hex")).value, "hex");
}
