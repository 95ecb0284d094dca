// The page for people who don't live in a terminal (web/, built by Vite into
// packages/server/dist/web/): served at / with @fastify/static, one route per built file (no
// catch-all that would shadow the interface's 404s). And CORS for the origins given (`syncfile serve --cors ORIGIN`), so the
// page, or another, served elsewhere, can call this server and PUT to its storage.

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import cors from "@fastify/cors";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { ALLOW_DELETES_HEADER } from "syncfile/internal/http/operations.js";

/** The page's Content-Security-Policy: its own files, and calls to whatever service the user names. */
export const PAGE_POLICY =
  "default-src 'self'; connect-src *; img-src 'self' blob: data:; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'none'";

/** What the plugin serves and to whom. */
export interface PageOptions {
  /** Origins allowed to call the server from a browser (`https://admin.example.com`); none: same origin only. */
  cors: readonly string[];
  /** The built page's folder; default dist/web of this package (`pageRoot()`), null: not built. */
  root?: string | null;
}

/**
 * `origins` as CORS takes them: each an origin (scheme, host, port: a trailing slash is
 * dropped) or `*` for any. A RangeError says which one is not.
 */
export function corsOrigins(origins: readonly string[]): string[] {
  return origins.map((origin) => {
    if (origin === "*") return origin;
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      // said below
    }
    const plain = origin.replace(/\/$/, "");
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== plain) {
      throw new RangeError(
        `--cors takes an origin such as https://admin.example.com or http://localhost:5173 (scheme, host and port; no path), or * for any; got "${origin}"`,
      );
    }
    return plain;
  });
}

/**
 * Where the built page is: dist/web of the package this module belongs to, @syncfile/server;
 * from the source (src/server/plugins/, the tests), packages/server/dist/web.
 */
export function pageRoot(): string | null {
  const here = fileURLToPath(import.meta.url);
  const start = here.endsWith(".ts") ? join(dirname(here), "../../../packages/server/dist") : dirname(here);
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) {
      const root = join(dir, "dist", "web");
      return existsSync(join(root, "index.html")) ? root : null;
    }
    if (dirname(dir) === dir) return null;
  }
}

async function page(app: FastifyInstance, options: PageOptions): Promise<void> {
  if (options.cors.length > 0) {
    await app.register(cors, {
      origin: options.cors.includes("*") ? "*" : [...options.cors],
      methods: ["GET", "HEAD", "POST", "PUT"],
      allowedHeaders: ["authorization", "content-type", ALLOW_DELETES_HEADER],
      // what the page reads: the rate limit's wait
      exposedHeaders: ["retry-after", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"],
      maxAge: 600,
    });
  }
  const root = options.root === undefined ? pageRoot() : options.root;
  if (root === null) {
    app.get("/", { schema: { hide: true } }, async (_request, reply) =>
      reply
        .code(503)
        .type("text/plain; charset=utf-8")
        .send(
          "The page is not built here: run `npm run build` in the syncfile folder, then restart the server.\n",
        ),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: "index.html",
    schemaHide: true,
    // the page's own policy (its meta tag says the same, for a copy served elsewhere), and no
    // framing, which only a header can forbid
    setHeaders: (response, path) => {
      if (path.endsWith(".html"))
        response.header("content-security-policy", `${PAGE_POLICY}; frame-ancestors 'none'`);
    },
  });
}

export default fp(page, { name: "syncfile-page", fastify: "5.x" });
