// Temporary files and folders that must not outlive the process. Whoever makes one removes it
// when done; should the process exit first (process.exit, which the CLI also calls on SIGINT
// and SIGTERM), the exit hook here removes what is still listed, so that an interrupted
// conversion leaves no half-written `.part` file behind.

import { rmSync } from "node:fs";

const live = new Set<string>();
let hooked = false;

/**
 * Lists `path` (a file or a folder) for removal should the process exit while it is in use;
 * returns the function that removes it from the list (not from the disk) once its maker is done.
 */
export function removeAtExit(path: string): () => void {
  if (!hooked) {
    hooked = true;
    process.on("exit", removeAll);
  }
  live.add(path);
  return () => {
    live.delete(path);
  };
}

// an exit hook runs only synchronous code, and must not throw
function removeAll(): void {
  for (const path of live) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // nothing more can be done as the process ends
    }
  }
  live.clear();
}
