// Regressions of issue 30's smaller items: a request body that stops arriving, or trickles in,
// is cut off (a body that keeps coming to the storage may take as long as it needs); /docs
// cannot be framed and runs under a Content-Security-Policy (and still works in a browser);
// completedAfter takes only the documented form, in the years 0001–9999.

import { existsSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { call, KEY, removeDataDirs, STORAGE, startServer } from "../support/server.js";

let server: SyncfileServer;

beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server?.close();
  await removeDataDirs();
});

/** A raw HTTP/1.1 connection to `base` that has sent `head` and `body`; what came back once it closes. */
function rawRequest(base: string, head: string, body = ""): { socket: Socket; closed: Promise<string> } {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  socket.write(`${head}\r\n\r\n${body}`);
  const received: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => received.push(chunk));
  socket.on("error", () => {}); // a reset is a close too
  const closed = new Promise<string>((resolve) =>
    socket.once("close", () => resolve(Buffer.concat(received).toString())),
  );
  return { socket, closed };
}

/** The head of a sync request whose body will be `length` bytes long. */
const syncHead = (length: number) =>
  [
    "PUT /v1.0/services/sync/custom HTTP/1.1",
    "Host: 127.0.0.1",
    `Authorization: Bearer ${KEY}`,
    "Content-Type: application/json",
    `Content-Length: ${length}`,
  ].join("\r\n");

/** The head of a PUT to a disk storage upload URL with a body of `length` bytes. */
async function storageHead(base: string, length: number): Promise<string> {
  const answer = await call(base, "GET", "/v1.0/files/url?name=slow.json&type=application/json");
  const url = new URL((answer.body.uploadFileParameters as { url: string }).url);
  return [
    `PUT ${url.pathname}${url.search} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Content-Type: application/json",
    `Content-Length: ${length}`,
  ].join("\r\n");
}

describe("a request body that stops or trickles", () => {
  it("is cut off when nothing more arrives for bodyIdleTimeoutMs", async () => {
    const strict = await startServer({ bodyIdleTimeoutMs: 200, bodyTimeoutMs: 600_000 });
    try {
      // half a body, then silence: the connection is closed, no sync answered
      const sync = rawRequest(strict.url, syncHead(100), '{"idFile": 1,');
      expect(await sync.closed).not.toMatch(/^HTTP\/1\.1 200/);
      if (STORAGE === "disk") {
        const upload = rawRequest(strict.url, await storageHead(strict.url, 1000), '{"users": [');
        expect(await upload.closed).not.toMatch(/^HTTP\/1\.1 200/);
      }
      // and the server goes on answering
      expect((await call(strict.url, "GET", "/v1.0/accessReviews/campaigns")).status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it("is cut off after bodyTimeoutMs however steadily it trickles, but an upload to storage may take as long as it keeps coming", async () => {
    const strict = await startServer({ bodyIdleTimeoutMs: 600_000, bodyTimeoutMs: 300 });
    try {
      const document = JSON.stringify({ users: [{ email: "slow@example.com" }] });
      const upload =
        STORAGE === "disk" ? rawRequest(strict.url, await storageHead(strict.url, document.length)) : null;
      // a byte at a time, one per turn, until the server closes the connection
      const trickle = rawRequest(strict.url, syncHead(100_000));
      let gone = false;
      void trickle.closed.then(() => {
        gone = true;
      });
      while (!gone) {
        trickle.socket.write(" ");
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(await trickle.closed).not.toMatch(/^HTTP\/1\.1 200/);
      if (upload) {
        // the upload began before the trickle and outlived its limit: it still completes
        upload.socket.write(document);
        const answer = await new Promise<string>((resolve) =>
          upload.socket.once("data", (chunk: Buffer) => resolve(chunk.toString())),
        );
        expect(answer).toMatch(/^HTTP\/1\.1 200/);
        upload.socket.end();
      }
    } finally {
      await strict.close();
    }
  });
});

describe("/docs", () => {
  it("cannot be framed and names where its scripts, styles and images may come from", async () => {
    for (const path of ["/docs", "/docs/", "/docs/static/swagger-initializer.js"]) {
      const page = await fetch(`${server.url}${path}`);
      await page.arrayBuffer();
      expect(page.status, path).toBe(200);
      expect(page.headers.get("x-frame-options"), path).toBe("DENY");
      const csp = page.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toContain("upgrade-insecure-requests"); // served over plain HTTP too
    }
  });

  // test/support/browser.ts's Chromium (that module is typed for the DOM, which this file is not)
  const chromiumPath = process.env.SYNCFILE_CHROMIUM ?? "/usr/bin/chromium";
  // (the page is the same on either backend: looked at once, on the embedded one)
  it.skipIf(!existsSync(chromiumPath) || STORAGE === "s3")(
    "still works in a browser under its policy",
    async () => {
      const browser = await chromium.launch({
        executablePath: chromiumPath,
        headless: true,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
      });
      try {
        const page = await browser.newPage();
        const refused: string[] = [];
        page.on("console", (message) => {
          if (/Content.Security.Policy/i.test(message.text())) refused.push(message.text());
        });
        page.on("pageerror", (error) => refused.push(error.message));
        await page.goto(`${server.url}/docs`);
        await page.waitForSelector(".swagger-ui .info .title");
        expect(await page.textContent(".swagger-ui .info .title")).toContain("syncfile serve");
        await page.waitForSelector(".opblock-summary-path");
        expect(refused).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});

describe("completedAfter", () => {
  const list = (value: string) =>
    call(server.url, "GET", `/v1.0/accessReviews/campaigns?completedAfter=${encodeURIComponent(value)}`);

  it("takes a date-time with its time zone, not a date alone", async () => {
    const r = await list("2024-01-01");
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      'completedAfter must be an ISO 8601 date-time with a time zone, such as 2026-01-31T00:00:00Z, got "2024-01-01"',
    );
    expect((await list("2024-01-01T00:00:00Z")).status).toBe(200);
    expect((await list("2024-01-01T00:00:00+02:00")).status).toBe(200);
  });

  it.each([["0000-01-01T00:00:00Z"], ["0001-01-01T00:30:00+01:00"], ["0000-12-31T23:59:59-01:00"]])(
    "refuses %s, before the year 0001, with a sentence",
    async (value) => {
      const r = await list(value);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(
        `completedAfter must be a time in the years 0001 to 9999 (UTC), got ${JSON.stringify(value)}`,
      );
    },
  );

  it.each([["0001-01-01T00:00:00Z"], ["9999-12-31T23:59:59Z"]])("takes %s", async (value) => {
    expect((await list(value)).status).toBe(200);
  });
});
