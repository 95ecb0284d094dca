// The disk storage's URLs (storage/disk.ts): a PUT of any body and a GET, authorised by the
// URL's signature alone (no API key), in a context of their own whose bodies are not parsed.
// With a bucket there are none: the presigned URLs point at the bucket.

import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpError, show, tooLarge } from "../HttpError.js";
import { BlobStore, Registered, TooLarge } from "../storage/disk.js";
import { attachment, validObjectPath } from "../storage/types.js";
import type { ServerContext } from "./_context.js";

export async function storageRoutes(
  storage: FastifyInstance,
  { blobs, clock, maxUploadBytes }: ServerContext,
): Promise<void> {
  if (!(blobs instanceof BlobStore)) return;
  storage.removeAllContentTypeParsers();
  storage.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
  // object storage takes any Content-Type header, as a bucket does: the service's own articles
  // PUT with `Content-Type: customIntegrationData`, which is no media type; fastify refuses such
  // a header before any parser sees it, so the header as sent is kept aside and what fastify
  // reads is a type it takes (the body is not parsed here anyway)
  storage.addHook("onRequest", async (request) => {
    const sent = request.headers["content-type"];
    if (sent === undefined) return;
    sentTypes.set(request.raw, sent);
    request.headers["content-type"] = "application/octet-stream";
  });
  // not in the OpenAPI document: the URLs are given, not built
  // an upload may take as long as it keeps coming (plugins/bodyTimeouts.ts)
  storage.put(
    "/storage/*",
    { schema: { hide: true }, config: { steadyBody: true } },
    async (request, reply) => {
      const { path, params } = storageRequest(request);
      const contentType = sentTypes.get(request.raw) ?? null;
      const verdict = blobs.verify("PUT", path, params, contentType, clock());
      if (verdict !== "ok") throw storageRefusal(verdict, params, contentType);
      const declared = Number(request.headers["content-length"] ?? Number.NaN);
      if (declared > maxUploadBytes) throw tooLarge(maxUploadBytes);
      try {
        // a URL signed for no type (GET /v1.0/files/url with a file type): the type it came with
        const type = params.contentType || contentType || "application/octet-stream";
        await blobs.accept(path, type, request.body as Readable, maxUploadBytes);
      } catch (error) {
        if (error instanceof TooLarge) throw tooLarge(maxUploadBytes);
        // the client went, or stopped sending (plugins/bodyTimeouts.ts): nobody to answer, no fault here
        if (request.raw.destroyed)
          throw new HttpError(400, "the upload ended before all of its bytes arrived");
        if (error instanceof Registered) {
          // "one PUT": a registered file's bytes never change behind its id
          throw new HttpError(
            409,
            `${path} is registered as a file and cannot change: ask GET /v1.0/files/url for a new URL to upload another file`,
          );
        }
        throw error;
      }
      reply.code(200).header("ETag", `"${params.signature.slice(0, 32)}"`);
      return "";
    },
  );
  storage.get("/storage/*", { schema: { hide: true } }, async (request, reply) => {
    const { path, params } = storageRequest(request);
    const verdict = blobs.verify("GET", path, { ...params, contentType: "" }, null, clock());
    if (verdict !== "ok") throw storageRefusal(verdict, params, null);
    const size = await blobs.size(path);
    if (size === null) throw new HttpError(404, `no blob at ${path}`);
    reply
      .header("Content-Type", await blobs.contentType(path))
      .header("Content-Length", String(size))
      .header("Content-Disposition", attachment(path))
      .header("X-Content-Type-Options", "nosniff"); // served as the type it was uploaded with, never guessed
    return reply.send(await blobs.read(path));
  });
}

/** The Content-Type header of each storage request, as it was sent. */
const sentTypes = new WeakMap<IncomingMessage, string>();

function storageRequest(request: FastifyRequest): {
  path: string;
  params: { expires: number; contentType: string; signature: string };
} {
  // decoded once, from the URL as it came: the router's wildcard parameter is decoded already,
  // and a name holding "%" (50%off.json) would be decoded twice
  const raw = (request.raw.url ?? "").split("?")[0]?.replace(/^\/storage\//, "") ?? "";
  let path: string;
  try {
    path = raw.split("/").map(decodeURIComponent).join("/");
  } catch {
    throw new HttpError(400, "the storage path is not valid URL encoding");
  }
  if (!validObjectPath(path)) throw new HttpError(400, `not a storage path: ${show(path)}`);
  const query = request.query as Record<string, unknown>;
  const expires = Number(query["X-Expires"]);
  if (!Number.isSafeInteger(expires) || typeof query["X-Signature"] !== "string") {
    throw new HttpError(
      403,
      "this storage URL is not signed: use the URL that GET /v1.0/files/url (or a download redirect) gave",
    );
  }
  return {
    path,
    params: {
      expires,
      contentType: typeof query["X-Content-Type"] === "string" ? query["X-Content-Type"] : "",
      signature: query["X-Signature"] as string,
    },
  };
}

function storageRefusal(
  verdict: string,
  params: { expires: number; contentType: string },
  contentType: string | null,
): HttpError {
  if (verdict === "expired") {
    return new HttpError(
      403,
      `this URL expired at ${new Date(params.expires).toISOString()}: ask for a new one with GET /v1.0/files/url`,
    );
  }
  if (verdict === "wrong-content-type") {
    return new HttpError(
      403,
      `this URL is signed for Content-Type ${show(params.contentType)} but the request has ${show(contentType ?? undefined)}: send the type given to GET /v1.0/files/url`,
    );
  }
  return new HttpError(403, "the URL's signature does not match: use the URL exactly as it was given");
}
