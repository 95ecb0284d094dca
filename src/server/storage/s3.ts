// Object storage in an S3-compatible bucket: the upload and download URLs are S3 presigned
// URLs (the upload bound to its Content-Type), a sync reads the object as a stream, and a
// report archive is put in the bucket. Credentials come from the standard AWS environment
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE, …), as every AWS tool reads them.
// A presigned PUT stays usable for its minutes after the file is registered, and S3 cannot be
// told to refuse it: the registration pins the object (its version in a versioned bucket, else
// its ETag), a pinned version is what a sync and a download read, and a pinned ETag that no
// longer matches refuses them (ObjectChanged).

import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { Upload } from "../repositories/types.js";
import { type DependencyLog, DependencyWatch, describeError, socketFault } from "../Unavailable.js";
import { parseStorageUrl, type S3Location, StorageError } from "./location.js";
import { attachment, ObjectChanged, type ObjectStore } from "./types.js";

/** A pin: `version:<VersionId>` or `etag:<ETag>`. */
type Pinned = { VersionId: string } | { IfMatch: string };

/** Objects in a bucket. */
export class S3Store implements ObjectStore {
  readonly location: string;
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;
  readonly #watch: DependencyWatch;

  private constructor(where: S3Location, log?: DependencyLog) {
    this.location = `s3://${where.bucket}/${where.prefix}`;
    this.#watch = new DependencyWatch(`the bucket ${this.location}`, log);
    this.#bucket = where.bucket;
    this.#prefix = where.prefix;
    this.#client = new S3Client({
      region: where.region,
      forcePathStyle: where.forcePathStyle,
      ...(where.endpoint ? { endpoint: where.endpoint } : {}),
      // a presigned PUT must not carry the checksum of an empty body: S3 would refuse the upload
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      requestHandler: { connectionTimeout: 10_000 }, // an endpoint that never answers fails the start
    });
  }

  /** The bucket of `url`, checked to answer (and the credentials to be accepted) before serving. */
  static async open(url: string, log?: DependencyLog): Promise<S3Store> {
    const store = new S3Store(parseStorageUrl(url), log);
    try {
      await store.#client.send(new HeadBucketCommand({ Bucket: store.#bucket }));
    } catch (error) {
      store.close();
      throw new StorageError(`cannot use the bucket ${store.location}: ${reason(error)}`);
    }
    return store;
  }

  uploadUrl(path: string, contentType: string | null, ttlMs: number): Promise<string> {
    const put = new PutObjectCommand({
      Bucket: this.#bucket,
      Key: this.#key(path),
      ...(contentType === null ? {} : { ContentType: contentType }),
    });
    return getSignedUrl(this.#client, put, {
      expiresIn: Math.ceil(ttlMs / 1000),
      // a PUT with another type is refused by S3; unsigned, any type goes
      ...(contentType === null ? {} : { signableHeaders: new Set(["content-type"]) }),
    });
  }

  async downloadUrl(path: string, ttlMs: number, _origin?: string, pin?: string | null): Promise<string> {
    const pinned = pinOf(pin);
    // a URL cannot carry If-Match: the object is checked now (a version needs no check)
    if (pinned && "IfMatch" in pinned) await this.size(path, pin);
    const get = new GetObjectCommand({
      Bucket: this.#bucket,
      Key: this.#key(path),
      ResponseContentDisposition: attachment(path),
      ...(pinned && "VersionId" in pinned ? pinned : {}),
    });
    return getSignedUrl(this.#client, get, { expiresIn: Math.ceil(ttlMs / 1000) });
  }

  async registerUpload<T>(path: string, register: (upload: Upload) => Promise<T>): Promise<T | null> {
    const head = await this.#head(path);
    if (!head) return null;
    return register({
      contentType: head.ContentType ?? "application/octet-stream",
      size: head.ContentLength ?? 0,
      pin: pinFrom(head.VersionId, head.ETag),
    });
  }

  async size(path: string, pin?: string | null): Promise<number | null> {
    const pinned = pinOf(pin);
    const head = await this.#head(path, pinned && "VersionId" in pinned ? pinned.VersionId : undefined);
    if (head && pinned && "IfMatch" in pinned && head.ETag !== pinned.IfMatch) throw new ObjectChanged(path);
    return head?.ContentLength ?? null;
  }

  async read(path: string, pin?: string | null): Promise<Readable> {
    const pinned = pinOf(pin);
    let answer: { Body?: unknown; ETag?: string | undefined };
    try {
      answer = await this.#guard(
        this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: this.#key(path), ...pinned })),
      );
    } catch (error) {
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 412) {
        throw new ObjectChanged(path);
      }
      throw error;
    }
    const body = answer.Body as Readable; // in Node, an IncomingMessage: the object streamed as it arrives
    // the answer's ETag is that of the bytes it streams (and not every S3 honours If-Match)
    if (pinned && "IfMatch" in pinned && answer.ETag !== pinned.IfMatch) {
      body.destroy();
      throw new ObjectChanged(path);
    }
    return this.#watched(body);
  }

  async ping(): Promise<void> {
    await this.#guard(this.#client.send(new HeadBucketCommand({ Bucket: this.#bucket })));
  }

  async write(path: string, bytes: Uint8Array, contentType: string): Promise<string | null> {
    const written = await this.#guard(
      this.#client.send(
        new PutObjectCommand({
          Bucket: this.#bucket,
          Key: this.#key(path),
          Body: bytes,
          ContentType: contentType,
        }),
      ),
    );
    return pinFrom(written.VersionId, written.ETag);
  }

  async remove(path: string): Promise<void> {
    await this.#guard(
      this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#key(path) })),
    );
  }

  close(): void {
    this.#client.destroy();
  }

  /** A command's answer; a bucket that does not answer, or answers 5xx, is an Unavailable. */
  async #guard<T>(command: Promise<T>): Promise<T> {
    try {
      const answer = await command;
      this.#watch.up();
      return answer;
    } catch (error) {
      throw storageFault(error) ? this.#watch.down(error) : error;
    }
  }

  /** An object's bytes, whose connection lost midway is an Unavailable too. */
  #watched(body: Readable): Readable {
    const watch = this.#watch;
    return Readable.from(
      (async function* () {
        try {
          yield* body;
        } catch (error) {
          throw storageFault(error) ? watch.down(error) : error;
        } finally {
          body.destroy(); // a reader that stopped early lets the connection go
        }
      })(),
      { objectMode: false },
    );
  }

  #key(path: string): string {
    return this.#prefix + path;
  }

  async #head(path: string, version?: string) {
    try {
      return await this.#guard(
        this.#client.send(
          new HeadObjectCommand({
            Bucket: this.#bucket,
            Key: this.#key(path),
            ...(version ? { VersionId: version } : {}),
          }),
        ),
      );
    } catch (error) {
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
      throw error;
    }
  }
}

/** Whether `error` says the bucket could not be reached or could not serve (5xx, a timeout). */
function storageFault(error: unknown): boolean {
  if (error instanceof S3ServiceException) return (error.$metadata.httpStatusCode ?? 0) >= 500;
  const name = (error as Error | null)?.name;
  return socketFault(error) || name === "TimeoutError" || name === "RequestTimeout";
}

/** The pin of an object from its version, else its ETag. */
function pinFrom(versionId: string | undefined, etag: string | undefined): string | null {
  // "null" is the version of an object in a bucket never versioned: a later PUT replaces it
  const version = versionId && versionId !== "null" ? versionId : null;
  return version ? `version:${version}` : etag ? `etag:${etag}` : null;
}

/** What a registration's pin asks of a read: a version, or the ETag the object must still have. */
function pinOf(pin: string | null | undefined): Pinned | null {
  if (pin?.startsWith("version:")) return { VersionId: pin.slice("version:".length) };
  if (pin?.startsWith("etag:")) return { IfMatch: pin.slice("etag:".length) };
  return null;
}

function reason(error: unknown): string {
  if ((error as Error)?.name === "CredentialsProviderError") {
    return "no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE)";
  }
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode;
    if (status === 404) return "no such bucket (create it first)";
    if (status === 403) return "access denied (check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)";
    return `${error.name}${status ? ` (HTTP ${status})` : ""}`;
  }
  return describeError(error);
}
