// A small file made once per data directory (a secret, an API key): the first process to
// create it writes it; every later one reads it.

import { closeSync, openSync, readFileSync, writeSync } from "node:fs";

/** The contents of `path`, written as `make()` (mode 0600) when the file does not exist yet; `created` says which. */
export function createOnce(path: string, make: () => string): { value: string; created: boolean } {
  let created = false;
  try {
    const fd = openSync(path, "wx", 0o600);
    try {
      writeSync(fd, `${make()}\n`);
    } finally {
      closeSync(fd);
    }
    created = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  // another process may have created it a moment ago and be writing it
  for (let attempt = 0; ; attempt++) {
    const value = readFileSync(path, "utf8").trim();
    if (value !== "" || attempt >= 200) return { value, created };
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  }
}
