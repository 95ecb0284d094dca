// The two syncs: a registered file, JSON or CSV, into an app account.

import type { FastifyInstance, FastifyRequest } from "fastify";
import { route, type ServerContext } from "./_context.js";
import { idValue, objectBody } from "./_schemas.js";

const SYNC_BODY = objectBody('{"idFile": <file id>, "idAppAccount": <app account id>}', {
  idFile: idValue("idFile"),
  idAppAccount: idValue("idAppAccount"),
});

export async function syncsRoutes(app: FastifyInstance, { syncs }: ServerContext): Promise<void> {
  const sync = (format: "json" | "csv") => async (request: FastifyRequest) => {
    const body = request.body as { idFile: number | string; idAppAccount: number | string };
    // `success: true`, as the service's reference answers, and our summary beside it
    return { success: true, ...(await syncs.run(Number(body.idFile), Number(body.idAppAccount), format)) };
  };
  route(app, "syncCustom", { body: SYNC_BODY }, sync("json"));
  route(app, "syncCustomCsv", { body: SYNC_BODY }, sync("csv"));
}
