// The upload procedure's first and last steps, and download: an upload URL for a name and a
// content type, the registration of what was uploaded, and a redirect to a signed download URL.

import type { FastifyInstance } from "fastify";
import { DOWNLOAD_URL_TTL_MS, FILE_TYPES, UPLOAD_URL_TTL_MS } from "../../http/operations.js";
import { badRequest, HttpError, parseId, requireString, show } from "../_http.js";
import { BlobStore } from "../BlobStore.js";
import { baseUrl, route, type ServerContext, signedUrl } from "./_context.js";

const FILE_NAME_HINT = "the file's base name, such as users.json";

export async function filesRoutes(
  app: FastifyInstance,
  { blobs, files, clock }: ServerContext,
): Promise<void> {
  route(app, "fileUploadUrl", async (request) => {
    const query = request.query as Record<string, unknown>;
    const name = requireString("name", query.name, FILE_NAME_HINT);
    if (!BlobStore.validPath(name) || name.includes("/") || Buffer.byteLength(name) > 255) {
      throw badRequest(
        `name must be ${FILE_NAME_HINT} (no /, \\, control characters, . or ..), got ${show(name)}`,
      );
    }
    const type = requireString(
      "type",
      query.type,
      "the content type the file will be uploaded with, such as application/json",
    );
    if (!/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(type) || type.length > 200) {
      throw badRequest(`type must be a content type such as application/json or text/csv, got ${show(type)}`);
    }
    const filePath = `${clock()}/${name}`;
    const expires = clock() + UPLOAD_URL_TTL_MS;
    const url = signedUrl(
      baseUrl(request),
      filePath,
      expires,
      type,
      blobs.sign("PUT", filePath, expires, type),
    );
    return { uploadFileParameters: { url, filePath } };
  });

  route(app, "registerFile", async (request, reply) => {
    const body = request.body as Record<string, unknown> | undefined;
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw badRequest(
        'the body must be a JSON object: {"path": "<filePath>", "type": "customIntegrationData"}',
      );
    }
    const path = requireString("path", body.path, "the filePath that GET /v1.0/files/url returned");
    const type = requireString("type", body.type, `one of ${FILE_TYPES.join(", ")}`);
    if (!(FILE_TYPES as readonly string[]).includes(type)) {
      throw badRequest(`type must be one of ${FILE_TYPES.join(", ")}, got ${show(type)}`);
    }
    const upload = await files.upload(path);
    if (!upload) {
      throw badRequest(
        `nothing was uploaded to ${show(path)}: PUT the file to the URL from GET /v1.0/files/url first, then register its filePath`,
      );
    }
    reply.code(201);
    return { id: await files.register(path, type, upload) };
  });

  route(app, "downloadFile", async (request, reply) => {
    const id = parseId("id", (request.params as { id: string }).id);
    const path = await files.pathOf(id);
    if (path === null) throw new HttpError(404, `file ${id} not found`);
    const expires = clock() + DOWNLOAD_URL_TTL_MS;
    reply.redirect(signedUrl(baseUrl(request), path, expires, "", blobs.sign("GET", path, expires)), 302);
  });
}
