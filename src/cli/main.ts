#!/usr/bin/env node

// The `syncfile` command line: parses the command, runs it, maps the outcome to an exit code.

import { ApiError } from "@syncfile/client/internal/client/ApiError.js";
import { ConnectionError } from "@syncfile/client/internal/client/ConnectionError.js";
import { Command, CommanderError } from "commander";
import { formatText } from "syncfile/internal/report/formatText.js";
import { redactText } from "syncfile/internal/text/redact.js";
import { neutralizeCommands } from "syncfile/internal/text/workflowCommands.js";
import packageJson from "../../package.json" with { type: "json" };
import { describeIoError, OutputError, streamName, useColor, writeOut } from "./_io.js";
import { convertCommand } from "./convertCommand.js";
import { diffCommand } from "./diffCommand.js";
import { downloadCommand } from "./downloadCommand.js";
import { EXIT } from "./exitCodes.js";
import { approveCommand, jobCommand, runCommand, runsCommand } from "./jobCommand.js";
import { mappingCommand } from "./mappingCommand.js";
import { profilesCommand } from "./profilesCommand.js";
import { pullCommand } from "./pullCommand.js";
import { pushCommand } from "./pushCommand.js";
import { reportsCommand } from "./reportsCommand.js";
import { serveCommand } from "./serveCommand.js";
import { UsageError } from "./UsageError.js";
import { validateCommand } from "./validateCommand.js";

/** Runs the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const result = { code: EXIT.ok as number };
  const program = new Command("syncfile")
    .description("Validate, convert, upload and sync custom integration data files.")
    .version(packageJson.version, "-v, --version")
    .showHelpAfterError("(add --help for usage)")
    .configureOutput({ outputError: (text, write) => write(`syncfile: ${text.replace(/^error: /, "")}`) })
    // a command's options are its own: runs show --format is show's, not runs'
    .enablePositionalOptions()
    .exitOverride();
  for (const command of [
    validateCommand(result),
    convertCommand(result),
    serveCommand(result),
    pushCommand(result),
    downloadCommand(result),
    reportsCommand(result),
    profilesCommand(result),
    mappingCommand(result),
    diffCommand(result),
    jobCommand(result),
    runCommand(result),
    runsCommand(result),
    approveCommand(result),
    pullCommand(result),
  ]) {
    for (const sub of command.commands) {
      sub
        .exitOverride()
        .configureOutput(program.configureOutput())
        .showHelpAfterError("(add --help for usage)");
    }
    program.addCommand(
      command
        .exitOverride()
        .configureOutput(program.configureOutput())
        .showHelpAfterError("(add --help for usage)"),
    );
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
    return result.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return ["commander.helpDisplayed", "commander.version", "commander.help"].includes(error.code)
        ? EXIT.ok
        : EXIT.usage;
    }
    if (error instanceof OutputError) {
      try {
        process.stderr.write(`syncfile: ${error.message}\n`);
      } catch {
        // standard error is what failed: the exit code says it
      }
      return EXIT.unreadable;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`syncfile: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof ApiError || error instanceof ConnectionError) {
      // a request that failed for good: one line, and the service's report when it sent one
      process.stderr.write(`syncfile: ${error.message}\n`);
      if (error instanceof ApiError && error.report)
        writeOut(process.stdout, formatText(error.report, { color: useColor(process.stdout) }));
      return exitOf(error);
    }
    if ((error as Error).name === "AbortError") {
      process.stderr.write("syncfile: interrupted\n");
      return 130;
    }
    const detail = process.env.SYNCFILE_DEBUG ? (error as Error).stack : (error as Error).message;
    process.stderr.write(
      `syncfile: internal error: ${detail}\n(set SYNCFILE_DEBUG=1 for details; please report it)\n`,
    );
    return EXIT.internal;
  }
}

// Everything said on standard error — messages, warnings, progress, commander's usage errors —
// passes the one redaction (text/redact.ts) on its way out: a credential that reached a message
// (a URL's password, a proxy's, a key the client was given) is never shown; nor does a line that
// a file's name starts begin a CI runner's command (text/workflowCommands.ts). Standard output
// carries results (reports, documents) and is left as each format writes it.
const writeError = process.stderr.write.bind(process.stderr);
process.stderr.write = ((chunk: unknown, ...rest: unknown[]) =>
  (writeError as (...args: unknown[]) => boolean)(
    typeof chunk === "string" ? neutralizeCommands(redactText(chunk)) : chunk,
    ...rest,
  )) as typeof process.stderr.write;

// A pipe's or a terminal's failure to take what was written comes as an event, after the write:
// a closed pipe (syncfile … | head) is not an error; any other ends the command as an output it
// cannot write (one line, exit 3; temporary files go with the exit: temporaryFiles.ts).
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    if (stream !== process.stderr) {
      try {
        process.stderr.write(`syncfile: cannot write ${streamName(stream)}: ${describeIoError(error)}\n`);
      } catch {
        // standard error failed too: the exit code says it
      }
    }
    process.exit(EXIT.unreadable);
  });
}

process.exitCode = await main(process.argv.slice(2));

/** The exit code of a request that failed for good: a refused key, an unreachable or failing service, or another refusal. */
function exitOf(error: ApiError | ConnectionError): number {
  if (error instanceof ConnectionError) return EXIT.unavailable;
  if (error.status === 401 || error.status === 403) return EXIT.keyRefused;
  if (error.status >= 500 || error.status === 429) return EXIT.unavailable;
  return EXIT.invalid;
}
