// One run of a job at a time, across the processes (and machines) that share its state folder:
// a lock file made only if it is not there (O_EXCL), holding who made it. A second run waits a
// bounded time for it to go; a lock whose process is gone from this machine is taken over.
// Written by hand: the lock libraries add a heartbeat thread and a dependency for what a job,
// which runs for minutes, does not need.

import { open, readFile, rm } from "node:fs/promises";
import { hostname } from "node:os";

/** How often a waiting run looks at the lock again. */
const POLL_MS = 200;

interface Holder {
  pid: number;
  host: string;
  since: string;
}

/** A lock held: release it when the run ends. */
export class JobLock {
  readonly #path: string;

  private constructor(path: string) {
    this.#path = path;
  }

  /**
   * The lock at `path`, waiting up to `waitMs` for another run to let it go; null if it does
   * not. `onWait` is told once, when the wait begins, who holds it ("pid 4711 on host-a since …").
   */
  static async take(
    path: string,
    waitMs: number,
    onWait?: (holder: string) => void,
  ): Promise<JobLock | null> {
    const until = Date.now() + waitMs;
    let told = false;
    for (;;) {
      if (await create(path)) return new JobLock(path);
      if (await abandoned(path)) {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() >= until) return null;
      if (!told && onWait) {
        told = true;
        onWait(await holderOf(path));
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(1, until - Date.now()))));
    }
  }

  async release(): Promise<void> {
    await rm(this.#path, { force: true });
  }
}

/** Makes the lock file if it is not there; false when another run holds it. */
async function create(path: string): Promise<boolean> {
  try {
    const file = await open(path, "wx", 0o600);
    const holder: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    await file.writeFile(`${JSON.stringify(holder)}\n`);
    await file.sync();
    await file.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** Who holds the lock at `path`, in words. */
async function holderOf(path: string): Promise<string> {
  try {
    const holder = JSON.parse(await readFile(path, "utf8")) as Holder;
    return `pid ${holder.pid} on ${holder.host} since ${holder.since}`;
  } catch {
    return "a run that is starting";
  }
}

/** A lock made on this machine by a process that is gone (killed mid-run): nobody holds it. */
async function abandoned(path: string): Promise<boolean> {
  let holder: Holder;
  try {
    holder = JSON.parse(await readFile(path, "utf8")) as Holder;
  } catch {
    return false; // being written, or gone: look again
  }
  if (holder.host !== hostname() || !Number.isInteger(holder.pid)) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
