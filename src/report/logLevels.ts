// How much a log says: pino's levels, silent: nothing. The server and the job daemon log through
// pino; the levels are here, in the library, so that the command line offers them without loading
// either.

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
