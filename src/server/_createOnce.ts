// A small file made once per data directory (a secret, an API key): the first process to
// create it writes it; every later one reads it. The file appears complete or not at all, so a
// process that starts alongside the first one, or after one that died writing it, never reads
// it empty.

import { existsSync, readFileSync } from "node:fs";
import { createFileIfAbsent } from "syncfile/internal/bytes/replaceFile.js";

/** The contents of `path`, written as `make()` (mode 0600) when the file does not exist yet; `created` says which. */
export function createOnce(path: string, make: () => string): { value: string; created: boolean } {
  // existsSync only saves making a value that would not be used; createFileIfAbsent decides
  const created = !existsSync(path) && createFileIfAbsent(path, `${make()}\n`, { mode: 0o600 });
  return { value: readFileSync(path, "utf8").trim(), created };
}
