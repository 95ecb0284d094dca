// The server's log: pino, one JSON object a line (pretty on a terminal), every line of a
// request carrying its request id. What must never reach a log is kept out where it could
// come in: no header is logged, and every line passes the one redaction (text/redact.ts) on its
// way out, whatever put a credential in it (a URL's signature, a driver's error).

import type { Writable } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import { type DestinationStream, pino } from "pino";
import pinoPretty from "pino-pretty";
import { redactText } from "syncfile/internal/text/redact.js";
import type { LogOptions } from "./options.js";

/** A server's logger: pino's, as fastify takes it. */
export type ServerLog = FastifyBaseLogger;

/** The logger `options` ask for. */
export function createLog(options: LogOptions = {}): ServerLog {
  const level = options.level ?? "info";
  const destination = options.destination ?? process.stderr;
  // pino writes to a stream; a pretty one formats in this thread (no transport worker); what
  // pino writes is redacted before either sees it
  const stream = redacting(
    options.pretty
      ? pinoPretty({
          destination: destination as Writable,
          colorize: "isTTY" in destination && destination.isTTY === true,
          translateTime: "SYS:HH:MM:ss.l",
          ignore: "pid,hostname",
          sync: true,
        })
      : destination,
  );
  return pino(
    {
      level,
      base: { service: "syncfile" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    stream,
  );
}

/** A destination that writes what it is given with every credential in it redacted. */
function redacting(destination: NodeJS.WritableStream | DestinationStream): DestinationStream {
  return { write: (line: string) => void destination.write(redactText(line)) };
}

/** A request id sent by a client (X-Request-Id) that is safe to log and echo: 1 to 128 of [A-Za-z0-9._:-]. */
export function acceptedRequestId(value: unknown): string | null {
  return typeof value === "string" && /^[\w.:-]{1,128}$/.test(value) ? value : null;
}
