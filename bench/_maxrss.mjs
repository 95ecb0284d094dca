// Preloaded into benchmarked node processes: writes the peak RSS (bytes) and the CPU time of
// all its threads (seconds, user + system) to $BENCH_RSS_FILE at exit.
//
// The peak is VmHWM of /proc/self/status, this process's own high-water mark since its exec.
// getrusage's maxRSS is not: Linux carries it over a fork and an exec, so a child reports at
// least what its parent held when it was started (a bench that had read two 200 MB outputs
// reported 499 MB for a convert that peaked at 209 MB). Without /proc, maxRSS is what there is.
import { readFileSync, writeFileSync } from "node:fs";

/** VmHWM in bytes, or null where /proc is not there. */
function highWaterMark() {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

process.on("exit", () => {
  if (!process.env.BENCH_RSS_FILE) return;
  const usage = process.resourceUsage();
  writeFileSync(
    process.env.BENCH_RSS_FILE,
    JSON.stringify({
      rss: highWaterMark() ?? usage.maxRSS * 1024,
      cpu: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
    }),
  );
});
