// The two syncs: a registered file, JSON or CSV, into an app account.

import type { FastifyInstance, FastifyRequest } from "fastify";
import { badRequest, parseId } from "../_http.js";
import { route, type ServerContext } from "./_context.js";

export async function syncsRoutes(app: FastifyInstance, { syncs }: ServerContext): Promise<void> {
  const sync = (format: "json" | "csv") => async (request: FastifyRequest) => {
    const body = request.body as Record<string, unknown> | undefined;
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw badRequest(
        'the body must be a JSON object: {"idFile": <file id>, "idAppAccount": <app account id>}',
      );
    }
    return syncs.run(parseId("idFile", body.idFile), parseId("idAppAccount", body.idAppAccount), format);
  };
  route(app, "syncCustom", sync("json"));
  route(app, "syncCustomCsv", sync("csv"));
}
