// Runs a command as a child process and measures its wall time and peak RSS.

import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const MAXRSS = fileURLToPath(new URL("./_maxrss.mjs", import.meta.url));

/**
 * Runs `node [--import _maxrss.mjs] script ...args`; resolves to {seconds, rss (bytes), cpu
 * (seconds, every thread), code, stderr}, written by _maxrss.mjs at its exit.
 */
export async function measureNode(script, args, { cwd } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "syncfile-bench-"));
  const rssFile = join(dir, "rss");
  try {
    const result = await run(process.execPath, ["--import", MAXRSS, script, ...args], {
      cwd,
      env: { ...process.env, BENCH_RSS_FILE: rssFile, NO_COLOR: "1" },
    });
    let usage = { rss: null, cpu: null };
    try {
      usage = JSON.parse(readFileSync(rssFile, "utf8"));
    } catch {}
    return { ...result, ...usage };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs any program (its standard output to the file `stdout`, or nowhere); its peak RSS is the last VmHWM read from /proc while it ran (polled every
 * 20 ms; VmHWM is itself a high-water mark, so only the last moments can be missed).
 */
export async function measureProgram(command, args, { cwd, stdout } = {}) {
  let peak = null;
  const result = await run(command, args, { cwd, env: process.env, stdout }, (pid) => {
    peak = procStatus(pid, "VmHWM") ?? peak;
  });
  return { ...result, rss: peak };
}

/** A memory field of process `pid`'s /proc status (VmRSS, VmHWM…) in bytes; null once it has gone. */
export function procStatus(pid, field) {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

function run(command, args, { stdout, ...options }, poll) {
  return new Promise((resolve, reject) => {
    const out = stdout ? openSync(stdout, "w") : "ignore";
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { ...options, stdio: ["ignore", out, "pipe"] });
    if (typeof out === "number") closeSync(out);
    let stderr = "";
    child.stderr.on("data", (d) => {
      if (stderr.length < 10_000) stderr += d;
    });
    const timer = poll ? setInterval(() => poll(child.pid), 20) : null;
    child.on("error", reject);
    child.on("close", (code) => {
      if (timer) clearInterval(timer);
      resolve({ seconds: Number(process.hrtime.bigint() - started) / 1e9, code, stderr });
    });
  });
}

export const sizeOf = (path) => statSync(path).size;
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const mb = (bytes) => (bytes === null ? "   ?" : `${(bytes / 1e6).toFixed(0).padStart(4)} MB`);
export const rate = (bytes, seconds) => `${(bytes / 1e6 / seconds).toFixed(1).padStart(6)}`;

/** Whether `command` can be run (found on PATH). */
export function available(command) {
  return new Promise((resolve) => {
    const child = spawn(command, ["--version"], { stdio: "ignore" });
    child.on("error", () => resolve(false));
    child.on("close", (code) => resolve(code === 0));
  });
}

/** Runs `measure()` while another process keeps one CPU busy (a loop that never yields). */
export async function withBusyCpu(measure) {
  const busy = spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
  try {
    return await measure();
  } finally {
    busy.kill("SIGKILL");
  }
}
