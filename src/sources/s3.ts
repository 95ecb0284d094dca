// An object in an S3-compatible bucket: the one a URL names, or the newest under a prefix where
// another system drops an export every night — left for the next run while it is younger than
// the job's settle time, as a file still being written is. The bucket is addressed as
// `syncfile serve --storage` addresses its own (?region=, ?endpoint=, ?forcePathStyle=true),
// with the AWS SDK's own credentials (the environment, a profile, an instance role).

import type { Readable } from "node:stream";
import {
  GetObjectCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  S3Client,
} from "@aws-sdk/client-s3";
import { redactText, redactUrl } from "syncfile/internal/text/redact.js";
import { SourceError } from "./SourceError.js";
import type { S3Source } from "./SourceSpec.js";

/** The object to read, or why there is none yet. */
export type S3Object =
  | { kind: "object"; key: string; size: number; name: string }
  | { kind: "waiting"; reason: string };

/** Where an S3 URL points, and the client to reach it. */
function open(source: S3Source): { client: S3Client; bucket: string; key: string } {
  let url: URL;
  try {
    url = new URL(source.url);
  } catch {
    throw new SourceError(`${redactUrl(source.url)} is no s3://bucket/key URL`);
  }
  if (url.protocol !== "s3:" || url.hostname === "") {
    throw new SourceError(`${redactUrl(source.url)} is no s3://bucket/key URL`);
  }
  const region = url.searchParams.get("region") ?? process.env.AWS_REGION ?? "us-east-1";
  const endpoint = url.searchParams.get("endpoint");
  const client = new S3Client({
    region,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: url.searchParams.get("forcePathStyle") === "true",
    requestHandler: { connectionTimeout: 30_000 },
  });
  return { client, bucket: url.hostname, key: decodeURIComponent(url.pathname.replace(/^\//, "")) };
}

/**
 * Copies the object of `source` with `copy` (which keeps it where the run does): the key the
 * URL names, or the newest under its prefix once `settleSeconds` old.
 */
export async function fetchS3(
  source: S3Source,
  now: () => number,
  copy: (body: () => Readable, name: string, size: number, where: string) => Promise<void>,
  signal?: AbortSignal,
): Promise<S3Object> {
  const { client, bucket, key } = open(source);
  const said = redactUrl(source.url);
  try {
    let target: { key: string; size: number } | null;
    if (key === "" || key.endsWith("/")) {
      const newest = await newestUnder(client, bucket, key, signal);
      if (newest === null) return { kind: "waiting", reason: `no object is under ${said}` };
      const age = (now() - newest.modified) / 1000;
      if (age < source.settleSeconds) {
        return {
          kind: "waiting",
          reason: `s3://${bucket}/${newest.key} changed ${Math.max(0, Math.floor(age))} s ago: it may still be being written (settle: ${source.settleSeconds} s)`,
        };
      }
      target = newest;
    } else {
      target = { key, size: -1 };
    }
    const object = await client.send(
      new GetObjectCommand({ Bucket: bucket, Key: target.key }),
      signal ? { abortSignal: signal } : {},
    );
    const size = object.ContentLength ?? target.size;
    const name = target.key.split("/").pop() || "object";
    await copy(() => object.Body as Readable, name, size, `s3://${bucket}/${target.key}`);
    return { kind: "object", key: target.key, size, name };
  } catch (error) {
    if (error instanceof SourceError) throw error;
    const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const status = e.$metadata?.httpStatusCode;
    const what =
      e.name === "NoSuchKey"
        ? "no such object"
        : `${e.name ?? "error"}${status ? ` (${status})` : ""}: ${e.message ?? ""}`;
    throw new SourceError(`cannot read ${said}: ${redactText(what)}`);
  } finally {
    client.destroy();
  }
}

/** The newest object under `prefix`, page by page of the listing. */
async function newestUnder(
  client: S3Client,
  bucket: string,
  prefix: string,
  signal?: AbortSignal,
): Promise<{ key: string; size: number; modified: number } | null> {
  let newest: { key: string; size: number; modified: number } | null = null;
  let token: string | undefined;
  do {
    const page: ListObjectsV2CommandOutput = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
      signal ? { abortSignal: signal } : {},
    );
    for (const object of page.Contents ?? []) {
      if (!object.Key || object.Key.endsWith("/")) continue;
      const modified = object.LastModified?.getTime() ?? 0;
      if (
        newest === null ||
        modified > newest.modified ||
        (modified === newest.modified && object.Key > newest.key)
      ) {
        newest = { key: object.Key, size: object.Size ?? 0, modified };
      }
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return newest;
}
