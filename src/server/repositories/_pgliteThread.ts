// The embedded database's thread, seen from the server's: requests sent and answered in order
// (_pgliteMessages.ts). When the thread dies (a crash, its memory exhausted), what was asked of
// it fails as Unavailable (a 503) and a new thread opens the same directory at once — PostgreSQL
// recovers it as after a power cut, so nothing committed is lost and nothing half-done stays;
// the log says so in one line when it goes and one when it is back.

import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type DependencyLog, DependencyWatch, stderrLog, Unavailable } from "../Unavailable.js";
import type { FromPglite, PgliteErrorData, PgliteWorkerData, ToPglite } from "./_pgliteMessages.js";

/** Where the thread's script is built: beside this module in dist/. */
const SCRIPT = "pglite-worker.js";
// its JavaScript holds one statement's parameters or rows (a page, a batch); PostgreSQL's own
// memory (WebAssembly's) is not counted here
const HEAP_MB = 256;

/** A request without its id (given when sent). */
export type PgliteRequest = WithoutId<ToPglite>;
type WithoutId<M> = M extends ToPglite ? Omit<M, "id"> : never;

/** An answer: rows, and how many a statement changed. */
export interface PgliteAnswer {
  rows: unknown[];
  affectedRows: number | null;
}

interface Running {
  worker: Worker;
  /** Its thread has ended: nothing sent to it would be answered. */
  ended: boolean;
  pending: Map<number, { resolve(answer: PgliteAnswer): void; reject(error: Error): void }>;
}

/** The database's thread; started by `start`, restarted after it dies. */
export class PgliteThread {
  readonly #data: PgliteWorkerData;
  readonly #watch: DependencyWatch;
  #running: Promise<Running>;
  /** The thread, once its database is open; null while it (re)starts. */
  #up: Running | null = null;
  #next = 1;
  #closing = false;
  /** Counts the threads started: a transaction is bound to the one it began on. */
  generation = 0;

  private constructor(data: PgliteWorkerData, log: DependencyLog) {
    this.#data = data;
    this.#watch = new DependencyWatch("the embedded database", log);
    this.#running = this.#spawn();
  }

  /** Starts the thread on the cluster in `data.dir`; rejects with why it could not open it. */
  static async start(data: PgliteWorkerData, log: DependencyLog = stderrLog): Promise<PgliteThread> {
    const thread = new PgliteThread(data, log);
    await thread.#running;
    return thread;
  }

  /**
   * Sends `request` (at once when the thread is up: requests reach it in the order sent);
   * resolves to its answer. Rejects with the database's error as it gave it, or Unavailable
   * when the thread is not there (or not the `generation` asked for).
   */
  send(request: PgliteRequest, generation?: number): Promise<PgliteAnswer> {
    const running = this.#up;
    if (running) return this.#post(running, request, generation);
    return this.#running.then(
      (started) => this.#post(started, request, generation),
      (error: unknown) => {
        if (this.#closing) throw new Unavailable("the embedded database", "the server is closing");
        this.#running = this.#spawn(); // the next request tries again
        this.#running.catch(() => {});
        throw this.#watch.down(error);
      },
    );
  }

  #post(running: Running, request: PgliteRequest, generation: number | undefined): Promise<PgliteAnswer> {
    if (running.ended || (generation !== undefined && generation !== this.generation)) {
      return Promise.reject(this.#watch.down(new Error("its thread stopped")));
    }
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      running.pending.set(id, { resolve, reject });
      running.worker.postMessage({ ...request, id } as ToPglite);
    });
  }

  /** Closes the database (after what was sent before) and ends its thread. */
  async close(): Promise<void> {
    try {
      await this.send({ op: "close" });
    } catch {} // gone already: nothing to close
    this.#closing = true;
    const running = await this.#running.catch(() => null);
    await running?.worker.terminate();
  }

  /** A new thread; resolves once its database is open. */
  #spawn(): Promise<Running> {
    const script = workerScript();
    this.generation++;
    const worker = new Worker(script, {
      workerData: this.#data,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    });
    const running: Running = { worker, ended: false, pending: new Map() };
    return new Promise((opened, failed) => {
      let ready = false;
      worker.on("message", (message: FromPglite) => {
        if ("op" in message) {
          if (message.op === "ready") {
            ready = true;
            this.#up = running;
            this.#watch.up();
            opened(running);
          } else failed(asError(message.error));
          return;
        }
        const waiting = running.pending.get(message.id);
        running.pending.delete(message.id);
        if (message.ok) waiting?.resolve({ rows: message.rows, affectedRows: message.affectedRows });
        else waiting?.reject(asError(message.error));
      });
      // an uncaught error (or memory exhausted) ends the thread: 'error', then 'exit'
      let cause: Error | null = null;
      worker.on("error", (error) => {
        cause = error;
      });
      worker.on("exit", (code) => {
        running.ended = true;
        if (this.#up === running) this.#up = null;
        if (this.#closing) return;
        const reason = cause ?? new Error(`its thread ended (exit code ${code})`);
        if (!ready) return failed(reason);
        const down = this.#watch.down(reason);
        for (const waiting of running.pending.values()) waiting.reject(down);
        running.pending.clear();
        this.#running = this.#spawn();
        this.#running.catch(() => {}); // said to the requests that wait for it
      });
    });
  }
}

/** The database's error, with PostgreSQL's fields (code, detail, …) where it gave them. */
function asError(data: PgliteErrorData): Error {
  return Object.assign(new Error(data.message), data.fields);
}

/**
 * The thread's script: built beside this module (dist/); when this module runs from its source
 * (the tests), @syncfile/server's build of it (packages/server/dist/).
 */
function workerScript(): URL {
  const beside = new URL(`./${SCRIPT}`, import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  const built = new URL(`../../../packages/server/dist/${SCRIPT}`, import.meta.url);
  if (import.meta.url.endsWith(".ts") && existsSync(fileURLToPath(built))) return built;
  throw new Error(`${fileURLToPath(beside)} is missing: build syncfile (npm run build)`);
}
