// `syncfile serve` as an operator runs it: its JSON log (a request id in the answer and in the
// log, a line per sync, per refusal of the guard, per report archive, never a key or a URL's
// signature), /healthz and /readyz (not ready while it drains after SIGTERM), and /metrics in
// the Prometheus text format, behind its own token.

import type { ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { fixture } from "../support/paths.js";
import {
  bigDocument,
  call,
  dataDir,
  KEY,
  OTHER_KEY,
  removeDataDirs,
  serveProcess,
  startServer,
  upload,
} from "../support/server.js";
import { waitFor } from "../support/waitFor.js";

const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await removeDataDirs();
});

const METRICS_TOKEN = "metrics-token-1";

/** The JSON lines of a serve process's log (its standard output; the rest is for people). */
function logOf(output: string): Record<string, unknown>[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A Prometheus text's samples: `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^([a-z_:]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (m) found.set(m[1] as string, Number(m[2]));
  }
  return found;
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });

describe("syncfile serve for an operator", () => {
  it("logs JSON lines with request ids, syncs, the guard's refusals and report archives, and never a key or a signature", async () => {
    const serve = await serveProcess(await dataDir(), { SYNCFILE_METRICS_TOKEN: METRICS_TOKEN }, [
      "--max-deletes",
      "1",
      "--seed",
      fixture("seed.json"),
    ]);
    children.push(serve.child);
    const { url } = serve;
    const asked = await call(url, "GET", "/v1.0/accessReviews/campaigns", {
      headers: { "x-request-id": "ticket-4711" },
    });
    expect(asked.headers.get("x-request-id")).toBe("ticket-4711");
    const made = await call(url, "GET", "/v1.0/accessReviews/campaigns", {
      headers: { "x-request-id": "not a safe id; <script>" },
    });
    const madeId = made.headers.get("x-request-id") as string;
    expect(madeId).toMatch(/^[0-9a-f-]{36}$/);

    // a sync, and one the guard refuses: the upload URLs carry their signatures
    const signed = await call(url, "GET", "/v1.0/files/url?name=users.json&type=application/json");
    const signature = /X-Signature=([0-9a-f]+)/.exec(
      (signed.body.uploadFileParameters as { url: string }).url,
    )?.[1] as string;
    const first = await upload(url, "first.json", bigDocument(10));
    expect(
      (await call(url, "PUT", "/v1.0/services/sync/custom", { json: { idFile: first, idAppAccount: 3 } }))
        .status,
    ).toBe(200);
    const fewer = await upload(url, "fewer.json", bigDocument(5), {});
    const refused = await call(url, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile: fewer, idAppAccount: 3 },
      key: OTHER_KEY,
    });
    expect(refused.status).toBe(409);
    await waitFor(() => logOf(serve.output()).some((l) => l.msg === "report archive"), "a report archive");

    const log = logOf(serve.output());
    expect(
      log.every((l) => l.service === "syncfile" && typeof l.time === "string" && typeof l.level === "string"),
    ).toBe(true);
    expect(log).toContainEqual(
      expect.objectContaining({
        msg: "request",
        requestId: "ticket-4711",
        method: "GET",
        url: "/v1.0/accessReviews/campaigns",
        operation: "listExecutions",
        status: 200,
        durationMs: expect.any(Number),
      }),
    );
    expect(log.some((l) => l.requestId === madeId)).toBe(true);
    const syncs = log.filter((l) => l.msg === "sync");
    expect(syncs).toContainEqual(
      expect.objectContaining({
        level: "info",
        sync: expect.objectContaining({
          outcome: "applied",
          idFile: first,
          idAppAccount: 3,
          users: 10,
          durationMs: expect.any(Number),
          counts: expect.objectContaining({ "user.added": 10 }),
        }),
      }),
    );
    expect(log).toContainEqual(
      expect.objectContaining({
        level: "warn",
        msg: "sync refused by the guard",
        sync: expect.objectContaining({ outcome: "refused", maxDeletes: 1, deletes: 5 }),
      }),
    );
    expect(log).toContainEqual(
      expect.objectContaining({
        msg: "report archive",
        execution: expect.any(Number),
        bytes: expect.any(Number),
      }),
    );
    // the storage PUT is logged with its signature redacted
    expect(log.some((l) => l.method === "PUT" && String(l.url).includes("X-Signature=[redacted]"))).toBe(
      true,
    );
    const everything = serve.output();
    for (const secret of [KEY, OTHER_KEY, METRICS_TOKEN, signature]) expect(everything).not.toContain(secret);
  }, 120_000);

  it("answers /healthz and /readyz outside the keys, and is not ready while it drains after SIGTERM", async () => {
    const serve = await serveProcess(await dataDir(), { SYNCFILE_DRAIN_DELAY: "10m" });
    children.push(serve.child);
    const { url } = serve;
    const health = await call(url, "GET", "/healthz", { key: null });
    expect([health.status, health.body]).toEqual([200, { status: "ok" }]);
    const ready = await call(url, "GET", "/readyz", { key: null });
    expect([ready.status, ready.body]).toEqual([
      200,
      { status: "ready", checks: { database: "ok", storage: "ok" } },
    ]);

    serve.child.kill("SIGTERM");
    await waitFor(
      async () => (await call(url, "GET", "/readyz", { key: null })).status === 503,
      "/readyz to say draining",
    );
    expect((await call(url, "GET", "/readyz", { key: null })).body).toEqual({
      status: "draining",
      checks: {},
    });
    // still serving while the load balancer stops sending
    expect((await call(url, "GET", "/healthz", { key: null })).status).toBe(200);
    expect((await call(url, "GET", "/v1.0/accessReviews/campaigns")).status).toBe(200);
    // a second signal ends the drain: it stops at once
    serve.child.kill("SIGTERM");
    expect(await exited(serve.child)).toBe(0);
    const said = logOf(serve.output()).map((l) => l.msg);
    expect(said).toContain("draining: /readyz answers 503");
    expect(said.at(-1)).toBe("stopped");
  }, 60_000);

  it("writes no request line for a probe that answers at the default level, and every other route's", async () => {
    const serve = await serveProcess(await dataDir(), { SYNCFILE_METRICS_TOKEN: METRICS_TOKEN });
    children.push(serve.child);
    const { url } = serve;
    const probes = [
      ["/healthz", null, "probe-healthz"],
      ["/readyz", null, "probe-readyz"],
      ["/metrics", METRICS_TOKEN, "probe-metrics"],
    ] as const;
    for (const [path, key, id] of probes) {
      const probe = await call(url, "GET", path, { key, headers: { "x-request-id": id } });
      expect(probe.status, path).toBe(200);
    }
    // a probe that fails is seen: /metrics without its token
    const failing = await call(url, "GET", "/metrics", {
      key: null,
      headers: { "x-request-id": "probe-401" },
    });
    expect(failing.status).toBe(401);
    await call(url, "GET", "/v1.0/accessReviews/campaigns", { headers: { "x-request-id": "a-route" } });
    // each line is written once its answer is sent: the last request's says the probes' are past
    await waitFor(() => logOf(serve.output()).some((l) => l.requestId === "a-route"), "the route's line");
    const lines = logOf(serve.output()).filter((l) => l.msg === "request");
    expect(lines.map((l) => [l.requestId, l.level, l.url, l.status])).toEqual([
      ["probe-401", "info", "/metrics", 401],
      ["a-route", "info", "/v1.0/accessReviews/campaigns", 200],
    ]);
  }, 60_000);

  it("writes a probe's request line at --log-level debug", async () => {
    const serve = await serveProcess(await dataDir(), { SYNCFILE_LOG_LEVEL: "debug" });
    children.push(serve.child);
    await call(serve.url, "GET", "/healthz", { key: null, headers: { "x-request-id": "probe-debug" } });
    await waitFor(
      () => logOf(serve.output()).some((l) => l.requestId === "probe-debug"),
      "the probe's line at debug",
    );
    expect(logOf(serve.output()).find((l) => l.requestId === "probe-debug")).toMatchObject({
      level: "debug",
      msg: "request",
      url: "/healthz",
      status: 200,
    });
  }, 60_000);

  it("counts requests, syncs, refusals, upload bytes and report archives in /metrics, behind its token", async () => {
    const serve = await serveProcess(await dataDir(), { SYNCFILE_METRICS_TOKEN: METRICS_TOKEN }, [
      "--max-deletes",
      "1",
    ]);
    children.push(serve.child);
    const { url } = serve;
    const document = bigDocument(4);
    const id = await upload(url, "users.json", document);
    expect(
      (await call(url, "PUT", "/v1.0/services/sync/custom", { json: { idFile: id, idAppAccount: 5 } }))
        .status,
    ).toBe(200);
    const fewer = await upload(url, "fewer.json", bigDocument(1));
    expect(
      (await call(url, "PUT", "/v1.0/services/sync/custom", { json: { idFile: fewer, idAppAccount: 5 } }))
        .status,
    ).toBe(409);

    const refused = await call(url, "GET", "/metrics", { key: null });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(
      "/metrics asks for its own token: send Authorization: Bearer <SYNCFILE_METRICS_TOKEN>",
    );
    expect((await call(url, "GET", "/metrics", { key: "wrong" })).status).toBe(401);
    const metrics = await call(url, "GET", "/metrics", { key: METRICS_TOKEN });
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const found = samples(metrics.text);
    expect(found.get('syncfile_syncs_total{outcome="applied"}')).toBe(1);
    expect(found.get('syncfile_syncs_total{outcome="refused"}')).toBe(1);
    expect(found.get('syncfile_sync_duration_seconds_count{outcome="applied"}')).toBe(1);
    expect(found.get('syncfile_http_requests_total{operation="syncCustom",method="PUT",status="200"}')).toBe(
      1,
    );
    expect(found.get('syncfile_http_refusals_total{operation="syncCustom",status="409"}')).toBe(1);
    expect(found.get("syncfile_upload_bytes_total")).toBe(
      Buffer.byteLength(document) + Buffer.byteLength(bigDocument(1)),
    );
    expect(found.has("syncfile_report_archives_total")).toBe(true);
    expect(found.get("syncfile_nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as {
      paths: Record<string, { get?: { security?: unknown[]; tags?: string[] } }>;
    };
    for (const path of ["/healthz", "/readyz"]) {
      expect(doc.paths[path]?.get).toMatchObject({ security: [], tags: ["operations"] });
    }
    expect(doc.paths["/metrics"]?.get?.tags).toEqual(["operations"]);
  }, 60_000);
});

describe("syncfile serve's settings", () => {
  it("has an environment variable for every flag, listed by --help", async () => {
    const help = await runCli(["serve", "--help"]);
    expect(help.code).toBe(0);
    // each option's block: its flag, and its description up to the next option
    const blocks = help.stdout
      .slice(help.stdout.indexOf("Options:"), help.stdout.indexOf("\n\n", help.stdout.indexOf("Options:")))
      .split(/\n(?= {2}-)/)
      .slice(1);
    const flags = blocks.map((block) => /^ {2}(--[\w-]+)/.exec(block)?.[1]).filter((f) => f !== undefined);
    expect(flags.length).toBeGreaterThan(15);
    for (const block of blocks.filter((b) => !b.includes("--help"))) {
      expect(block.replace(/\s+/g, " "), block).toMatch(/env:? SYNCFILE_[A-Z_]+/);
    }
  });

  it("takes its settings from the environment, and says which variable is wrong", async () => {
    const data = await dataDir();
    const serve = await serveProcess(data, { SYNCFILE_LOG_LEVEL: "warn", SYNCFILE_DISPLAY_CURRENCY: "EUR" });
    children.push(serve.child);
    const id = await upload(serve.url, "users.json", bigDocument(2));
    const synced = await call(serve.url, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile: id, idAppAccount: 1 },
    });
    expect(synced.body.displayCurrency).toBe("EUR");
    // at warn, not a request's line
    expect(logOf(serve.output())).toEqual([]);
    const wrong = await runCli(["serve", "--data", data], {
      env: { ...process.env, SYNCFILE_PORT: "eighty" },
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(
      "option '--port <port>' value 'eighty' from env 'SYNCFILE_PORT' is invalid. --port takes a whole number of at least 0, not \"eighty\"",
    );
  }, 60_000);
});

describe("behind a proxy that terminates TLS", () => {
  it("hands out the URLs clients used when it trusts the proxy, and the public URL when it has one", {
    timeout: 120_000,
  }, async () => {
    const forwarded = { "x-forwarded-proto": "https", "x-forwarded-host": "files.example.com" };
    const urls = async (base: string) => {
      // in one request: a public URL this test cannot reach is not asked for a PUT
      const form = new FormData();
      form.set("type", "customIntegrationData");
      form.set("file", new Blob([bigDocument(1)]), "users.json");
      const stored = await fetch(`${base}/v1.0/files/upload`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}` },
        body: form,
      });
      const { id } = (await stored.json()) as { id: number };
      const upload_ = await call(base, "GET", "/v1.0/files/url?name=a.json&type=application/json", {
        headers: forwarded,
      });
      const download = await call(base, "GET", `/v1.0/files/${id}/download`, { headers: forwarded });
      return [
        (upload_.body.uploadFileParameters as { url: string }).url,
        download.headers.get("location") as string,
      ];
    };
    // trusted as a number of hops (syncfile's own form of fastify's trustProxy); the public URL
    // wins over any header
    const trusting = await startServer({ trustProxy: 1 });
    const plain = await startServer();
    const published = await startServer({ publicUrl: "https://sync.example.com/files/", trustProxy: true });
    try {
      for (const url of await urls(trusting.url))
        expect(url).toMatch(/^https:\/\/files\.example\.com\/storage\/\d+\/\S+\?/);
      // a proxy it was not told to trust: its headers are anybody's
      for (const url of await urls(plain.url)) expect(url.startsWith(`${plain.url}/storage/`)).toBe(true);
      for (const url of await urls(published.url))
        expect(url).toMatch(/^https:\/\/sync\.example\.com\/files\/storage\/\d+\//);
    } finally {
      for (const server of [trusting, plain, published]) await server.close();
    }
  });

  it("refuses a public URL that is not one, and a --trust-proxy it cannot read", async () => {
    const data = await dataDir();
    const url = await runCli(["serve", "--data", data, "--port", "0", "--public-url", "ftp://x"]);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain(
      'the public URL must be an http(s) URL without a query, a fragment or credentials, such as https://syncfile.example.com, got "ftp://x"',
    );
    const trust = await runCli(["serve", "--data", data, "--port", "0", "--trust-proxy", "every one"]);
    expect(trust.code).toBe(2);
    expect(trust.stderr).toContain(
      "--trust-proxy takes true, a number of hops, or addresses and CIDR ranges",
    );
  });
});
