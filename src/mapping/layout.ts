// How a file's columns are read, as a pass is told: its header decides (a built-in profile
// when it is one, else the service's layout), the service's layout alone, or a mapping.

import type { MappingDocument } from "./MappingDocument.js";

/**
 * `detect`: a built-in profile when the header is one, else the service's layout; `none`: the
 * service's layout alone; a mapping: that one, given by name (`profile`) or as a document
 * (`file`); `raw`: every row as it is, nothing matched, the header being the row above the
 * first row of a user when a title is above it, else the first row (what `syncfile mapping
 * suggest` looks at).
 */
export type Layout = "detect" | "none" | "raw" | { mapping: MappingDocument; given: "profile" | "file" };
