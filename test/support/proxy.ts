// A TCP proxy in front of the project's server, for what a network does to a client: it
// records the requests that pass (to prove that none did), can cut a connection in the middle
// of a response — closed or reset — (to prove that a download survives it), and can answer
// a request itself as a load balancer would (a 502 or a 503), and can hold a response back
// until the test lets it go (to pace a sync that reads from a bucket). The server stays real.

import { createServer as createHttpServer, request as httpRequest } from "node:http";
import { connect, createServer, type Socket } from "node:net";

export interface FaultyProxy {
  /** The proxy's base URL; the server's redirects come back through it (they use the Host header). */
  readonly url: string;
  /** Request lines seen, e.g. "GET /v1.0/files/url?…". */
  readonly requests: string[];
  /** The next response to a request whose line matches `pattern` is cut after `bytes` bytes. */
  cutNext(pattern: RegExp, bytes: number, how?: "close" | "reset"): void;
  /** The next request whose line matches `pattern` is answered by the proxy with `response`. */
  answerNext(pattern: RegExp, response: string, options?: { open?: boolean }): void;
  /**
   * The next response to a request whose line matches `pattern` reaches the client as `edit`
   * makes it of its first packet (text as latin1; keep the body's length, or the answer breaks).
   */
  rewriteNext(pattern: RegExp, edit: (packet: string) => string): void;
  /**
   * The response to the next request whose line matches `pattern` is held back (its connection
   * stops reading from the target) until `release()`; `seen` resolves once the request passed.
   */
  holdNext(pattern: RegExp): { seen: Promise<void>; release(): void };
  /** How many responses were rewritten. */
  readonly rewrites: number;
  /** How many responses were cut. */
  readonly cuts: number;
  close(): Promise<void>;
}

/** A proxy on a free port of 127.0.0.1 forwarding to `target` (http://host:port). */
export async function startProxy(target: string): Promise<FaultyProxy> {
  const upstream = new URL(target);
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let armed: { pattern: RegExp; bytes: number; how: "close" | "reset" } | null = null;
  // `open`: the connection stays open after the response, as one whose body has not ended
  let answer: { pattern: RegExp; response: string; open: boolean } | null = null;
  let cuts = 0;
  let rewrite: { pattern: RegExp; edit: (packet: string) => string } | null = null;
  let rewrites = 0;
  let hold: { pattern: RegExp; seen(): void; released: Promise<void> } | null = null;
  const server = createServer((client) => {
    const server = connect(Number(upstream.port), upstream.hostname);
    let cutAfter: number | null = null; // bytes of response left before the cut
    let how: "close" | "reset" = "close";
    let answered = false;
    let edit: ((packet: string) => string) | null = null;
    client.on("data", (chunk: Buffer) => {
      if (answered) return;
      for (const match of chunk.toString("latin1").matchAll(/^([A-Z]+ \S+) HTTP\/1\.1\r$/gm)) {
        const line = match[1] as string;
        requests.push(line);
        if (answer?.pattern.test(line)) {
          answered = true;
          if (answer.open) client.write(answer.response);
          else client.end(answer.response);
          answer = null;
          server
            .removeAllListeners("close")
            .removeAllListeners("error")
            .on("error", () => {});
          server.destroy();
          return;
        }
        if (rewrite?.pattern.test(line)) {
          edit = rewrite.edit;
          rewrite = null;
        }
        if (hold?.pattern.test(line)) {
          const { seen, released } = hold;
          hold = null;
          server.pause();
          released.then(() => server.resume());
          seen();
        }
        if (armed?.pattern.test(line)) {
          cutAfter = armed.bytes;
          how = armed.how;
          armed = null;
        }
      }
      server.write(chunk);
    });
    server.on("data", (packet: Buffer) => {
      let chunk = packet;
      if (edit) {
        const edited = edit(chunk.toString("latin1"));
        if (edited !== chunk.toString("latin1")) rewrites++;
        chunk = Buffer.from(edited, "latin1");
        edit = null;
      }
      if (cutAfter === null) {
        client.write(chunk);
        return;
      }
      if (chunk.length < cutAfter) {
        cutAfter -= chunk.length;
        client.write(chunk);
        return;
      }
      const rest = chunk.subarray(0, cutAfter);
      cuts++;
      // the server's side goes at once; the client's gets the bytes before the cut first
      server
        .removeAllListeners("close")
        .removeAllListeners("error")
        .on("error", () => {});
      server.destroy();
      if (how === "reset") {
        client.write(rest, () => client.resetAndDestroy());
      } else {
        client.end(rest);
        client.destroySoon();
      }
    });
    pair(client, server, sockets);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    get cuts() {
      return cuts;
    },
    get rewrites() {
      return rewrites;
    },
    rewriteNext(pattern, edit) {
      rewrite = { pattern, edit };
    },
    cutNext(pattern, bytes, how = "close") {
      armed = { pattern, bytes, how };
    },
    answerNext(pattern, response, options = {}) {
      answer = { pattern, response, open: options.open ?? false };
    },
    holdNext(pattern) {
      let seen = () => {};
      let release = () => {};
      const seenOnce = new Promise<void>((resolve) => {
        seen = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      hold = { pattern, seen, released };
      return { seen: seenOnce, release };
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A TCP passage to a server (PostgreSQL, Redis) that a test can cut and restore, as an outage does. */
export interface Passage {
  /** Where to connect instead of the server: 127.0.0.1 and this port. */
  readonly port: number;
  /** The server goes away: open connections are reset, new ones are refused at once. */
  cut(): void;
  /** The server is back. */
  restore(): void;
  close(): Promise<void>;
}

/** A passage on a free port of 127.0.0.1 to `host`:`port`. */
export async function startPassage(host: string, port: number): Promise<Passage> {
  const sockets = new Set<Socket>();
  let open = true;
  const passage = createServer((client) => {
    if (!open) {
      client.resetAndDestroy();
      return;
    }
    const server = connect(port, host);
    client.pipe(server).pipe(client);
    pair(client, server, sockets);
  });
  await new Promise<void>((resolve) => passage.listen(0, "127.0.0.1", resolve));
  return {
    port: (passage.address() as { port: number }).port,
    cut() {
      open = false;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    restore() {
      open = true;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        passage.close(() => resolve());
      }),
  };
}

/** Tracks `client` and `server` in `sockets`; when either ends or fails, both go. */
function pair(client: Socket, server: Socket, sockets: Set<Socket>): void {
  sockets.add(client).add(server);
  const end = () => {
    client.destroy();
    server.destroy();
    sockets.delete(client);
    sockets.delete(server);
  };
  client.on("close", end).on("error", end);
  server.on("close", end).on("error", end);
}

/** A forward HTTP proxy as a corporate network has one: what HTTP_PROXY names. */
export interface ForwardProxy {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** Each request it forwarded, as it came: "GET http://host:port/path?…", or "CONNECT host:port". */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * A forward proxy on a free port of 127.0.0.1: a request in absolute form is sent on to its
 * URL and the answer streamed back; CONNECT opens a tunnel.
 */
export async function startForwardProxy(): Promise<ForwardProxy> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const proxy = createHttpServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    let target: URL;
    try {
      target = new URL(request.url ?? "");
    } catch {
      response.writeHead(400).end("a proxy takes absolute URLs");
      return;
    }
    const onward = httpRequest(target, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    onward.on("error", () => response.destroy());
    request.pipe(onward);
  });
  proxy.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  proxy.on("connect", (request, client: Socket, head) => {
    requests.push(`CONNECT ${request.url}`);
    const [host, port] = (request.url ?? "").split(":");
    const server = connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      server.write(head);
      server.pipe(client).pipe(server);
    });
    server.on("error", () => client.destroy());
    client.on("error", () => server.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as { port: number }).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}
