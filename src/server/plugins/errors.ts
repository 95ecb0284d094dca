// The error handler: every error a route, fastify or a hook raises becomes the service's error
// body with the right status — an HttpError as it says, fastify's body-parsing errors in plain
// words, a dependency that does not answer a 503 with Retry-After, anything else a 500 whose
// detail goes to the log only; and unknown routes are a 404.

import type { FastifyInstance, FastifyReply } from "fastify";
import fp from "fastify-plugin";
import { redactText } from "syncfile/internal/text/redact.js";
import { badRequest, HttpError, show } from "../HttpError.js";
import { RETRY_AFTER_SECONDS, Unavailable } from "../Unavailable.js";

/**
 * Sends `error` as the response: its status, headers and JSON body (a 5xx's with the request id),
 * its message redacted (text/redact.ts): a dependency's error may quote what configured it.
 */
export function send(reply: FastifyReply, error: HttpError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  const said = { ...error.body(), message: redactText(error.message) };
  const body = error.statusCode >= 500 ? { ...said, requestId: reply.request.id } : said;
  return reply.code(error.statusCode).type("application/json; charset=utf-8").send(body);
}

async function errors(app: FastifyInstance): Promise<void> {
  app.setErrorHandler(
    (error: Error & { statusCode?: number; code?: string; validation?: unknown }, request, reply) => {
      if (error instanceof HttpError) return send(reply, error);
      if (error instanceof Unavailable) {
        // its adapter has told the log once; the client is told to come back (and retries a 503)
        return send(
          reply,
          new HttpError(503, error.message, {}, { "Retry-After": String(RETRY_AFTER_SECONDS) }),
        );
      }
      if (Array.isArray(error.validation))
        return send(reply, badRequest(refusal(error.validation, error.message)));
      if (error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError) {
        return send(reply, badRequest(`the body is not JSON: ${error.message}`));
      }
      if (error.code === "FST_ERR_CTP_EMPTY_JSON_BODY")
        return send(reply, badRequest("the body is empty; send a JSON object"));
      if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
        return send(reply, new HttpError(415, "send the body as JSON, with Content-Type: application/json"));
      }
      if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE")
        return send(reply, new HttpError(413, "the body is too large"));
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return send(reply, new HttpError(error.statusCode, error.message));
      }
      request.log.error({ err: error }, "internal error");
      return send(
        reply,
        new HttpError(500, `internal error; the server's log says more (request ${request.id})`),
      );
    },
  );
  app.setNotFoundHandler((request, reply) =>
    send(reply, new HttpError(404, `no such route: ${request.method} ${request.url.split("?")[0]}`)),
  );
}

/** A schema error (ajv's, verbose) as the sentence its schema gives (routes/_schemas.ts). */
interface SchemaError {
  keyword: string;
  instancePath: string;
  params: { missingProperty?: string };
  parentSchema?: Record<string, unknown>;
  data?: unknown;
}

function refusal(errors: readonly SchemaError[], fallback: string): string {
  for (const error of errors) {
    const schema = error.parentSchema ?? {};
    if (error.keyword === "required") {
      const name = error.params.missingProperty ?? "";
      const property =
        (schema.properties as Record<string, Record<string, unknown>> | undefined)?.[name] ?? {};
      const said = property["x-missing"] ?? property["x-refusal"];
      if (typeof said === "string") return said;
      if (typeof property["x-message"] === "string") return `${property["x-message"]}, got nothing`;
      return `${name} is required`;
    }
    if (typeof schema["x-refusal"] === "string") return schema["x-refusal"];
    if (typeof schema["x-message"] === "string") return `${schema["x-message"]}, got ${show(error.data)}`;
  }
  return fallback;
}

export default fp(errors, { name: "syncfile-errors", fastify: "5.x" });
