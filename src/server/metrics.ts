// What a server counts for Prometheus (prom-client), in a registry of its own (several servers
// in one process keep theirs apart): requests by operation and status with their durations,
// syncs by outcome with theirs, the 409s and 429s by operation, the bytes of registered
// uploads, the report archives made, and the process's own (event-loop lag, memory, CPU).

import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

/** The counters and histograms of one server. */
export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: "syncfile_http_requests_total",
    help: "Requests answered, by operation (or route), method and status.",
    labelNames: ["operation", "method", "status"] as const,
    registers: [this.registry],
  });
  readonly requestSeconds = new Histogram({
    name: "syncfile_http_request_duration_seconds",
    help: "How long requests took to answer, by operation (or route) and method.",
    labelNames: ["operation", "method"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });
  readonly refusals = new Counter({
    name: "syncfile_http_refusals_total",
    help: "409 (a sync running, or the guard) and 429 (a rate limit) answers, by operation.",
    labelNames: ["operation", "status"] as const,
    registers: [this.registry],
  });
  readonly syncs = new Counter({
    name: "syncfile_syncs_total",
    help: "Syncs, by outcome: applied, invalid, busy, refused (the guard), noFile, notData, noBytes, failed.",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  readonly syncSeconds = new Histogram({
    name: "syncfile_sync_duration_seconds",
    help: "How long syncs took, by outcome.",
    labelNames: ["outcome"] as const,
    buckets: [0.1, 0.5, 1, 5, 10, 30, 60, 120, 300, 600, 1800],
    registers: [this.registry],
  });
  readonly uploadBytes = new Counter({
    name: "syncfile_upload_bytes_total",
    help: "Bytes of the files registered (uploaded through a URL, or in one request).",
    registers: [this.registry],
  });
  readonly reportArchives = new Counter({
    name: "syncfile_report_archives_total",
    help: "Access-review report archives made.",
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: "syncfile_" });
  }

  /** The metrics in the Prometheus text format, and its content type. */
  async text(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
