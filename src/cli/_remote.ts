// What push, download and reports share: where the service is and the key, the client made
// from them (its retries told on stderr), durations such as 10m, and Ctrl-C as an abort.

import { type Client, createClient, type RetryEvent } from "@syncfile/client/internal/client/createClient.js";
import { type Command, InvalidArgumentError, Option } from "commander";
import { UsageError } from "./UsageError.js";

/** The connection flags, as commander gives them. */
export interface RemoteFlags {
  baseUrl?: string;
  apiKey?: string;
}

/** Adds --base-url and --api-key (or SYNCFILE_BASE_URL, SYNCFILE_API_KEY) to `command`. */
export function addRemoteOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--base-url <url>", "the service's base URL, e.g. https://api.example.com").env(
        "SYNCFILE_BASE_URL",
      ),
    )
    .addOption(new Option("--api-key <key>", "the API key (a bearer token)").env("SYNCFILE_API_KEY"));
}

/** The client for the flags; a usage error when the URL or the key is missing or malformed. */
export function connect(flags: RemoteFlags): Client {
  if (!flags.baseUrl) {
    throw new UsageError("no service URL: pass --base-url https://… or set SYNCFILE_BASE_URL");
  }
  if (!flags.apiKey) throw new UsageError("no API key: pass --api-key KEY or set SYNCFILE_API_KEY");
  try {
    return createClient({
      baseUrl: flags.baseUrl,
      apiKey: flags.apiKey,
      onRetry: (event) => process.stderr.write(`syncfile: ${describeRetry(event)}\n`),
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function describeRetry(event: RetryEvent): string {
  return `${event.reason}; retrying in ${formatDuration(event.waitMs)} (retry ${event.attempt} of ${event.retries})`;
}

/** "90s", "10m", "1h", "500ms"; a bare number is seconds. Throws a usage message otherwise. */
export function parseDuration(flag: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) {
    throw new InvalidArgumentError(`${flag} takes a duration such as 30s, 10m or 1h, not "${text}"`);
  }
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? "s") as "ms" | "s" | "m" | "h"];
  return Math.round(Number(match[1]) * unit);
}

/** 1.5 s, 2 min 5 s, 1 h 10 min. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) {
    const seconds = Math.round((ms % 60_000) / 1000);
    return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
  }
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${Math.floor(minutes / 60)} h`;
}

/**
 * A signal that aborts on Ctrl-C (or SIGTERM), so that a download removes its temporary file;
 * work that cannot be aborted (a local validation) gets a moment, then the process ends.
 */
export function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  const stop = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort(Object.assign(new Error("interrupted"), { name: "AbortError" }));
    setTimeout(() => {
      process.stderr.write("\nsyncfile: interrupted\n");
      process.exit(130);
    }, 1500).unref();
  };
  process.on("SIGINT", stop).on("SIGTERM", stop);
  return controller.signal;
}
