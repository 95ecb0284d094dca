// An S3-compatible bucket for the HTTP suite on PostgreSQL + S3 (the e2e-postgres project):
// s3rver in this process on a free port, its objects in a temporary folder; a bucket with a
// random name per server; and a proxy in front of it, through which the servers and the tests
// reach the bucket, so that a test can hold back a sync's read of an object (see heldFile).
// s3rver checks neither signatures nor expiry: those refusals are the disk storage's tests,
// and the S3 tests assert what a presigned URL says.

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateBucketCommand, DeleteObjectCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { type FaultyProxy, startProxy } from "./proxy.js";

/** What s3rver accepts; the project's env gives them to the servers (and `serve` processes). */
export const S3_ENV = {
  AWS_ACCESS_KEY_ID: "S3RVER",
  AWS_SECRET_ACCESS_KEY: "S3RVER",
  AWS_REGION: "us-east-1",
};

/** A bucket of its own, reached through a proxy. */
export interface TestBucket {
  /** The storage URL to give a server (`storage` / `--storage`). */
  readonly url: string;
  readonly name: string;
  /** The proxy every request to the bucket passes. */
  readonly proxy: FaultyProxy;
  /** Deletes the object at `path` (as the server names it). */
  remove(path: string): Promise<void>;
}

// the tests' own S3 clients: the project's env does not reach the worker's process.env in time
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

let running: Promise<{ endpoint: string; stop(): Promise<void> }> | null = null;
const proxies: FaultyProxy[] = [];

function s3rver(): Promise<{ endpoint: string; stop(): Promise<void> }> {
  running ??= (async () => {
    const directory = mkdtempSync(join(tmpdir(), "syncfile-s3rver-"));
    const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory });
    const { port } = await server.run();
    return {
      endpoint: `http://127.0.0.1:${port}`,
      async stop() {
        await server.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  })();
  return running;
}

function client(endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: S3_ENV.AWS_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: S3_ENV.AWS_ACCESS_KEY_ID, secretAccessKey: S3_ENV.AWS_SECRET_ACCESS_KEY },
  });
}

/** A new, empty bucket behind a proxy of its own. */
export async function testBucket(): Promise<TestBucket> {
  const { endpoint } = await s3rver();
  const name = `syncfile-${randomBytes(6).toString("hex")}`;
  const s3 = client(endpoint);
  try {
    await s3.send(new CreateBucketCommand({ Bucket: name }));
  } finally {
    s3.destroy();
  }
  const proxy = await startProxy(endpoint);
  proxies.push(proxy);
  const query = new URLSearchParams({
    endpoint: proxy.url,
    region: S3_ENV.AWS_REGION,
    forcePathStyle: "true",
  });
  return {
    url: `s3://${name}?${query}`,
    name,
    proxy,
    async remove(path) {
      const s3 = client(endpoint);
      try {
        await s3.send(new DeleteObjectCommand({ Bucket: name, Key: path }));
      } finally {
        s3.destroy();
      }
    },
  };
}

/** Stops the proxies and s3rver, and deletes its objects (afterAll, through removeDataDirs). */
export async function stopS3(): Promise<void> {
  for (const proxy of proxies.splice(0)) await proxy.close();
  const stopping = running;
  running = null;
  await (await stopping)?.stop();
}
