// A TCP proxy in front of the project's server, for what a network does to a client: it
// records the requests that pass (to prove that none did) and can cut a connection in the
// middle of a response (to prove that a download survives it). The server stays real.

import { connect, createServer, type Socket } from "node:net";

export interface FaultyProxy {
  /** The proxy's base URL; the server's redirects come back through it (they use the Host header). */
  readonly url: string;
  /** Request lines seen, e.g. "GET /v1.0/files/url?…". */
  readonly requests: string[];
  /** The next response to a request whose line matches `pattern` is cut after `bytes` bytes. */
  cutNext(pattern: RegExp, bytes: number): void;
  /** How many responses were cut. */
  readonly cuts: number;
  close(): Promise<void>;
}

/** A proxy on a free port of 127.0.0.1 forwarding to `target` (http://host:port). */
export async function startProxy(target: string): Promise<FaultyProxy> {
  const upstream = new URL(target);
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let armed: { pattern: RegExp; bytes: number } | null = null;
  let cuts = 0;
  const server = createServer((client) => {
    const server = connect(Number(upstream.port), upstream.hostname);
    sockets.add(client).add(server);
    let cutAfter: number | null = null; // bytes of response left before the cut
    client.on("data", (chunk: Buffer) => {
      for (const match of chunk.toString("latin1").matchAll(/^([A-Z]+ \S+) HTTP\/1\.1\r$/gm)) {
        const line = match[1] as string;
        requests.push(line);
        if (armed?.pattern.test(line)) {
          cutAfter = armed.bytes;
          armed = null;
        }
      }
      server.write(chunk);
    });
    server.on("data", (chunk: Buffer) => {
      if (cutAfter === null) {
        client.write(chunk);
        return;
      }
      if (chunk.length < cutAfter) {
        cutAfter -= chunk.length;
        client.write(chunk);
        return;
      }
      client.write(chunk.subarray(0, cutAfter));
      cuts++;
      client.destroy();
      server.destroy();
    });
    const end = () => {
      client.destroy();
      server.destroy();
      sockets.delete(client);
      sockets.delete(server);
    };
    client.on("close", end).on("error", end);
    server.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    get cuts() {
      return cuts;
    },
    cutNext(pattern, bytes) {
      armed = { pattern, bytes };
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
