// PGlite served on a Unix socket to any number of PostgreSQL clients, with pglite-socket's
// connection handler and our own queue. PGlite is one session: the clients' messages take
// turns, and a client keeps the session for as long as it must — through a transaction, and
// from the first message of an extended-protocol exchange (Parse, Bind, Execute…) to its
// Sync. pglite-socket's own queue keeps it only through transactions, so under concurrent
// load another client's Parse could replace the unnamed statement between a Parse and its
// Bind ("bind message supplies 10 parameters, but prepared statement requires 3").

import { createServer, type Server } from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketHandler } from "@electric-sql/pglite-socket";

interface Item {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'
const PROTOCOL_3 = 196608;

/** Whether a client message leaves its exchange unfinished (more messages of it must follow). */
function leavesExchangeOpen(message: Uint8Array): boolean {
  const type = message[0];
  if (type === SYNC || type === QUERY || type === TERMINATE) return false;
  // the startup message has no type byte: length, then the protocol version
  const startup =
    message.length >= 8 && new DataView(message.buffer, message.byteOffset).getInt32(4) === PROTOCOL_3;
  return !startup;
}

/** The queue the connection handlers share: one message at a time, a client's exchange kept whole. */
class ExchangeQueue {
  readonly #db: PGlite;
  #items: Item[] = [];
  #running = false;
  #holder: number | null = null;

  constructor(db: PGlite) {
    this.#db = db;
  }

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#items.push({ handlerId, message, onData, resolve, reject });
      void this.#run();
    });
  }

  getQueueLength(): number {
    return this.#items.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.#items = this.#items.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error("the client disconnected"));
      return false;
    });
  }

  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.#holder !== handlerId) return;
    if (this.#db.isInTransaction()) await this.#db.exec("ROLLBACK").catch(() => {});
    this.#holder = null;
    void this.#run();
  }

  async #run(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      while (this.#items.length > 0) {
        const at =
          this.#holder === null ? 0 : this.#items.findIndex((item) => item.handlerId === this.#holder);
        if (at < 0) break; // the holder's next message has not arrived yet
        const item = this.#items.splice(at, 1)[0] as Item;
        let bytes = 0;
        try {
          await this.#db.runExclusive(() =>
            this.#db.execProtocolRawStream(item.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          this.#holder = null;
          item.reject(error);
          continue;
        }
        this.#holder = leavesExchangeOpen(item.message) || this.#db.isInTransaction() ? item.handlerId : null;
        item.resolve(bytes);
      }
    } finally {
      this.#running = false;
    }
  }
}

/** Serves `db` on the Unix socket `path`; resolves once it listens, to something that stops it. */
export async function serveOnSocket(db: PGlite, path: string): Promise<{ stop(): Promise<void> }> {
  const queue = new ExchangeQueue(db);
  const handlers = new Set<PGLiteSocketHandler>();
  const server: Server = createServer((socket) => {
    const handler = new PGLiteSocketHandler({
      queryQueue: queue as unknown as ConstructorParameters<typeof PGLiteSocketHandler>[0]["queryQueue"],
      closeOnDetach: true,
    });
    handlers.add(handler);
    socket.once("close", () => handlers.delete(handler));
    void handler.attach(socket).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    async stop() {
      for (const handler of handlers) await handler.detach(true).catch(() => {});
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
