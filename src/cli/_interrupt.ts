// Ctrl-C (SIGINT) or SIGTERM during a command that cannot be aborted part-way (a conversion):
// the process exits at once, with the shell's code for the signal, and its temporary files
// go with it (their exit hook: bytes/temporaryFiles.ts); worker threads end with it.

const CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * Until the returned function is called, SIGINT and SIGTERM end the process with exit code 130
 * or 143 after one line on stderr, `progress` cleared first.
 */
export function exitOnInterrupt(progress: { done(): void }): () => void {
  const stop = (signal: keyof typeof CODES) => {
    try {
      progress.done();
      process.stderr.write(`syncfile: interrupted (${signal})\n`);
    } catch {
      // standard error unwritable: the exit code says it
    }
    process.exit(CODES[signal]);
  };
  process.once("SIGINT", stop).once("SIGTERM", stop);
  return () => {
    process.off("SIGINT", stop).off("SIGTERM", stop);
  };
}
