// A port of 127.0.0.1 that is free now, for a server a test starts as a process of its own
// (slapd, mariadbd, redis-server).

import { once } from "node:events";
import { createServer } from "node:net";

/** A port free on 127.0.0.1 now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as { port: number }).port;
  server.close();
  await once(server, "close");
  return port;
}
