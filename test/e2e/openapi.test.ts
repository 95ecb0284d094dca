// The server describes itself: an OpenAPI 3.1 document made from the routes' schemas, valid,
// with every operation of src/http/operations.ts and its rate limit; an interactive reference
// at /docs that asks no other host for anything; and `syncfile serve` says where both are.

import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXTENSIONS, OPERATIONS } from "../../src/http/operations.js";
import { addFormats } from "../../src/schema/addFormats.js";
import type { SyncfileServer } from "../../src/server/index.js";
import { startCli } from "../support/cli.js";
import { fixture } from "../support/paths.js";
import { call, dataDir, KEY, removeDataDirs, startServer, TestClock, upload } from "../support/server.js";
import { waitFor } from "../support/waitFor.js";

let server: SyncfileServer;
beforeAll(async () => {
  const clock = new TestClock();
  const seed = JSON.parse(readFileSync(fixture("seed.json"), "utf8"));
  server = await startServer({ dataDir: await dataDir(), seed, clock: clock.read });
});
afterAll(async () => {
  await server.close();
  await removeDataDirs();
});

type Doc = { openapi: string; paths: Record<string, Record<string, Record<string, unknown>>> };

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.1 document, served without an API key", async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as Doc;
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("has every operation with its method, rate limit, error body and the key it needs", async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Doc;
    // the interface's operations: not those of an operator's tools (health, readiness, metrics)
    const documented = Object.values(doc.paths).flatMap((methods) =>
      Object.values(methods)
        .filter((o) => !(o.tags as string[]).includes("operations"))
        .map((o) => o.operationId),
    );
    expect(documented.sort()).toEqual(Object.keys(OPERATIONS).sort());
    for (const [name, { method, path, perMinute }] of Object.entries(OPERATIONS)) {
      const operation = doc.paths[path.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase()];
      expect(operation, name).toMatchObject({
        operationId: name,
        security: [{ apiKey: [] }],
        "x-rate-limit": { perMinute, windowSeconds: 60 },
      });
      expect(operation?.description).toContain(`Rate limit: ${perMinute} calls a minute per API key`);
      const responses = operation?.responses as Record<
        string,
        { content?: Record<string, { schema: { required?: string[] } }> }
      >;
      for (const status of ["400", "401", "429"]) {
        expect(
          responses[status]?.content?.["application/json"]?.schema.required,
          `${name} ${status}`,
        ).toEqual(["statusCode", "error", "message"]);
      }
    }
  });
});

describe("the service's published document", () => {
  it("has each of its Files and Integrations operations here, at its path, with its rate limit", async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Doc;
    const reference = JSON.parse(
      readFileSync(fixture("reference/service-openapi.files.json"), "utf8"),
    ) as Doc;
    const theirs = Object.entries(reference.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, o]) => (o.tags as string[]).some((tag) => tag === "Files" || tag === "Integrations"))
        .map(([method, o]) => ({
          path,
          method,
          limit: /Rate limit: (\d+) requests per minute/.exec(String(o.description))?.[1],
        })),
    );
    expect(theirs.length).toBe(7);
    for (const { path, method, limit } of theirs) {
      const ours = doc.paths[`/v1.0${path}`]?.[method];
      expect(ours, `${method} ${path}`).toBeDefined();
      expect(
        (ours?.["x-rate-limit"] as { perMinute?: number } | undefined)?.perMinute,
        `${method} ${path}`,
      ).toBe(Number(limit));
    }
    const form = doc.paths["/v1.0/files/upload"]?.post?.requestBody as {
      content: Record<
        string,
        { schema: { required: string[]; properties: Record<string, { format?: string }> } }
      >;
    };
    expect(form.content["multipart/form-data"]?.schema.required).toEqual(["file", "type"]);
    expect(form.content["multipart/form-data"]?.schema.properties.file?.format).toBe("binary");
  });
});

describe("what the operations answer", () => {
  it("is what the document says, for every operation that answers a body", async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Doc;
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    const answers: Record<string, unknown> = {};
    const base = server.url;
    const asked = async (operation: string, method: string, path: string, json?: unknown) => {
      const r = await call(base, method, path, json === undefined ? {} : { json });
      expect(r.status, `${operation}: ${JSON.stringify(r.body)}`).toBe(200);
      answers[operation] = r.body;
      return r.body;
    };
    const bytes = readFileSync(fixture("valid/example.json"));
    const { uploadFileParameters: target } = (await asked(
      "fileUploadUrl",
      "GET",
      "/v1.0/files/url?name=users.json&type=application/json",
    )) as { uploadFileParameters: { url: string; filePath: string } };
    const put = await fetch(target.url, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: bytes,
    });
    await put.text();
    expect(put.status).toBe(200);
    const { id: idFile } = (await asked("registerFile", "POST", "/v1.0/files", {
      path: target.filePath,
      type: "customIntegrationData",
    })) as { id: number };
    await asked("syncCustom", "PUT", "/v1.0/services/sync/custom", { idFile, idAppAccount: 5 });
    const csv = await upload(base, "users.csv", readFileSync(fixture("valid/example.csv")));
    await asked("syncGluu", "PUT", "/v1.0/services/sync/gluu", { idFile: csv, idAppAccount: 6 });
    await asked("syncCustomCsv", "PUT", "/v1.0/services/sync/custom/csv", { idFile: csv, idAppAccount: 6 });
    await asked("fileInformation", "GET", `/v1.0/files/${csv}?type=customIntegrationData`);
    const form = new FormData();
    form.set("type", "attachment");
    form.set("file", new Blob([bytes]), "small.json");
    const small = await fetch(`${base}/v1.0/files/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
      body: form,
    });
    expect(small.status).toBe(200);
    answers.uploadSmallFile = await small.json();
    await asked("listExecutions", "GET", "/v1.0/accessReviews/campaigns");
    await asked("appAccount", "GET", "/v1.0/appAccounts/5");
    await asked("appAccountUsers", "GET", "/v1.0/appAccounts/5/users?limit=1");
    const fewer = await upload(base, "fewer.json", '{"users": [{"email": "Adam.Test@example.com"}]}');
    const second = await call(base, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile: fewer, idAppAccount: 5 },
    });
    await asked("appAccountSyncs", "GET", "/v1.0/appAccounts/5/syncs");
    await asked("syncChanges", "GET", `/v1.0/appAccounts/5/syncs/${second.body.idSync}/changes`);
    expect((answers.syncChanges as { changes: unknown[] }).changes.length).toBeGreaterThan(3);
    for (const [operation, body] of Object.entries(answers)) {
      const { method, path } = OPERATIONS[operation as keyof typeof OPERATIONS];
      type Responses = Record<string, { content: Record<string, { schema: object }> }>;
      const documented = doc.paths[path.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase()];
      const responses = (documented?.responses ?? {}) as Responses;
      const schema = responses["200"]?.content["application/json"]?.schema as object;
      const validate = ajv.compile(schema);
      expect(validate(body) ? [] : validate.errors, operation).toEqual([]);
    }
    expect(Object.keys(answers).sort()).toEqual(
      Object.keys(OPERATIONS)
        .filter((o) => o !== "downloadFile")
        .sort(),
    );
  });
});

describe("syncfile's own operations", () => {
  it("are marked x-syncfile-extension in the document, and said to be ours; the service's are not", async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Doc;
    for (const [operation, { method, path }] of Object.entries(OPERATIONS)) {
      const documented = doc.paths[path.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase()] as Record<
        string,
        unknown
      >;
      const ours = EXTENSIONS.has(operation as keyof typeof OPERATIONS);
      expect(documented["x-syncfile-extension"] === true, operation).toBe(ours);
      expect(
        String(documented.description).startsWith("syncfile's own: not in the service's interface document."),
        operation,
      ).toBe(ours);
    }
  });
});

describe("/docs", () => {
  it("is an interactive reference whose page and scripts come from this server alone", async () => {
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("swagger-ui");
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset, asset).not.toMatch(/^(https?:)?\/\//);
      const url = new URL(asset, `${server.url}/docs/`);
      // each body read to its end: an unread one holds its connection, and the server's close waits for it
      const served = await fetch(url);
      await served.arrayBuffer();
      expect(served.status, url.href).toBe(200);
    }
    const initializer = await (await fetch(`${server.url}/docs/static/swagger-initializer.js`)).text();
    // what the page is told to load (comments may cite the web; a string to fetch may not)
    expect(initializer).not.toMatch(/["'`]https?:\/\/(?!127\.0\.0\.1|localhost)/);
    expect(initializer).toContain("validatorUrl");
  });
});

describe("syncfile serve", () => {
  it("prints where the OpenAPI document and the reference are", async () => {
    const serve = startCli(["serve", "--data", await dataDir(), "--port", "0", "--drain-delay", "0"]);
    try {
      await waitFor(() => serve.output().stderr.includes("/docs"), "serve to print its addresses");
      const { stderr } = serve.output();
      const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
      expect(stderr).toContain(
        `  the interface: ${url}/openapi.json (OpenAPI 3.1), ${url}/docs (reference)\n`,
      );
      const doc = await fetch(`${url}/openapi.json`);
      await doc.arrayBuffer();
      expect(doc.status).toBe(200);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.result;
    }
  });
});
