// Spills in a browser build, which has no temporary files: the bytes stay in memory (MemorySpill).

import { MemorySpill } from "./MemorySpill.js";
import type { openSpill as openFileSpill } from "./spill.js";

export type { SpillFile } from "./spill.js";

/** A new, empty MemorySpill (`prefix` names a temporary file in Node; here there is none). */
export const openSpill: typeof openFileSpill = () => new MemorySpill();
