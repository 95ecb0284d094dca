// The daemon's log (`syncfile run --daemon`): pino, one JSON object a line for journald, a
// container's log or a file, pretty on a terminal. Every line passes the one redaction
// (text/redact.ts) on its way out, whatever put a credential in it.

import type { Writable } from "node:stream";
import { pino } from "pino";
import pinoPretty from "pino-pretty";
import type { LogLevel } from "syncfile/internal/report/logLevels.js";
import { redactText } from "syncfile/internal/text/redact.js";
import type { DaemonLog } from "./runDaemon.js";

export interface DaemonLogOptions {
  level: LogLevel;
  destination: Writable;
  /** Lines for people (pino-pretty) rather than JSON. */
  pretty: boolean;
}

/** A logger for startDaemon and for what the command around it says. */
export function createDaemonLog({ level, destination, pretty }: DaemonLogOptions): DaemonLog {
  const out = pretty
    ? pinoPretty({
        destination,
        colorize: true,
        translateTime: "SYS:HH:MM:ss.l",
        ignore: "pid,hostname",
        sync: true,
      })
    : destination;
  return pino(
    {
      level,
      base: { service: "syncfile" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    { write: (line: string) => void out.write(redactText(line)) },
  );
}
