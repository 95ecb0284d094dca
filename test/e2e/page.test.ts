// What the server does for the page, over real HTTP (no browser: test/e2e/web.test.ts drives
// the page itself): the built page at / with its assets and its Content-Security-Policy, no
// catch-all route that would shadow the interface's 404s or appear in the OpenAPI document,
// and CORS for the origins given with --cors, refused in one line when one is no origin; and,
// where the page is not built, a 503 at / that says how to build it.

import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import page, { PAGE_POLICY } from "../../src/server/plugins/page.js";
import { runCli } from "../support/cli.js";
import { call, dataDir, KEY, startServer } from "../support/server.js";

const PAGE_ORIGIN = "http://admin.example.test:5173";

/** The answer to a request, its body read (an unread one keeps the connection, and close() waiting). */
async function answer(url: string | URL, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return response;
}

describe("the page's server side", () => {
  let server: SyncfileServer;

  beforeAll(async () => {
    server = await startServer({ cors: [`${PAGE_ORIGIN}/`] });
  });
  afterAll(() => server?.close());

  it("serves the built page at / and each of its assets, and nothing else under /", async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain("<title>syncfile — check, convert and push a data file</title>");
    expect(html).toMatch(/http-equiv="Content-Security-Policy" content="default-src 'self';/);
    // every asset the page names is there; none is fetched from another host
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.filter((a) => /^(https?:)?\/\//.test(a))).toEqual([]);
    for (const asset of assets.filter((a) => a.startsWith("./"))) {
      expect((await answer(new URL(asset, `${server.url}/`))).status, asset).toBe(200);
    }
    // the policy as a header too, with what only a header can say
    expect(page.headers.get("content-security-policy")).toBe(`${PAGE_POLICY}; frame-ancestors 'none'`);
    expect(html).toContain(`content="${PAGE_POLICY}"`);
    // the worker the page's script starts is served too
    const script = assets.find((a) => /\/index-[\w-]+\.js$/.test(a)) as string;
    const code = await (await fetch(new URL(script, `${server.url}/`))).text();
    const worker = /worker-[\w-]+\.js/.exec(code)?.[0] as string;
    expect((await answer(new URL(`./assets/${worker}`, `${server.url}/`))).status).toBe(200);
    // an unknown path is still the interface's 404, in its error body
    const missing = await call(server.url, "GET", "/v1.0/nothing-here");
    expect(missing.status).toBe(404);
    expect(missing.body.statusCode).toBe(404);
    expect((await answer(`${server.url}/nothing.html`)).status).toBe(404);
    // the page is no operation of the interface (those outside /v1.0 are an operator's tools)
    const document = await call(server.url, "GET", "/openapi.json");
    expect(Object.keys(document.body.paths as object).filter((p) => !p.startsWith("/v1.0/"))).toEqual([
      "/healthz",
      "/readyz",
      "/metrics",
    ]);
  });

  it("answers CORS for the origins given, preflight included, and not for others", async () => {
    const preflight = await answer(`${server.url}/v1.0/services/sync/custom`, {
      method: "OPTIONS",
      headers: {
        origin: PAGE_ORIGIN,
        "access-control-request-method": "PUT",
        "access-control-request-headers": "authorization,content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(PAGE_ORIGIN);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("PUT");
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/authorization/i);

    const list = await answer(`${server.url}/v1.0/accessReviews/campaigns`, {
      headers: { origin: PAGE_ORIGIN, authorization: `Bearer ${KEY}` },
    });
    expect(list.status).toBe(200);
    expect(list.headers.get("access-control-allow-origin")).toBe(PAGE_ORIGIN);
    // the page reads the rate limit's wait
    expect(list.headers.get("access-control-expose-headers")).toMatch(/retry-after/i);

    const other = await answer(`${server.url}/v1.0/accessReviews/campaigns`, {
      headers: { origin: "https://elsewhere.example", authorization: `Bearer ${KEY}` },
    });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it.each([
    [[], null],
    [["*"], "*"],
  ])("answers CORS with --cors %j to any page: %s", async (cors, allowed) => {
    const other = await startServer({ cors });
    try {
      const list = await answer(`${other.url}/v1.0/accessReviews/campaigns`, {
        headers: { origin: PAGE_ORIGIN, authorization: `Bearer ${KEY}` },
      });
      expect(list.status).toBe(200);
      expect(list.headers.get("access-control-allow-origin")).toBe(allowed);
    } finally {
      await other.close();
    }
  });

  it("refuses a --cors that is no origin, saying what one looks like", async () => {
    const data = await dataDir();
    for (const bad of ["admin.example.com", "https://admin.example.com/page", "ftp://x.example"]) {
      const { code, stderr } = await runCli(["serve", "--port", "0", "--data", data, "--cors", bad]);
      expect(code).toBe(2);
      expect(stderr).toContain(`--cors takes an origin such as https://admin.example.com`);
      expect(stderr).toContain(`got "${bad}"`);
    }
  });
});

describe("a server whose page is not built", () => {
  it("answers / with a 503 that says how to build it, and the interface as ever", async () => {
    const app = Fastify();
    await app.register(page, { cors: [], root: null });
    app.get("/v1.0/ping", async () => ({ ok: true }));
    try {
      const home = await app.inject({ method: "GET", url: "/" });
      expect(home.statusCode).toBe(503);
      expect(home.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(home.body).toBe(
        "The page is not built here: run `npm run build` in the syncfile folder, then restart the server.\n",
      );
      expect((await app.inject({ method: "GET", url: "/page.js" })).statusCode).toBe(404);
      expect((await app.inject({ method: "GET", url: "/v1.0/ping" })).json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
  });
});
