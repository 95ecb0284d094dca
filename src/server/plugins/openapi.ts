// The interface's own description: the OpenAPI 3.1 document made from the routes' schemas
// (@fastify/swagger) at GET /openapi.json, and an interactive reference at /docs
// (@fastify/swagger-ui, served from the package: nothing is fetched from another host).
// Registered before the routes, so that it sees each of them.

import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import packageJson from "../../../package.json" with { type: "json" };

// everything from this server (the UI's assets are in the package), nothing inline but styles
// (the UI sets them), never in a frame; no upgrade-insecure-requests: served over plain HTTP too
const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join("; ");

async function openapi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "syncfile serve: the custom integration data service",
        version: packageJson.version,
        description:
          "The upload procedure (upload URL, PUT to storage, registration), file download, the JSON and CSV syncs, access-review executions and the synced app accounts. Every operation takes an API key as a bearer token and has a rate limit per key.",
      },
      components: {
        securitySchemes: {
          apiKey: { type: "http", scheme: "bearer", description: "an API key of the service" },
          metricsToken: {
            type: "http",
            scheme: "bearer",
            description: "SYNCFILE_METRICS_TOKEN, when it is set",
          },
        },
      },
      tags: [
        { name: "files", description: "upload procedure and download" },
        { name: "syncs", description: "custom integration data into an app account" },
        { name: "access reviews", description: "campaign executions and their report archives" },
        { name: "app accounts", description: "what the syncs made" },
        { name: "operations", description: "health, readiness and metrics, for an operator's tools" },
      ],
    },
  });
  // in a context of its own, so that its headers are on /docs alone
  await app.register(async (docs) => {
    docs.addHook("onSend", async (_request, reply) => {
      reply.header("X-Frame-Options", "DENY"); // for browsers that do not read frame-ancestors
    });
    await docs.register(swaggerUi, {
      routePrefix: "/docs",
      // no validator badge: it would ask validator.swagger.io
      uiConfig: { validatorUrl: null, deepLinking: true },
      staticCSP: DOCS_CSP,
    });
  });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}

export default fp(openapi, { name: "syncfile-openapi", fastify: "5.x" });
