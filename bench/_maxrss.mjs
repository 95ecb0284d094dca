// Preloaded into benchmarked node processes: writes the peak RSS (bytes) and the CPU time of
// all its threads (seconds, user + system) to $BENCH_RSS_FILE at exit.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  if (!process.env.BENCH_RSS_FILE) return;
  const usage = process.resourceUsage();
  writeFileSync(
    process.env.BENCH_RSS_FILE,
    JSON.stringify({ rss: usage.maxRSS * 1024, cpu: (usage.userCPUTime + usage.systemCPUTime) / 1e6 }),
  );
});
