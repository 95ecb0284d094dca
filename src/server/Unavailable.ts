// A dependency of the service (the database, the object storage, Redis) that does not answer.
// The request that met it is answered 503 with Retry-After (the client retries those), never a
// 500 without a reason; the operator reads one line when the dependency goes away and one when
// it is back, not a stack trace a request.

/** Seconds a client is asked to wait before trying again while a dependency is away. */
export const RETRY_AFTER_SECONDS = 5;

/** A dependency that did not answer: the route answers 503 with Retry-After. */
export class Unavailable extends Error {
  override readonly name = "Unavailable";

  constructor(
    /** What did not answer, for people: "the database", "Redis at redis://…". */
    readonly dependency: string,
    /** Why, in a few words: the driver's code or message. */
    readonly reason: string,
  ) {
    super(`${dependency} is not answering (${reason}); nothing was changed: try again shortly`);
  }
}

/** Where an adapter says that its dependency went away or came back (the server's log). */
export type DependencyLog = (message: string, down: boolean) => void;

/** Without a server's log: a line on standard error. */
export const stderrLog: DependencyLog = (message) => process.stderr.write(`syncfile serve: ${message}\n`);

/**
 * Whether one dependency answers, as its adapter saw it last: the first failure after a
 * success is logged, and so is the first success after a failure; the failures between are not.
 */
export class DependencyWatch {
  #down = false;

  constructor(
    readonly dependency: string,
    readonly log: DependencyLog = stderrLog,
  ) {}

  /** Notes a failure to reach the dependency; returns the error to throw. */
  down(error: unknown): Unavailable {
    const reason = describeError(error);
    if (!this.#down) {
      this.#down = true;
      this.log(`${this.dependency} is not answering (${reason}); answering 503 until it is back`, true);
    }
    return new Unavailable(this.dependency, reason);
  }

  /** Notes a call that reached the dependency. */
  up(): void {
    if (!this.#down) return;
    this.#down = false;
    this.log(`${this.dependency} answers again`, false);
  }
}

// the socket's own errors: the peer refused, reset or never answered, or its name did not resolve
const SOCKET_FAULTS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** Whether `error` is a connection's failure to reach its peer (each address tried, for an AggregateError). */
export function socketFault(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof AggregateError) return error.errors.some(socketFault);
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && SOCKET_FAULTS.has(code);
}

/** An error in a few words: its code and message, once each. */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const said = typeof code === "string" && code !== "" && !text.includes(code) ? `${code} ${text}` : text;
  return said.trim() || "no reason given";
}
