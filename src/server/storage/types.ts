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
   * `contentType`. `origin` is the address the request came to (the disk store's URLs point
   * back at this server).
   */
  uploadUrl(path: string, contentType: string, ttlMs: number, origin: string): Promise<string>;
  /** A URL to GET the object at `path`, valid for `ttlMs`, that names its file. */
  downloadUrl(path: string, ttlMs: number, origin: string): Promise<string>;
  /** What was uploaded to `path` through an upload URL: its content type and size; null when nothing was. */
  uploaded(path: string): Promise<Upload | null>;
  /** The size of the object at `path`, or null when there is none. */
  size(path: string): Promise<number | null>;
  /** The object's bytes, streamed. */
  read(path: string): Promise<Readable>;
  /** Deletes the object at `path`, if there is one. */
  remove(path: string): Promise<void>;
  /** Stores `bytes` at `path`, replacing what was there. */
  write(path: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Lets go of connections. */
  close(): void;
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

/** The Content-Disposition of a download of `path`: an attachment named by its last segment. */
export function attachment(path: string): string {
  return `attachment; filename="${(path.split("/").pop() ?? "file").replace(/"/g, "")}"`;
}
