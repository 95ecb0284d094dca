// A mistake in how a command was called: exit code 2 and a one-line message.

/** Thrown for wrong arguments or flags; the CLI prints its message and exits with 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
