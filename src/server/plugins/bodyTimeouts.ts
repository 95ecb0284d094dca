// Time limits on receiving a request's body, which fastify leaves unset (a body that stops, or
// trickles in a byte at a time, held its connection forever). Node's own requestTimeout would
// also cut a multi-gigabyte upload to the storage that is merely long, so the limits are here,
// per request: an idle limit on every body (nothing arrived for so long: the connection is
// closed), and a total limit on every body but those of routes that stream a large body
// (`config.steadyBody`: the storage's PUT), which may take as long as they keep coming. Once a
// body has arrived the limits end: a long sync after it is not cut off. Headers are limited by
// Node's headersTimeout, an idle keep-alive connection by fastify's keepAliveTimeout.

import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route streams a body of any size: only the idle limit applies to it, not the total. */
    steadyBody?: boolean;
  }
}

/** The limits, in ms. */
export interface BodyTimeouts {
  /** The longest a body may pause. */
  idleMs: number;
  /** The longest a body (but a steady one's) may take from the headers to its end. */
  totalMs: number;
}

async function bodyTimeouts(app: FastifyInstance, { idleMs, totalMs }: BodyTimeouts): Promise<void> {
  app.addHook("onRequest", (request: FastifyRequest, _reply, done) => {
    const raw = request.raw;
    if (raw.complete) return done(); // no body, or all of it here already
    const socket = raw.socket;
    // a socket that times out with no one listening is destroyed by Node's HTTP server
    socket.setTimeout(idleMs);
    const total = request.routeOptions.config?.steadyBody
      ? null
      : setTimeout(() => socket.destroy(), totalMs).unref();
    const received = () => {
      if (total) clearTimeout(total);
      if (!socket.destroyed) socket.setTimeout(app.server.timeout); // fastify's connectionTimeout
    };
    raw.once("end", received);
    raw.once("close", received);
    done();
  });
}

export default fp(bodyTimeouts, { name: "syncfile-body-timeouts", fastify: "5.x" });
