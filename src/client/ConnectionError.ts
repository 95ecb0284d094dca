// The error of a call that got no complete answer: refused, reset, timed out, cut off mid-body.

/** A call that got no (complete) answer from the service or the storage. */
export class ConnectionError extends Error {
  override readonly name = "ConnectionError";
  readonly method: string;
  /** The request's path, without its query. */
  readonly path: string;
  /** The origin that did not answer, e.g. http://127.0.0.1:8080. */
  readonly origin: string;
  /**
   * True when the whole request had been sent: the service may have acted on it. A call that
   * is not safe to repeat (a sync) is retried only when this is false.
   */
  readonly sent: boolean;
  /** False for a failure that would happen again (a redirect to something not http). */
  readonly retryable: boolean;

  constructor(
    method: string,
    url: URL,
    cause: unknown,
    options: { sent?: boolean; retryable?: boolean } = {},
  ) {
    super(`[${method}] ${url.pathname}: no complete answer from ${url.origin} — ${describe(cause)}`, {
      cause,
    });
    this.method = method;
    this.path = url.pathname;
    this.origin = url.origin;
    this.sent = options.sent ?? true;
    this.retryable = options.retryable ?? true;
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
