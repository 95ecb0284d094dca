// Where the files' bytes live, as the routes and the domain modules (SyncRunner,
// AccessReviews) see it: URLs to upload and download an object, its size, its bytes as a
// stream, and a write of a generated archive. The data directory (disk.ts, the default) and an
// S3-compatible bucket (s3.ts) implement it; nothing above this folder knows which one it is.

import type { Readable } from "node:stream";
import type { Upload } from "../repositories/types.js";

/** Object storage. */
export interface ObjectStore {
  /** Where the objects are, for people: a directory, or s3://bucket/prefix. */
  readonly location: string;
  /**
   * A URL to PUT the object at `path`, valid for `ttlMs` and only with Content-Type
   * `contentType` (null: with any). `origin` is the address the request came to (the disk
   * store's URLs point back at this server).
   */
  uploadUrl(path: string, contentType: string | null, ttlMs: number, origin: string): Promise<string>;
  /**
   * A URL to GET the object at `path`, valid for `ttlMs`, that names its file. With the `pin`
   * of its registration: that object, or an ObjectChanged when it is no longer there.
   */
  downloadUrl(path: string, ttlMs: number, origin: string, pin?: string | null): Promise<string>;
  /**
   * Registers what was uploaded to `path` through an upload URL: `register` is given the upload
   * (content type, size, pin) and the object stays as it was given — no later PUT to `path`
   * completes on the disk storage; a bucket's is told apart by the pin. Resolves to what
   * `register` did, or null when nothing was uploaded.
   */
  registerUpload<T>(path: string, register: (upload: Upload) => Promise<T>): Promise<T | null>;
  /** The size of the object at `path` (with a `pin`: of that object, else ObjectChanged), or null when there is none. */
  size(path: string, pin?: string | null): Promise<number | null>;
  /** The object's bytes, streamed (with a `pin`: that object's, else ObjectChanged). */
  read(path: string, pin?: string | null): Promise<Readable>;
  /**
   * Where a storage that keeps its objects on this machine's disk keeps the object at `path`:
   * a pass opens it once and reads it on a worker thread, this thread reading none of it.
   */
  localFile?(path: string): string;
  /** Deletes the object at `path`, if there is one. */
  remove(path: string): Promise<void>;
  /**
   * Stores `bytes` at `path`, replacing what was there; resolves to the pin of the object
   * written (see Upload), null where the storage keeps it from changing itself.
   */
  write(path: string, bytes: Uint8Array, contentType: string): Promise<string | null>;
  /** Resolves when the storage can be used (readiness); rejects with why not. */
  ping(): Promise<void>;
  /** Lets go of connections. */
  close(): void;
}

/**
 * The object behind a registered file is not the one registered: a bucket took another PUT to
 * its path. A 409 (the errors plugin answers an error's 4xx statusCode with its message).
 */
export class ObjectChanged extends Error {
  readonly statusCode = 409;

  constructor(readonly path: string) {
    super(
      `the object at ${path} changed after its file was registered: upload the file again and register the new one`,
    );
  }
}

/** Whether `text` holds a control character (U+0000–U+001F, U+007F). */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Whether `path` is a safe object path: segments of allowed characters, no `.` or `..`. */
export function validObjectPath(path: string): boolean {
  const segments = path.split("/");
  return (
    path.length > 0 &&
    path.length <= 1024 &&
    segments.every((s) => s !== "" && s !== "." && s !== ".." && !s.includes("\\") && !hasControlCharacter(s))
  );
}

/**
 * The Content-Disposition of a download of `path`: an attachment named by its last segment
 * (RFC 6266). A name of plain printable ASCII is given as `filename="…"` alone; any other gets
 * `filename*=UTF-8''…` (RFC 8187) with an ASCII stand-in as `filename` for the clients that
 * read only that. A header carries bytes, not text: a name outside ASCII written as it is
 * cannot be sent at all (Node refuses it) or is read as Latin-1.
 */
export function attachment(path: string): string {
  const name = path.split("/").pop() || "file";
  // quotes and backslashes would need escapes that clients read differently; % some decode
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/gu, "_");
  if (fallback === name) return `attachment; filename="${name}"`;
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc8187(name)}`;
}

/** `text` as UTF-8 bytes percent-encoded, but for RFC 8187's attr-char. */
function encodeRfc8187(text: string): string {
  // encodeURIComponent leaves ' ( ) * as they are, which attr-char does not allow
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
