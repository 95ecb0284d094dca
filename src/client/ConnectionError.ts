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
    /** `via`: the proxy the request went through (redacted, with its variable), when one did. */
    options: { sent?: boolean; retryable?: boolean; via?: string } = {},
  ) {
    super(
      `[${method}] ${url.pathname}: no complete answer from ${url.origin} — ${describe(cause, options.via)}`,
      { cause },
    );
    this.method = method;
    this.path = url.pathname;
    this.origin = url.origin;
    this.sent = options.sent ?? true;
    this.retryable = options.retryable ?? true;
  }
}

function describe(cause: unknown, via: string | undefined): string {
  const error = cause as NodeJS.ErrnoException;
  // through a proxy, the connection that was refused or whose host is unknown is the proxy's
  if (via !== undefined) {
    const variable = /\((\w+)\)$/.exec(via)?.[1] ?? "the proxy's variable";
    if (error?.code === "ECONNREFUSED")
      return `the proxy ${via} refused the connection (is the proxy running, and is ${variable} right?)`;
    if (error?.code === "ENOTFOUND" || error?.code === "EAI_AGAIN")
      return `no such host as the proxy ${via} (check ${variable})`;
  }
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
