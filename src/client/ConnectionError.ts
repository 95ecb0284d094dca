// The error of a call that got no complete answer: refused, reset, cut off mid-body.

/** A call that got no (complete) answer from the service or the storage. */
export class ConnectionError extends Error {
  override readonly name = "ConnectionError";
  readonly method: string;
  /** The request's path, without its query. */
  readonly path: string;
  /** The origin that did not answer, e.g. http://127.0.0.1:8080. */
  readonly origin: string;

  constructor(method: string, url: URL, cause: unknown) {
    super(`[${method}] ${url.pathname}: no complete answer from ${url.origin} — ${describe(cause)}`, {
      cause,
    });
    this.method = method;
    this.path = url.pathname;
    this.origin = url.origin;
  }
}

function describe(cause: unknown): string {
  const error = cause as NodeJS.ErrnoException;
  switch (error?.code) {
    case "ECONNREFUSED":
      return "connection refused (is the service running, and is the base URL right?)";
    case "ENOTFOUND":
      return "no such host (check the base URL)";
    case "ECONNRESET":
      return "the connection was reset";
    case "ETIMEDOUT":
      return "the connection timed out";
    default:
      return error instanceof Error ? error.message : String(cause);
  }
}
