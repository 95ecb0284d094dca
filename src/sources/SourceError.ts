// A source that could not give its data: a failed command, an HTTP error, a file that cannot be
// read, a query the database refused, a directory that went away half way. Its message is the
// run's, so it holds no secret (what it quotes passes the redaction first).

/** A source that could not give its data. */
export class SourceError extends Error {
  override readonly name = "SourceError";
}
