// Preloaded into benchmarked node processes: writes the peak RSS (bytes) to $BENCH_RSS_FILE at exit.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  if (process.env.BENCH_RSS_FILE)
    writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS * 1024));
});
