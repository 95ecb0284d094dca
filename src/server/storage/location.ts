// Where a bucket is, as `--storage` and SYNCFILE_STORAGE_URL say it: read without loading the
// AWS SDK, so that a wrong URL is refused at once and a server without a bucket never loads it.

/** What an s3:// storage URL says. */
export interface S3Location {
  bucket: string;
  /** Prepended to every object's path: "" or a prefix ending in "/". */
  prefix: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
}

/** A storage URL that is not one, or a bucket that cannot be used: said in one sentence. */
export class StorageError extends Error {}

const EXAMPLE =
  "s3://BUCKET[/prefix]?region=eu-west-1 (or ?endpoint=http://127.0.0.1:9000&forcePathStyle=true)";
const PARAMETERS = ["endpoint", "region", "forcePathStyle"];

/** Reads `s3://BUCKET[/prefix]?endpoint=…&region=…&forcePathStyle=true`. */
export function parseStorageUrl(text: string, env: NodeJS.ProcessEnv = process.env): S3Location {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StorageError(`not a storage URL: ${JSON.stringify(text)}; write it as ${EXAMPLE}`);
  }
  if (url.protocol !== "s3:" || !url.hostname) {
    throw new StorageError(
      `the storage must be an S3 bucket, written ${EXAMPLE}; got ${JSON.stringify(text)}`,
    );
  }
  const unknown = [...url.searchParams.keys()].filter((k) => !PARAMETERS.includes(k));
  if (unknown.length > 0) {
    throw new StorageError(
      `unknown storage URL parameter ${unknown.join(", ")}: the parameters are ${PARAMETERS.join(", ")}`,
    );
  }
  const endpoint = url.searchParams.get("endpoint") ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(endpoint)) {
    throw new StorageError(
      `endpoint must be an address such as http://127.0.0.1:9000, got ${JSON.stringify(endpoint)}`,
    );
  }
  const style = url.searchParams.get("forcePathStyle");
  if (style !== null && style !== "true" && style !== "false") {
    throw new StorageError(`forcePathStyle must be true or false, got ${JSON.stringify(style)}`);
  }
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, "");
  return {
    bucket: url.hostname,
    prefix: prefix ? `${prefix}/` : "",
    ...(endpoint ? { endpoint: endpoint.replace(/\/$/, "") } : {}),
    region: url.searchParams.get("region") ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? "us-east-1",
    forcePathStyle: style === "true",
  };
}
