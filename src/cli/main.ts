#!/usr/bin/env node
// The `syncfile` command line: parses the command, runs it, maps the outcome to an exit code.

import { Command, CommanderError } from "commander";
import packageJson from "../../package.json" with { type: "json" };
import { ApiError } from "../client/ApiError.js";
import { ConnectionError } from "../client/ConnectionError.js";
import { formatText } from "../report/formatText.js";
import { useColor } from "./_io.js";
import { convertCommand } from "./convertCommand.js";
import { downloadCommand } from "./downloadCommand.js";
import { EXIT } from "./exitCodes.js";
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
    .exitOverride();
  for (const command of [
    validateCommand(result),
    convertCommand(result),
    serveCommand(result),
    pushCommand(result),
    downloadCommand(result),
    reportsCommand(result),
  ]) {
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
    if (error instanceof UsageError) {
      process.stderr.write(`syncfile: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof ApiError || error instanceof ConnectionError) {
      // a request that failed for good: one line, and the service's report when it sent one
      process.stderr.write(`syncfile: ${error.message}\n`);
      if (error instanceof ApiError && error.report)
        process.stdout.write(formatText(error.report, { color: useColor(process.stdout) }));
      return EXIT.invalid;
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

// a closed pipe (syncfile … | head) is not an error
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
