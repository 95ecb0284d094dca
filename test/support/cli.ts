// Running the built CLI as a user would, and a `syncfile` command on PATH for shell examples.

import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { cli, root } from "./paths.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `syncfile ...args` (the built dist/cli.js) with optional standard input. */
export function runCli(
  args: string[],
  options: { input?: string | Uint8Array; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<CliResult> {
  return runProcess(process.execPath, [cli, ...args], options);
}

/**
 * Runs `syncfile ...args` and lists the packages it loaded from node_modules (by the entry
 * each was imported through, e.g. `commander/esm.mjs`), with the command's result.
 */
export async function packagesLoaded(args: string[]): Promise<{ result: CliResult; packages: string[] }> {
  const record = join(mkdtempSync(join(tmpdir(), "syncfile-loads-")), "loaded.txt");
  writeFileSync(record, "");
  const result = await runProcess(process.execPath, ["--import", RECORD_LOADS, cli, ...args], {
    env: { ...process.env, SYNCFILE_RECORD_LOADS: record },
  });
  const urls = readFileSync(record, "utf8").split("\n");
  const packages = urls.flatMap((url) => url.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1] ?? []);
  return { result, packages: [...new Set(packages)].sort() };
}

const RECORD_LOADS = pathToFileURL(join(root, "test/support/recordLoads.mjs")).href;

/** Runs a shell command line in the repository with `syncfile` on PATH. */
export function runShell(command: string): Promise<CliResult> {
  return runProcess("sh", ["-c", command], {
    env: { ...process.env, PATH: `${binDir()}:${process.env.PATH}` },
  });
}

/** `syncfile ...args` started and left running: its output so far, and its end. */
export interface RunningCli {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  result: Promise<CliResult>;
}

/** Starts `syncfile ...args` (the built dist/cli.js), for a test that signals it while it runs. */
export function startCli(args: string[], options: { env?: NodeJS.ProcessEnv } = {}): RunningCli {
  return startProcess(process.execPath, [cli, ...args], options);
}

/** Runs `command ...args` (in the repository unless `cwd` says otherwise) with optional standard input. */
export function runProcess(
  command: string,
  args: string[],
  options: { input?: string | Uint8Array; env?: NodeJS.ProcessEnv; cwd?: string },
): Promise<CliResult> {
  const running = startProcess(command, args, options);
  // a command may end before it reads its input (a usage error): its exit code tells, not EPIPE
  running.child.stdin?.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
  running.child.stdin?.end(options.input ?? "");
  return running.result;
}

function startProcess(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string },
): RunningCli {
  const child = spawn(command, args, {
    cwd: options.cwd ?? root,
    // a push keeps what it synced for the next one's comparison: in a folder of these tests'
    // own, never the user's (~/.local/state), unless a test names one
    env: { SYNCFILE_STATE_DIR: stateDir(), ...(options.env ?? process.env), NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
  return { child, output: () => ({ stdout, stderr }), result };
}

let pushStates: string | null = null;

/** The folder where the pushes of this test process keep their previous states. */
function stateDir(): string {
  pushStates ??= mkdtempSync(join(tmpdir(), "syncfile-state-"));
  return pushStates;
}

let shimDir: string | null = null;

/** A directory holding a `syncfile` executable that runs the built CLI. */
function binDir(): string {
  if (shimDir) return shimDir;
  shimDir = mkdtempSync(join(tmpdir(), "syncfile-bin-"));
  const shim = join(shimDir, "syncfile");
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
  chmodSync(shim, 0o755);
  return shimDir;
}
