// `syncfile download ID [-o FILE]`: a registered file (a data file, a report archive) saved
// whole or not at all.

import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { formatBytes } from "../report/formatText.js";
import { wholeNumber, writeFailure, writeOut } from "./_io.js";
import { Progress } from "./_progress.js";
import { addRemoteOptions, connect, interruptSignal, type RemoteFlags } from "./_remote.js";
import { EXIT } from "./exitCodes.js";

interface DownloadFlags extends RemoteFlags {
  output?: string;
}

/** The `download` command; its exit code goes to `result.code`. */
export function downloadCommand(result: { code: number }): Command {
  const command = new Command("download")
    .description("download a registered file by its id")
    .argument("<id>", "the file's id", wholeNumber("the file id", 1))
    .option(
      "-o, --output <path>",
      "where to save it: a file, or an existing folder (default: the service's file name, here)",
    );
  return addRemoteOptions(command)
    .addHelpText(
      "after",
      `
The file is streamed to a hidden temporary file beside the destination and renamed into
place when it is complete: a cut connection never leaves a partial file under the name (it
is retried from a fresh download URL). A file named with -o is replaced; a name the
service chose never replaces an existing file.

Examples:
  $ syncfile download 1234
  $ syncfile download 1234 -o reports/review.zip`,
    )
    .action(async (id: number, flags: DownloadFlags) => {
      result.code = await runDownload(id, flags);
    });
}

async function runDownload(id: number, flags: DownloadFlags): Promise<number> {
  const client = connect(flags);
  const output = flags.output;
  const intoFolder = output === undefined || isDirectory(output);
  let progress = null as Progress | null;
  try {
    const saved = await client.downloadFile(
      id,
      intoFolder ? (name) => unused(join(output ?? ".", name ?? `file-${id}`)) : output,
      {
        signal: interruptSignal(),
        onProgress: (received, total) => {
          progress ??= new Progress(`downloading file ${id}`, total);
          progress.update(received);
        },
      },
    );
    progress?.done();
    writeOut(process.stdout, `saved ${saved.path} (${formatBytes(saved.bytes)})\n`);
    return EXIT.ok;
  } catch (error) {
    progress?.done();
    const failure = writeFailure(error);
    if (failure === null) throw error;
    process.stderr.write(`syncfile: ${failure}\n`);
    return EXIT.unreadable;
  }
}

/** A name the service chose never replaces a file: only a name given with -o does. */
function unused(path: string): string {
  if (existsSync(path)) {
    throw Object.assign(new Error(`${path} already exists: name the file with -o to replace it`), {
      code: "EEXIST",
      syscall: "open",
      path,
    });
  }
  return path;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
