// The upload procedure's first and last steps, the small upload of one request, a file's
// information, and download: an upload URL for a name and a content type, the registration of
// what was uploaded, a multipart upload of up to 3 MiB, and a redirect to a signed download URL.

import { extname } from "node:path";
import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  DEFAULT_INFORMATION_TYPE,
  DOWNLOAD_URL_TTL_MS,
  FILE_TYPES,
  type FileInformation,
  type FileType,
  SMALL_UPLOAD_BYTES,
  SMALL_UPLOAD_EXTENSIONS,
  UPLOAD_URL_TTL_MS,
} from "syncfile/internal/http/operations.js";
import { badRequest, HttpError, show, tooLarge } from "../HttpError.js";
import { validObjectPath } from "../storage/types.js";
import { baseUrl, route, type ServerContext } from "./_context.js";
import { idText, objectBody, parameters, requiredText } from "./_schemas.js";

const FILE_NAME_HINT = "the file's base name, such as users.json";
const UPLOAD_PATH = /^\d+\/[^/]+$/;
const CONTENT_TYPE = /^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/;
const fileTypes = FILE_TYPES.join(", ");

/** A file type, in a query or a form. */
const fileType = (missing: string) => ({
  type: "string",
  enum: [...FILE_TYPES],
  "x-message": `type must be one of ${fileTypes}`,
  "x-missing": missing,
});

export async function filesRoutes(
  app: FastifyInstance,
  { blobs, files, clock, maxUploadBytes, metrics, publicUrl }: ServerContext,
): Promise<void> {
  // the service's document has `type` a plain text here: the content type the file will be
  // PUT with (its examples), or a file type (its support articles: type=customIntegrationData),
  // which signs the URL for any content type
  const uploadUrl = parameters(
    {
      name: requiredText("name", FILE_NAME_HINT),
      type: {
        type: "string",
        pattern: "^[^\\u0000-\\u001f\\u007f]*\\S[^\\u0000-\\u001f\\u007f]*$",
        maxLength: 200,
        "x-message":
          "type must be the content type the file will be PUT with (such as application/json), or its file type (such as customIntegrationData)",
        "x-missing": "type is required: the content type the file will be PUT with, such as application/json",
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
    if (!validFileName(name)) {
      throw badRequest(`name must be ${FILE_NAME_HINT} (${FILE_NAME_RULES}), got ${show(name)}`);
    }
    const filePath = `${stamp()}/${name}`;
    const contentType = CONTENT_TYPE.test(type) ? type : null;
    const url = await blobs.uploadUrl(filePath, contentType, UPLOAD_URL_TTL_MS, baseUrl(request, publicUrl));
    return { uploadFileParameters: { url, filePath } };
  });

  const register = objectBody('{"path": "<filePath>", "type": "customIntegrationData"}', {
    path: requiredText("path", "the filePath that GET /v1.0/files/url returned"),
    type: fileType(`type is required: one of ${fileTypes}`),
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
          const id = await files.register(path, type, upload, request.apiKeyNumber ?? null);
          metrics.uploadBytes.inc(upload.size);
          return id;
        });
    if (id === null) {
      throw badRequest(
        `nothing was uploaded to ${show(path)}: PUT the file to the URL from GET /v1.0/files/url first, then register its filePath`,
      );
    }
    // 200, as the service's reference answers (not 201)
    return { id };
  });

  await app.register(multipart, {
    // one file and its type: a part more, or a larger file, is refused as it arrives
    limits: { fileSize: SMALL_UPLOAD_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
  });
  route(
    app,
    "uploadSmallFile",
    { body: SMALL_UPLOAD_FORM },
    async (request) => {
      const form = await readSmallUpload(request);
      const filePath = `${stamp()}/${form.name}`;
      const pin = await blobs.write(filePath, form.bytes, form.contentType);
      const upload = { contentType: form.contentType, size: form.bytes.length, pin };
      const id = await files.register(filePath, form.type, upload, request.apiKeyNumber ?? null);
      metrics.uploadBytes.inc(upload.size);
      return { id };
    },
    // the form is read by the handler (readSmallUpload): its schema is for the OpenAPI document
    { consumes: ["multipart/form-data"], validatorCompiler: () => () => true },
  );

  const information = parameters({
    type: fileType(`type must be one of ${fileTypes}`),
  });
  route(
    app,
    "fileInformation",
    { params: parameters({ id: idText("id") }, ["id"]), querystring: information },
    async (request): Promise<FileInformation> => {
      const id = Number((request.params as { id: string }).id);
      const asked = (request.query as { type?: FileType }).type;
      const file = await files.file(id);
      if (file === null) throw new HttpError(404, `file ${id} not found`);
      if (!isFileType(file.type)) {
        // an access review's report archive, which the service's document gives no type of
        throw new HttpError(
          404,
          `file ${id} is an access review's report archive, which GET /v1.0/files/{id} does not look up: download it with GET /v1.0/files/${id}/download`,
        );
      }
      // the service looks a file up as the type asked for, expenseReport when none is
      if (file.type !== (asked ?? DEFAULT_INFORMATION_TYPE)) {
        throw new HttpError(
          404,
          `file ${id} is not of type ${asked ?? `${DEFAULT_INFORMATION_TYPE} (the type asked for when none is given)`}: it is a ${file.type} file; ask GET /v1.0/files/${id}?type=${file.type}`,
        );
      }
      const fileName = file.path.slice(file.path.lastIndexOf("/") + 1);
      const creationTime = file.createdAt.toISOString();
      return {
        file: { id, type: file.type, fileName, creationTime, uploadedBy: file.uploadedBy },
      };
    },
  );

  route(app, "downloadFile", { params: parameters({ id: idText("id") }, ["id"]) }, async (request, reply) => {
    const id = Number((request.params as { id: string }).id);
    const file = await files.file(id);
    if (file === null) throw new HttpError(404, `file ${id} not found`);
    // the object the file was registered with, or a 409 (ObjectChanged) when a bucket lost it
    const url = await blobs.downloadUrl(
      file.path,
      DOWNLOAD_URL_TTL_MS,
      baseUrl(request, publicUrl),
      file.pin,
    );
    reply.redirect(url, 302);
  });
}

/** The form of POST /v1.0/files/upload, for the OpenAPI document. */
const SMALL_UPLOAD_FORM = {
  type: "object",
  required: ["file", "type"],
  properties: {
    file: {
      type: "string",
      format: "binary",
      description: `the file, up to 3 MiB (${SMALL_UPLOAD_BYTES} bytes): ${SMALL_UPLOAD_EXTENSIONS.join(" ")}`,
    },
    type: { type: "string", enum: [...FILE_TYPES], description: "what the file is for" },
  },
};

const FORM_EXAMPLE = "curl -F file=@users.json -F type=customIntegrationData";

/** A small upload's form, read and checked: its file's name, bytes and content type, and its type. */
async function readSmallUpload(
  request: FastifyRequest,
): Promise<{ name: string; bytes: Buffer; contentType: string; type: FileType }> {
  if (!request.isMultipart()) {
    throw badRequest(`the body must be a multipart/form-data form with a file and its type: ${FORM_EXAMPLE}`);
  }
  let file: { name: string; bytes: Buffer; contentType: string } | null = null;
  let type: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.fieldname === "file" && part.type === "file") {
        file = { name: part.filename, bytes: await part.toBuffer(), contentType: part.mimetype };
      } else if (part.fieldname === "type" && part.type === "field") type = String(part.value);
      else if (part.fieldname === "file")
        throw badRequest("file must be a file, not text: send it as -F file=@<path>");
      else if (part.fieldname === "type") throw badRequest(`type must be text, not a file (${FORM_EXAMPLE})`);
      else {
        throw badRequest(
          `the form has a field ${show(part.fieldname)}: it takes file and type (${FORM_EXAMPLE})`,
        );
      }
    }
  } catch (error) {
    throw formRefusal(error);
  }
  if (file === null) throw badRequest(`file is required: the file to upload, up to 3 MiB (${FORM_EXAMPLE})`);
  if (type === undefined) throw badRequest(`type is required: one of ${fileTypes}`);
  if (!isFileType(type)) throw badRequest(`type must be one of ${fileTypes}, got ${show(type)}`);
  const { name } = file;
  if (!validFileName(name)) {
    throw badRequest(`the file's name must be ${FILE_NAME_HINT} (${FILE_NAME_RULES}), got ${show(name)}`);
  }
  const extension = extname(name).toLowerCase();
  if (!(SMALL_UPLOAD_EXTENSIONS as readonly string[]).includes(extension)) {
    throw new HttpError(
      415,
      `${show(name)} is not a file POST /v1.0/files/upload takes (${SMALL_UPLOAD_EXTENSIONS.join(" ")}): upload it with GET /v1.0/files/url, PUT and POST /v1.0/files`,
    );
  }
  return { ...file, type };
}

const FILE_NAME_RULES = "no /, \\, control characters, . or ..";

/** A name a file may be stored under: one path segment of at most 255 bytes. */
function validFileName(name: string): boolean {
  return validObjectPath(name) && !name.includes("/") && Buffer.byteLength(name) <= 255;
}

function isFileType(type: string): type is FileType {
  return (FILE_TYPES as readonly string[]).includes(type);
}

/** What @fastify/multipart's refusals of a form mean, in the interface's words. */
function formRefusal(error: unknown): unknown {
  switch ((error as { code?: string }).code) {
    case "FST_REQ_FILE_TOO_LARGE":
      return tooLarge(
        SMALL_UPLOAD_BYTES,
        ": POST /v1.0/files/upload takes files up to 3 MiB; upload a larger one with GET /v1.0/files/url, PUT and POST /v1.0/files",
      );
    case "FST_FILES_LIMIT":
      return badRequest(`the form has more than one file: it takes one (${FORM_EXAMPLE})`);
    case "FST_FIELDS_LIMIT":
    case "FST_PARTS_LIMIT":
      return badRequest(`the form has more fields than file and type (${FORM_EXAMPLE})`);
    case "FST_INVALID_MULTIPART_CONTENT_TYPE":
      return badRequest(`the body must be a multipart/form-data form: ${FORM_EXAMPLE}`);
    default:
      // ours, or the parser's word on a form it cannot read (no boundary, cut off before its
      // closing boundary, a malformed part): nothing but the form is read in the loop
      if (error instanceof HttpError) return error;
      return badRequest(
        `the form cannot be read (${(error as Error).message}): send a complete multipart/form-data form with its boundary, as ${FORM_EXAMPLE} does`,
      );
  }
}
