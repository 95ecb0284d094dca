// Where a job's data is, as a job file says it (src/jobs/readJobFile.ts makes it): a file (the
// newest match of a path or glob), a command's standard output, or an HTTP GET's body.

/** A source, its paths absolute and its secrets known to the redaction. */
export type SourceSpec =
  | { kind: "file"; path: string; settleSeconds: number }
  | { kind: "command"; command: readonly string[]; cwd: string }
  | { kind: "http"; url: string; headers: Readonly<Record<string, string>> };
