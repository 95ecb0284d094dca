// The server's log: pino, one JSON object a line (pretty on a terminal), every line of a
// request carrying its request id. What must never reach a log is kept out where it could
// come in: a URL's signature and credential parameters are redacted, and no header is logged.

import type { Writable } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import { type DestinationStream, pino } from "pino";
import pinoPretty from "pino-pretty";
import type { LogOptions } from "./options.js";

/** A server's logger: pino's, as fastify takes it. */
export type ServerLog = FastifyBaseLogger;

/** The logger `options` ask for. */
export function createLog(options: LogOptions = {}): ServerLog {
  const level = options.level ?? "info";
  const destination = options.destination ?? process.stderr;
  // pino writes to a stream; a pretty one formats in this thread (no transport worker)
  const stream: DestinationStream = options.pretty
    ? pinoPretty({
        destination: destination as Writable,
        colorize: "isTTY" in destination && destination.isTTY === true,
        translateTime: "SYS:HH:MM:ss.l",
        ignore: "pid,hostname",
        sync: true,
      })
    : (destination as DestinationStream);
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

// query parameters that authorise a request on their own: a signed URL's signature, an S3
// presigned URL's credential and token
const SECRET_PARAMETERS =
  /([?&](?:X-Signature|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token)=)[^&#]*/gi;

/** `url` with its signature and credential parameters redacted, for a log line. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMETERS, "$1[redacted]");
}

/** A request id sent by a client (X-Request-Id) that is safe to log and echo: 1 to 128 of [A-Za-z0-9._:-]. */
export function acceptedRequestId(value: unknown): string | null {
  return typeof value === "string" && /^[\w.:-]{1,128}$/.test(value) ? value : null;
}
