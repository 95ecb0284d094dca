// `syncfile download ID [-o FILE]`: a registered file (a data file, a report archive) saved
// whole or not at all.

import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { ApiError } from "@syncfile/client/internal/client/ApiError.js";
import type { Client } from "@syncfile/client/internal/client/createClient.js";
import { Command, Option } from "commander";
import { FILE_TYPES, type FileType } from "syncfile/internal/http/operations.js";
import { formatBytes } from "syncfile/internal/report/formatText.js";
import { wholeNumber, writeFailure, writeOut } from "./_io.js";
import { Progress } from "./_progress.js";
import { addRemoteOptions, connect, interruptSignal, type RemoteFlags } from "./_remote.js";
import { EXIT, REMOTE_EXIT_CODES } from "./exitCodes.js";

interface DownloadFlags extends RemoteFlags {
  output?: string;
  info?: boolean;
  type: FileType;
}

/** The `download` command; its exit code goes to `result.code`. */
export function downloadCommand(result: { code: number }): Command {
  const command = new Command("download")
    .description("download a registered file by its id")
    .argument("<id>", "the file's id", wholeNumber("the file id", 1))
    .option(
      "-o, --output <path>",
      "where to save it: a file, or an existing folder (default: the service's file name, here)",
    )
    .option("--info", "show the file's information (GET /v1.0/files/{id}) instead of downloading it")
    .addOption(
      new Option("--type <type>", "with --info: the type to look the file up as")
        .choices([...FILE_TYPES])
        .default("customIntegrationData"),
    );
  return addRemoteOptions(command)
    .addHelpText(
      "after",
      `
The file is streamed to a hidden temporary file beside the destination and renamed into
place when it is complete: a cut connection never leaves a partial file under the name (it
is retried from a fresh download URL). A file named with -o is replaced; a name the
service chose never replaces an existing file.

Exit codes: 0 saved (or shown), 1 no such file, or not of --type, 2 usage error,
3 the destination unwritable, ${REMOTE_EXIT_CODES}

--info shows the file's name, type, when it was registered and by which API key, without
downloading it. The service looks a file up as one type (its default is expenseReport): syncfile
asks as --type, customIntegrationData unless told.

Examples:
  $ syncfile download 1234
  $ syncfile download 1234 -o reports/review.zip
  $ syncfile download 1234 --info --type expenseReport`,
    )
    .action(async (id: number, flags: DownloadFlags) => {
      result.code = await runDownload(id, flags);
    });
}

async function runDownload(id: number, flags: DownloadFlags): Promise<number> {
  const client = connect(flags);
  if (flags.info) return showInformation(client, id, flags.type);
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

/** `--info`: the file's information, a line each. */
async function showInformation(client: Client, id: number, type: FileType): Promise<number> {
  try {
    const file = await client.fileInformation(id, { type, signal: interruptSignal() });
    const by = file.uploadedBy === null ? "" : `, by API key ${file.uploadedBy}`;
    writeOut(process.stdout, `file ${file.id}: ${file.fileName}\n`);
    writeOut(process.stdout, `  type: ${file.type}\n  registered: ${file.creationTime}${by}\n`);
    return EXIT.ok;
  } catch (error) {
    // the service names the file's type: say it as this command's flag
    const other = error instanceof ApiError ? /it is a (\w+) file/.exec(error.message)?.[1] : undefined;
    if (other === undefined) throw error;
    process.stderr.write(
      `syncfile: file ${id} is not of type ${type} but ${other}: ask with --type ${other}\n`,
    );
    return EXIT.invalid;
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
