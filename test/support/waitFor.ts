// Waiting for an event itself rather than for a time: a condition polled until it holds, with
// a deadline generous enough for the most loaded machine (a missed deadline says what it
// waited for).

/** Resolves once `condition()` is true; rejects after `timeoutMs` naming `what`. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs / 1000} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
