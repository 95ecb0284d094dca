// The upload procedure's first and last steps, and download: an upload URL for a name and a
// content type, the registration of what was uploaded, and a redirect to a signed download URL.

import type { FastifyInstance } from "fastify";
import { DOWNLOAD_URL_TTL_MS, FILE_TYPES, UPLOAD_URL_TTL_MS } from "../../http/operations.js";
import { badRequest, HttpError, show, tooLarge } from "../HttpError.js";
import { validObjectPath } from "../storage/types.js";
import { baseUrl, route, type ServerContext } from "./_context.js";
import { idText, objectBody, parameters, requiredText } from "./_schemas.js";

const FILE_NAME_HINT = "the file's base name, such as users.json";
const UPLOAD_PATH = /^\d+\/[^/]+$/;

export async function filesRoutes(
  app: FastifyInstance,
  { blobs, files, clock, maxUploadBytes }: ServerContext,
): Promise<void> {
  const uploadUrl = parameters(
    {
      name: requiredText("name", FILE_NAME_HINT),
      type: {
        type: "string",
        pattern: "^[\\w.+-]+/[\\w.+-]+(\\s*;.*)?$",
        maxLength: 200,
        "x-message": "type must be a content type such as application/json or text/csv",
        "x-missing":
          "type is required: the content type the file will be uploaded with, such as application/json",
      },
    },
    ["name", "type"],
  );
  // each upload URL of this server a path of its own, even for one name twice in a millisecond:
  // a path whose file is registered takes no other upload, and one not yet registered is
  // nobody else's to replace
  let last = 0;
  const stamp = () => {
    last = Math.max(clock(), last + 1);
    return last;
  };
  route(app, "fileUploadUrl", { querystring: uploadUrl }, async (request) => {
    const { name, type } = request.query as { name: string; type: string };
    if (!validObjectPath(name) || name.includes("/") || Buffer.byteLength(name) > 255) {
      throw badRequest(
        `name must be ${FILE_NAME_HINT} (no /, \\, control characters, . or ..), got ${show(name)}`,
      );
    }
    const filePath = `${stamp()}/${name}`;
    const url = await blobs.uploadUrl(filePath, type, UPLOAD_URL_TTL_MS, baseUrl(request));
    return { uploadFileParameters: { url, filePath } };
  });

  const register = objectBody('{"path": "<filePath>", "type": "customIntegrationData"}', {
    path: requiredText("path", "the filePath that GET /v1.0/files/url returned"),
    type: {
      type: "string",
      enum: [...FILE_TYPES],
      "x-message": `type must be one of ${FILE_TYPES.join(", ")}`,
      "x-missing": `type is required: one of ${FILE_TYPES.join(", ")}`,
    },
  });
  route(app, "registerFile", { body: register }, async (request) => {
    const { path, type } = request.body as { path: string; type: string };
    // only what an upload URL was given for: <epoch ms>/<name>; from now on its object is fixed
    const id = !(UPLOAD_PATH.test(path) && validObjectPath(path))
      ? null
      : await blobs.registerUpload(path, async (upload) => {
          // the disk storage refuses a larger upload itself; a bucket's presigned PUT cannot
          if (upload.size > maxUploadBytes) {
            await blobs.remove(path);
            throw tooLarge(maxUploadBytes);
          }
          return files.register(path, type, upload);
        });
    if (id === null) {
      throw badRequest(
        `nothing was uploaded to ${show(path)}: PUT the file to the URL from GET /v1.0/files/url first, then register its filePath`,
      );
    }
    // 200, as the service's reference answers (not 201)
    return { id };
  });

  route(app, "downloadFile", { params: parameters({ id: idText("id") }, ["id"]) }, async (request, reply) => {
    const id = Number((request.params as { id: string }).id);
    const file = await files.file(id);
    if (file === null) throw new HttpError(404, `file ${id} not found`);
    // the object the file was registered with, or a 409 (ObjectChanged) when a bucket lost it
    const url = await blobs.downloadUrl(file.path, DOWNLOAD_URL_TTL_MS, baseUrl(request), file.pin);
    reply.redirect(url, 302);
  });
}
