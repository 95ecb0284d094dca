// A TCP proxy between a client and a server of any protocol, for what a network does to a
// connection: it counts the bytes the server sends (to see how far a client has read), can cut
// every connection once the server has sent so many bytes (a connection dropped half way), and
// tells how many connections are still open (to see that a client closed its own).

import { once } from "node:events";
import { connect, createServer, type Socket } from "node:net";

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  readonly port: number;
  /** Bytes the server has sent through the proxy so far. */
  readonly bytesDown: number;
  /** Client connections still open. */
  readonly open: number;
  /** Cuts each connection (both sides) once the server has sent `bytes` more on it. */
  cutAfter(bytes: number): void;
  close(): Promise<void>;
}

/** A proxy on a free port of 127.0.0.1 to 127.0.0.1:`port`. */
export async function startTcpProxy(port: number): Promise<TcpProxy> {
  const clients = new Set<Socket>();
  let bytesDown = 0;
  let cut: number | null = null;
  const server = createServer((client) => {
    clients.add(client);
    const upstream = connect(port, "127.0.0.1");
    let left = cut;
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", () => {
      clients.delete(client);
      upstream.destroy();
    });
    client.on("error", end);
    upstream.on("error", end);
    upstream.on("close", () => client.destroy());
    client.on("data", (chunk: Buffer) => upstream.write(chunk));
    upstream.on("data", (chunk: Buffer) => {
      if (left !== null && chunk.length >= left) {
        bytesDown += left;
        client.write(chunk.subarray(0, left), end);
        left = 0;
        upstream.pause();
        return;
      }
      if (left !== null) left -= chunk.length;
      bytesDown += chunk.length;
      client.write(chunk);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    port: (server.address() as { port: number }).port,
    get bytesDown() {
      return bytesDown;
    },
    get open() {
      return clients.size;
    },
    cutAfter(bytes: number) {
      cut = bytes;
    },
    async close() {
      for (const client of clients) client.destroy();
      server.close();
      await once(server, "close");
    },
  };
}
